#!/usr/bin/env python3
#
# SPDX-License-Identifier: GPL-3.0-or-later
#
"""complex_to_mag_squared_cupy against blocks.complex_to_mag_squared and NumPy, on random data."""

import numpy as np
from gnuradio import blocks, gr_unittest

from gnuradio import cuda
from qa_support import LENGTHS, cpu_comparison_test


class qa_complex_to_mag_squared_cupy(cpu_comparison_test):
    seed = 2024

    def test_complex_to_mag_squared(self):
        for vlen in (1, 4):
            for length in LENGTHS:
                data = self.random(np.complex64, length * vlen)
                ours, theirs = cuda.complex_to_mag_squared_cupy(vlen), blocks.complex_to_mag_squared(vlen)
                got = self.through(np.complex64, data, [ours], vlen, sink_dtype=np.float32)
                want = self.through(np.complex64, data, [theirs], vlen, sink_dtype=np.float32)
                np.testing.assert_allclose(got, want, rtol=1e-6, atol=1e-7)
                np.testing.assert_allclose(got, data.real * data.real + data.imag * data.imag, rtol=1e-6, atol=1e-7)

    def test_arguments_are_checked(self):
        checks = (
            (
                ValueError,
                "vlen must be between 1 and 2\\^28 - 1 .*, got -1",
                lambda: cuda.complex_to_mag_squared_cupy(-1),
            ),
        )
        for error, message, make in checks:
            with self.assertRaisesRegex(error, message):
                make()


if __name__ == "__main__":
    gr_unittest.run(qa_complex_to_mag_squared_cupy)
