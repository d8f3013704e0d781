#!/usr/bin/env python3
#
# SPDX-License-Identifier: GPL-3.0-or-later
#
"""nlog10_cupy against blocks.nlog10_ff and NumPy, with zeros, negatives, infinities and
denormals among the inputs."""

import numpy as np
from gnuradio import blocks, gr_unittest

from gnuradio import cuda
from qa_support import LENGTHS, cpu_comparison_test


class qa_nlog10_cupy(cpu_comparison_test):
    seed = 2024

    def test_nlog10_against_nlog10_ff(self):
        info = np.finfo(np.float32)
        for n, vlen, k in ((1.0, 1, 0.0), (10.0, 1, 0.0), (20.0, 3, -30.5), (-2.5, 2, 7.0)):
            for length in LENGTHS:
                data = np.abs(self.random(np.float32, length * vlen)) * 1e3
                data[::7] *= 1e-30
                outside = np.zeros(len(data), bool)
                outside[1::11] = outside[2::13] = outside[3::17] = outside[4::19] = True
                data[1::11], data[2::13], data[3::17], data[4::19] = 0.0, -4.0, np.inf, 1e-42
                ours = cuda.nlog10_cupy(n, vlen, k)
                got = self.through(np.float32, data, [ours], vlen)
                want = self.through(np.float32, data, [blocks.nlog10_ff(n, vlen, k)], vlen)
                # GNU Radio computes n/log2(10) * log2(max(x, FLT_MIN) * 10^(k/n)) with VOLK,
                # whose kernels give varying results for infinity and read denormals (the
                # product for x = 0 when k < 0) as 2^-127 * 1.mantissa.
                compared = ~outside | ((data != np.inf) & (k == 0))
                np.testing.assert_allclose(got[compared], want[compared], rtol=1e-5, atol=1e-4 * abs(n))
                expected = n * np.log10(np.clip(data, info.tiny, info.max)) + k
                np.testing.assert_allclose(got, expected, rtol=1e-5, atol=1e-5 * abs(n))

    def test_arguments_are_checked(self):
        checks = (
            (TypeError, "n must be a number", lambda: cuda.nlog10_cupy("10")),
            (TypeError, "k .* is complex", lambda: cuda.nlog10_cupy(10, 1, 1j)),
        )
        for error, message, make in checks:
            with self.assertRaisesRegex(error, message):
                make()


if __name__ == "__main__":
    gr_unittest.run(qa_nlog10_cupy)
