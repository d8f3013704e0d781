#!/usr/bin/env python3
#
# SPDX-License-Identifier: GPL-3.0-or-later
#
"""CuPy blocks chained with C++ GPU blocks and CPU neighbours give what the same chain of GNU
Radio's CPU blocks gives."""

import numpy as np
from gnuradio import blocks, fft as gr_fft, gr_unittest

from gnuradio import cuda
from qa_support import cpu_comparison_test


class qa_cupy_chain(cpu_comparison_test):
    seed = 2024

    def test_gpu_chain_with_cpp_blocks_and_cpu_neighbours(self):
        size = 256
        data = self.random(np.complex64, size * 500)
        window = np.hanning(size).astype(np.float32)
        chain = [
            cuda.multiply_const_cupy(0.25, np.complex64, size),
            cuda.copy(8 * size),
            cuda.fft_cupy(size, True, window, True),
            cuda.complex_to_mag_squared_cupy(size),
            cuda.nlog10_cupy(10.0, size, -3.0),
        ]
        got = self.through(np.complex64, data, chain, size, sink_dtype=np.float32)
        cpu = [
            blocks.multiply_const_cc(0.25, size),
            gr_fft.fft_vcc(size, True, list(window), True),
            blocks.complex_to_mag_squared(size),
            blocks.nlog10_ff(10.0, size, -3.0),
        ]
        want = self.through(np.complex64, data, cpu, size, sink_dtype=np.float32)
        np.testing.assert_allclose(got, want, rtol=1e-4, atol=1e-3)


if __name__ == "__main__":
    gr_unittest.run(qa_cupy_chain)
