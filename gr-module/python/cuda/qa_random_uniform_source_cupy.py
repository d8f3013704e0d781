#!/usr/bin/env python3
#
# SPDX-License-Identifier: GPL-3.0-or-later
#
"""random_uniform_source_cupy: its range and moments against analog.random_uniform_source, its
seeds and checks."""

import math

import numpy as np
from gnuradio import analog, gr_unittest

from gnuradio import cuda
from qa_support import collect, flowgraph_test


class qa_random_uniform_source_cupy(flowgraph_test):
    seed = 77

    def test_random_uniform_range_and_moments(self):
        cpu = {
            np.int32: analog.random_uniform_source_i,
            np.int16: analog.random_uniform_source_s,
            np.uint8: analog.random_uniform_source_b,
        }
        for dtype, (minimum, maximum) in (
            (np.int32, (-5, 11)),
            (np.int16, (-1000, 1000)),
            (np.uint8, (0, 256)),
            (np.int8, (-128, 128)),
        ):
            block = cuda.random_uniform_source_cupy(minimum, maximum, 0, dtype)
            got, _ = collect(block, 1_000_003, dtype)
            self.assertEqual(got.min(), minimum)
            self.assertEqual(got.max(), maximum - 1)
            self.assertEqual(len(np.unique(got)), maximum - minimum)
            mean, spread = (minimum + maximum - 1) / 2, math.sqrt(((maximum - minimum) ** 2 - 1) / 12)
            self.assertAlmostEqual(got.astype(float).mean(), mean, delta=0.01 * spread)
            self.assertAlmostEqual(got.astype(float).std(), spread, delta=0.01 * spread)
            if dtype in cpu:
                theirs, _ = collect(cpu[dtype](minimum, maximum, 1), 1_000_003, dtype)
                self.assertAlmostEqual(got.astype(float).std() / theirs.astype(float).std(), 1, delta=0.01)

    def test_random_uniform_seeds_and_checks(self):
        runs = []
        for seed, max_noutput_items in ((7, None), (7, 1234), (8, None), (0, None), (0, None)):
            block = cuda.random_uniform_source_cupy(0, 1000, seed, np.int32)
            runs.append(collect(block, 1_200_001, np.int32, max_noutput_items=max_noutput_items)[0])
        np.testing.assert_array_equal(runs[0], runs[1])
        self.assertFalse(np.array_equal(runs[0], runs[2]))
        self.assertFalse(np.array_equal(runs[3], runs[4]))
        checks = (
            (ValueError, r"\[5, 5\) must hold a value", lambda: cuda.random_uniform_source_cupy(5, 5)),
            (ValueError, "fit in uint8", lambda: cuda.random_uniform_source_cupy(-1, 10, 0, np.uint8)),
            (ValueError, "fit in int16", lambda: cuda.random_uniform_source_cupy(0, 40_000, 0, np.int16)),
            (TypeError, "maximum must be an integer", lambda: cuda.random_uniform_source_cupy(0, 2.5)),
            (
                TypeError,
                "random_uniform_source_cupy supports int32, int16, int8 and uint8, not float32",
                lambda: cuda.random_uniform_source_cupy(0, 2, 0, np.float32),
            ),
        )
        for error, message, make in checks:
            with self.assertRaisesRegex(error, message):
                make()


if __name__ == "__main__":
    gr_unittest.run(qa_random_uniform_source_cupy)
