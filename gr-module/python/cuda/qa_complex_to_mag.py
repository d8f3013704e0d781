#!/usr/bin/env python3
#
# SPDX-License-Identifier: GPL-3.0-or-later
#
"""complex_to_mag against blocks.complex_to_mag on random data."""

import numpy as np
from gnuradio import blocks, gr_unittest

from gnuradio import cuda
from qa_support import run


class qa_complex_to_mag(gr_unittest.TestCase):
    def setUp(self):
        self.rng = np.random.default_rng(99)

    def complex_data(self, n):
        return (self.rng.standard_normal(n) + 1j * self.rng.standard_normal(n)).astype(np.complex64)

    def test_against_complex_to_mag(self):
        for n in (1, 999, 250_001):
            data = self.complex_data(n)
            got = run(blocks.vector_source_c(data), [cuda.complex_to_mag()], blocks.vector_sink_f())
            want = run(blocks.vector_source_c(data), [blocks.complex_to_mag()], blocks.vector_sink_f())
            np.testing.assert_allclose(got, want, rtol=1e-5)


if __name__ == "__main__":
    gr_unittest.run(qa_complex_to_mag)
