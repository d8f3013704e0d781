#!/usr/bin/env python3
#
# SPDX-License-Identifier: GPL-3.0-or-later
#
"""multiply_const_cupy against blocks.multiply_const_XX and NumPy, on random data of lengths
that are not multiples of the buffer sizes."""

import numpy as np
from gnuradio import blocks, gr_unittest

from gnuradio import cuda
from qa_support import CPU_TYPES, LENGTHS, cpu_comparison_test


class qa_multiply_const_cupy(cpu_comparison_test):
    seed = 2024

    def test_multiply_const_against_multiply_const_xx(self):
        constants = {np.complex64: 0.5 - 2j, np.float32: -3.25, np.int32: 1_000_003, np.int16: -7}
        for dtype, k in constants.items():
            suffix = CPU_TYPES[dtype][2]
            for vlen in (1, 3):
                for length in LENGTHS:
                    data = self.random(dtype, length * vlen)
                    ours = cuda.multiply_const_cupy(k, dtype, vlen)
                    got = self.through(dtype, data, [ours], vlen)
                    theirs = getattr(blocks, "multiply_const_" + suffix)(k, vlen)
                    want = self.through(dtype, data, [theirs], vlen)
                    self.assert_matches(got, want, dtype)
                    with np.errstate(over="ignore"):
                        self.assert_matches(got, data * np.dtype(dtype).type(k), dtype)

    def test_multiply_const_setter(self):
        block = cuda.multiply_const_cupy(2, np.int16)
        self.assertEqual(block.k(), 2)
        block.set_k(-5)
        self.assertEqual(block.k(), -5)
        data = self.random(np.int16, 5000)
        got = self.through(np.int16, data, [block])
        np.testing.assert_array_equal(got, data * np.int16(-5))
        complex_block = cuda.multiply_const_cupy(1j)
        complex_block.set_k(2 - 1j)
        self.assertEqual(complex_block.k(), 2 - 1j)

    def test_arguments_are_checked(self):
        checks = (
            (
                TypeError,
                "multiply_const_cupy supports complex64, float32, int32 and int16, not float64",
                lambda: cuda.multiply_const_cupy(1, np.float64),
            ),
            (TypeError, "takes a real number", lambda: cuda.multiply_const_cupy(1j, np.float32)),
            (TypeError, "must be an integer", lambda: cuda.multiply_const_cupy(1.5, np.int32)),
            (ValueError, "does not fit in int16", lambda: cuda.multiply_const_cupy(40_000, np.int16)),
            (
                ValueError,
                "vlen must be between 1 and 2\\^29 - 1 .*, got 0",
                lambda: cuda.multiply_const_cupy(1, np.float32, 0),
            ),
        )
        for error, message, make in checks:
            with self.assertRaisesRegex(error, message):
                make()


if __name__ == "__main__":
    gr_unittest.run(qa_multiply_const_cupy)
