#!/usr/bin/env python3
#
# SPDX-License-Identifier: GPL-3.0-or-later
#
"""noise_source_cupy against analog.noise_source by its moments and spread (the numbers differ),
its seeds, setters and checks."""

import math

import numpy as np
from gnuradio import analog, gr_unittest

from gnuradio import cuda
from qa_support import collect, flowgraph_test


class qa_noise_source_cupy(flowgraph_test):
    seed = 77

    def noise(self, noise_type, amplitude, dtype, n=1_000_003, seed=0):
        block = cuda.noise_source_cupy(noise_type, amplitude, seed, dtype)
        got, _ = collect(block, n, dtype)
        return got

    def test_noise_float_moments(self):
        a = 2.5
        uniform = self.noise(analog.GR_UNIFORM, a, np.float32)
        self.assertGreaterEqual(uniform.min(), -a)
        self.assertLess(uniform.max(), a)
        self.assertAlmostEqual(uniform.mean(), 0, delta=0.01)
        self.assertAlmostEqual(uniform.var(), a * a / 3, delta=0.01 * a * a)

        gaussian = self.noise(analog.GR_GAUSSIAN, a, np.float32)
        self.assertAlmostEqual(gaussian.mean(), 0, delta=0.01)
        self.assertAlmostEqual(gaussian.std(), a, delta=0.01 * a)
        self.assertAlmostEqual(np.mean(np.abs(gaussian) < a), 0.6827, delta=0.003)

        laplacian = self.noise(analog.GR_LAPLACIAN, a, np.float32)
        self.assertAlmostEqual(laplacian.mean(), 0, delta=0.02)
        self.assertAlmostEqual(np.mean(np.abs(laplacian)), a, delta=0.01 * a)
        self.assertAlmostEqual(laplacian.var(), 2 * a * a, delta=0.03 * a * a)

        impulse = self.noise(analog.GR_IMPULSE, a, np.float32, n=3_000_017)
        hits = impulse[impulse != 0]
        self.assertAlmostEqual(len(hits) / len(impulse), math.exp(-9 / math.sqrt(2)), delta=1.5e-4)
        self.assertGreater(hits.min(), 9 * a)
        self.assertAlmostEqual(hits.mean(), a * (9 + math.sqrt(2)), delta=0.1 * a)

    def test_noise_complex_moments(self):
        a = 3.0
        gaussian = self.noise(analog.GR_GAUSSIAN, a, np.complex64)
        for component in (gaussian.real, gaussian.imag):
            self.assertAlmostEqual(component.mean(), 0, delta=0.01)
            self.assertAlmostEqual(component.std(), a / math.sqrt(2), delta=0.01 * a)
        self.assertAlmostEqual(np.mean(gaussian.real * gaussian.imag), 0, delta=0.01 * a * a)
        self.assertAlmostEqual(np.mean(np.abs(gaussian) ** 2), a * a, delta=0.01 * a * a)
        uniform = self.noise(analog.GR_UNIFORM, a, np.complex64)
        for component in (uniform.real, uniform.imag):
            # In float64: NumPy 2 (Debian 13's) compares a float32 with a Python float in
            # float32, where the largest draw rounds to the bound itself.
            self.assertGreaterEqual(float(component.min()), -a / math.sqrt(2) * (1 + 1e-6))
            self.assertLess(float(component.max()), a / math.sqrt(2))
            self.assertAlmostEqual(component.var(), a * a / 6, delta=0.01 * a * a)

    def test_noise_spread_equals_cpu_blocks(self):
        cpu = {
            np.complex64: analog.noise_source_c,
            np.float32: analog.noise_source_f,
            np.int32: analog.noise_source_i,
            np.int16: analog.noise_source_s,
        }
        types = {
            np.complex64: (analog.GR_UNIFORM, analog.GR_GAUSSIAN),
            np.float32: (analog.GR_UNIFORM, analog.GR_GAUSSIAN, analog.GR_LAPLACIAN),
            np.int32: (analog.GR_UNIFORM, analog.GR_GAUSSIAN, analog.GR_LAPLACIAN),
            np.int16: (analog.GR_GAUSSIAN,),
        }
        for dtype, noise_types in types.items():
            amplitude = 1000.0 if np.dtype(dtype).kind == "i" else 1.5
            for noise_type in noise_types:
                ours = self.noise(noise_type, amplitude, dtype, n=500_009)
                theirs, _ = collect(cpu[dtype](noise_type, amplitude, 3), 500_009, dtype)
                label = f"{np.dtype(dtype).name} {noise_type}"
                self.assertAlmostEqual(np.std(ours) / np.std(theirs), 1, delta=0.01, msg=label)
                self.assertAlmostEqual(np.mean(np.abs(ours)) / np.mean(np.abs(theirs)), 1, delta=0.01, msg=label)
                if np.dtype(dtype).kind == "i":
                    np.testing.assert_array_equal(ours, np.trunc(ours))

    def test_noise_seeds(self):
        for dtype, noise_type in (
            (np.float32, analog.GR_LAPLACIAN),
            (np.complex64, analog.GR_GAUSSIAN),
            (np.int16, analog.GR_UNIFORM),
            (np.float32, analog.GR_IMPULSE),
        ):
            runs = []
            for seed, max_noutput_items in ((42, None), (42, 997), (43, None), (0, None), (0, None)):
                block = cuda.noise_source_cupy(noise_type, 1000.0, seed, dtype)
                runs.append(collect(block, 1_500_007, dtype, max_noutput_items=max_noutput_items)[0])
            label = f"{np.dtype(dtype).name} {noise_type}"
            np.testing.assert_array_equal(runs[0], runs[1], err_msg=label)  # whatever the call sizes
            for other in (runs[2], runs[3]):
                self.assertFalse(np.array_equal(runs[0], other), label)
            self.assertFalse(np.array_equal(runs[3], runs[4]), label)

    def test_noise_setters_and_getters(self):
        block = cuda.noise_source_cupy(analog.GR_UNIFORM, 1.0, 5, np.float32)
        self.assertEqual(block.type(), analog.GR_UNIFORM)
        self.assertEqual(block.amplitude(), 1.0)
        block.set_type(analog.GR_GAUSSIAN)
        block.set_amplitude(4.0)
        self.assertEqual(block.type(), analog.GR_GAUSSIAN)
        self.assertEqual(block.amplitude(), 4.0)
        got, _ = collect(block, 400_000, np.float32)
        self.assertGreater(np.abs(got).max(), 4.0)
        self.assertAlmostEqual(got.std(), 4.0, delta=0.05)
        with self.assertRaisesRegex(ValueError, "complex64 noise is GR_UNIFORM or GR_GAUSSIAN, not GR_LAPLACIAN"):
            cuda.noise_source_cupy(analog.GR_LAPLACIAN, 1.0, 0, np.complex64)
        with self.assertRaisesRegex(ValueError, "not GR_IMPULSE"):
            cuda.noise_source_cupy(dtype=np.complex64).set_type(analog.GR_IMPULSE)
        with self.assertRaisesRegex(ValueError, "noise_type must be one of"):
            cuda.noise_source_cupy(104)
        with self.assertRaisesRegex(
            TypeError, "noise_source_cupy supports complex64, float32, int32 and int16, not int8"
        ):
            cuda.noise_source_cupy(analog.GR_GAUSSIAN, 1.0, 0, np.int8)
        with self.assertRaisesRegex(ValueError, "seed must be at least -9223372036854775808"):
            cuda.noise_source_cupy(analog.GR_GAUSSIAN, 1.0, -(2**63) - 1)
        with self.assertRaisesRegex(TypeError, "seed must be an integer"):
            cuda.noise_source_cupy(analog.GR_GAUSSIAN, 1.0, 1.5)

    def test_negative_seeds_as_gnu_radio(self):
        # GNU Radio's noise_source takes any long seed (analog.noise_source_f(..., -5) works)
        # and hands it to gr::random as a uint64_t: -1 is 2^64 - 1.
        analog.noise_source_f(analog.GR_GAUSSIAN, 1.0, -5)
        runs = [
            collect(cuda.noise_source_cupy(analog.GR_GAUSSIAN, 1.0, seed, np.float32), 100_003, np.float32)[0]
            for seed in (-1, -1, 2**64 - 1, 1)
        ]
        np.testing.assert_array_equal(runs[0], runs[1])
        np.testing.assert_array_equal(runs[0], runs[2])
        self.assertFalse(np.array_equal(runs[0], runs[3]))
        self.assertAlmostEqual(runs[0].std(), 1.0, delta=0.02)


if __name__ == "__main__":
    gr_unittest.run(qa_noise_source_cupy)
