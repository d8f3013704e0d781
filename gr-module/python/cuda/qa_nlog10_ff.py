#!/usr/bin/env python3
#
# SPDX-License-Identifier: GPL-3.0-or-later
#
"""nlog10_ff against blocks.nlog10_ff on random powers."""

import numpy as np
from gnuradio import blocks, gr_unittest

from gnuradio import cuda
from qa_support import run


class qa_nlog10_ff(gr_unittest.TestCase):
    def setUp(self):
        self.rng = np.random.default_rng(99)

    def complex_data(self, n):
        return (self.rng.standard_normal(n) + 1j * self.rng.standard_normal(n)).astype(np.complex64)

    def test_against_nlog10_ff(self):
        for n in (1, 999, 250_001):
            power = np.abs(self.complex_data(n)).astype(np.float32) ** 2
            got = run(blocks.vector_source_f(power), [cuda.nlog10_ff(10, 1, -3)], blocks.vector_sink_f())
            want = run(blocks.vector_source_f(power), [blocks.nlog10_ff(10, 1, -3)], blocks.vector_sink_f())
            np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-4)

    def test_silence_and_negative_input_give_gnu_radios_floor(self):
        # GNU Radio clamps the input to the smallest normal float first: zero (padding,
        # silent inputs), negative and subnormal inputs give a finite level, not -inf or NaN.
        edges = np.array([0.0, -0.0, -1.0, 1e-45, 1e-30, 1.0, 4.0], np.float32)
        got = run(blocks.vector_source_f(edges), [cuda.nlog10_ff(10, 1, 0)], blocks.vector_sink_f())
        want = run(blocks.vector_source_f(edges), [blocks.nlog10_ff(10, 1, 0)], blocks.vector_sink_f())
        self.assertTrue(np.isfinite(got).all(), got)
        np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-3)
        np.testing.assert_allclose(got[:4], 10 * np.log10(np.finfo(np.float32).tiny), rtol=1e-6)


if __name__ == "__main__":
    gr_unittest.run(qa_nlog10_ff)
