#!/usr/bin/env python3
#
# SPDX-License-Identifier: GPL-3.0-or-later
#
"""stream_to_vector groups items into vectors, and vector_to_stream splits them back."""

import numpy as np
from gnuradio import blocks, gr_unittest

from gnuradio import cuda
from qa_support import run


class qa_stream_to_vector(gr_unittest.TestCase):
    def setUp(self):
        self.rng = np.random.default_rng(99)

    def complex_data(self, n):
        return (self.rng.standard_normal(n) + 1j * self.rng.standard_normal(n)).astype(np.complex64)

    def test_stream_to_vector_and_back(self):
        data = self.complex_data(128 * 1000 + 77)
        got = run(
            blocks.vector_source_c(data),
            [cuda.stream_to_vector(8, 128), cuda.vector_to_stream(8, 128)],
            blocks.vector_sink_c(),
        )
        np.testing.assert_array_equal(got, data[: 128 * 1000])

    def test_stream_to_vector_against_gnuradio(self):
        complex_ends = (blocks.vector_source_c, blocks.vector_sink_c)
        float_ends = (blocks.vector_source_f, blocks.vector_sink_f)
        for itemsize, per_vector in ((8, 1), (8, 64), (4, 1000)):
            data = self.rng.standard_normal(2 * 10_007).astype(np.float32)
            if itemsize == 8:
                data = data.view(np.complex64)
            source, sink = complex_ends if itemsize == 8 else float_ends
            got = run(source(data), [cuda.stream_to_vector(itemsize, per_vector)], sink(per_vector))
            want = run(source(data), [blocks.stream_to_vector(itemsize, per_vector)], sink(per_vector))
            np.testing.assert_array_equal(got, want)


if __name__ == "__main__":
    gr_unittest.run(qa_stream_to_vector)
