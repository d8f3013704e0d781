#!/usr/bin/env python3
#
# SPDX-License-Identifier: GPL-3.0-or-later
#
"""vector_to_stream against blocks.vector_to_stream on random data."""

import numpy as np
from gnuradio import blocks, gr_unittest

from gnuradio import cuda
from qa_support import run


class qa_vector_to_stream(gr_unittest.TestCase):
    def setUp(self):
        self.rng = np.random.default_rng(99)

    def complex_data(self, n):
        return (self.rng.standard_normal(n) + 1j * self.rng.standard_normal(n)).astype(np.complex64)

    def test_vector_to_stream_against_gnuradio(self):
        for per_vector, vectors in ((1, 1000), (128, 1001), (1000, 37)):
            data = self.complex_data(per_vector * vectors)
            got = run(
                blocks.vector_source_c(data, False, per_vector),
                [cuda.vector_to_stream(8, per_vector)],
                blocks.vector_sink_c(),
            )
            want = run(
                blocks.vector_source_c(data, False, per_vector),
                [blocks.vector_to_stream(8, per_vector)],
                blocks.vector_sink_c(),
            )
            np.testing.assert_array_equal(got, want)
            np.testing.assert_array_equal(got, data)


if __name__ == "__main__":
    gr_unittest.run(qa_vector_to_stream)
