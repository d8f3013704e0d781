#!/usr/bin/env python3
#
# SPDX-License-Identifier: GPL-3.0-or-later
#
"""cuda.fft against fft.fft_vcc and fft.fft_vfc on random data."""

import numpy as np
from gnuradio import blocks, fft as gr_fft, gr_unittest

from gnuradio import cuda
from qa_support import run


class qa_fft(gr_unittest.TestCase):
    def setUp(self):
        self.rng = np.random.default_rng(99)

    def complex_data(self, n):
        return (self.rng.standard_normal(n) + 1j * self.rng.standard_normal(n)).astype(np.complex64)

    def test_fft_against_fft_vcc(self):
        for size in (64, 1024, 4096):
            vectors = 37
            data = self.complex_data(size * vectors)
            window = list(np.hanning(size).astype(np.float32))
            for forward, shift, taps in (
                (True, False, []),
                (True, True, window),
                (False, True, window),
                (False, False, []),
            ):
                got = run(
                    blocks.vector_source_c(data, False, size),
                    [cuda.fft(size, forward, taps, shift)],
                    blocks.vector_sink_c(size),
                )
                want = run(
                    blocks.vector_source_c(data, False, size),
                    [gr_fft.fft_vcc(size, forward, taps, shift)],
                    blocks.vector_sink_c(size),
                )
                scale = np.max(np.abs(want))
                np.testing.assert_allclose(
                    got, want, atol=1e-5 * scale, err_msg=f"size {size} forward {forward} shift {shift}"
                )

    def test_real_input_fft_against_fft_vfc(self):
        size, vectors = 512, 21
        data = self.rng.standard_normal(size * vectors).astype(np.float32)
        got = run(
            blocks.vector_source_f(data, False, size),
            [cuda.fft(size, True, [], False, True)],
            blocks.vector_sink_c(size),
        )
        want = run(
            blocks.vector_source_f(data, False, size), [gr_fft.fft_vfc(size, True, [])], blocks.vector_sink_c(size)
        )
        np.testing.assert_allclose(got, want, atol=1e-5 * np.max(np.abs(want)))


if __name__ == "__main__":
    gr_unittest.run(qa_fft)
