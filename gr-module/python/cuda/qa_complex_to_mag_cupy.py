#!/usr/bin/env python3
#
# SPDX-License-Identifier: GPL-3.0-or-later
#
"""complex_to_mag_cupy against blocks.complex_to_mag and NumPy, on random data."""

import numpy as np
from gnuradio import blocks, gr_unittest

from gnuradio import cuda
from qa_support import LENGTHS, cpu_comparison_test


class qa_complex_to_mag_cupy(cpu_comparison_test):
    seed = 2024

    def test_complex_to_mag(self):
        for vlen in (1, 4):
            for length in LENGTHS:
                data = self.random(np.complex64, length * vlen)
                ours, theirs = cuda.complex_to_mag_cupy(vlen), blocks.complex_to_mag(vlen)
                got = self.through(np.complex64, data, [ours], vlen, sink_dtype=np.float32)
                want = self.through(np.complex64, data, [theirs], vlen, sink_dtype=np.float32)
                np.testing.assert_allclose(got, want, rtol=1e-6, atol=1e-7)
                np.testing.assert_allclose(got, np.abs(data), rtol=1e-6, atol=1e-7)

    def test_arguments_are_checked(self):
        checks = ((TypeError, "vlen must be an integer", lambda: cuda.complex_to_mag_cupy("4")),)
        for error, message, make in checks:
            with self.assertRaisesRegex(error, message):
                make()


if __name__ == "__main__":
    gr_unittest.run(qa_complex_to_mag_cupy)
