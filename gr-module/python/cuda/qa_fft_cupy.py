#!/usr/bin/env python3
#
# SPDX-License-Identifier: GPL-3.0-or-later
#
"""fft_cupy against fft.fft_vcc, fft.fft_vfc and NumPy, forward and reverse, windowed and
shifted, with calls of changing sizes."""

import numpy as np
from gnuradio import blocks, fft as gr_fft, gr_unittest

from gnuradio import cuda
from qa_support import cpu_comparison_test, run


class qa_fft_cupy(cpu_comparison_test):
    seed = 2024

    def test_fft_against_fft_vcc(self):
        for size in (16, 257, 1024):
            vectors = 67
            data = self.random(np.complex64, size * vectors)
            window = self.rng.random(size).astype(np.float32)
            for forward in (True, False):
                for shift in (False, True):
                    for taps in ([], window):
                        ours = cuda.fft_cupy(size, forward, taps, shift)
                        got = self.through(np.complex64, data, [ours], size)
                        theirs = gr_fft.fft_vcc(size, forward, list(taps), shift)
                        want = self.through(np.complex64, data, [theirs], size)
                        scale = np.max(np.abs(want))
                        label = f"size {size} forward {forward} shift {shift} window {len(taps)}"
                        np.testing.assert_allclose(got, want, atol=2e-6 * scale, err_msg=label)
                        windowed = data.reshape(-1, size) * (taps if len(taps) else 1)
                        if forward:
                            spectrum = np.fft.fft(windowed, axis=1)
                            expected = np.fft.fftshift(spectrum, axes=1) if shift else spectrum
                        else:
                            shifted = np.fft.ifftshift(windowed, axes=1) if shift else windowed
                            expected = np.fft.ifft(shifted, axis=1, norm="forward")
                        np.testing.assert_allclose(got.reshape(-1, size), expected, atol=2e-6 * scale, err_msg=label)

    def test_fft_real_input_against_fft_vfc(self):
        for size in (64, 1000):
            data = self.random(np.float32, size * 41)
            window = self.rng.random(size).astype(np.float32)
            for forward in (True, False):
                for shift in (False, True):
                    for taps in ([], window):
                        ours = cuda.fft_cupy(size, forward, taps, shift, True)
                        got = self.through(np.float32, data, [ours], size, sink_dtype=np.complex64)
                        theirs = gr_fft.fft_vfc(size, forward, list(taps), shift)
                        want = self.through(np.float32, data, [theirs], size, sink_dtype=np.complex64)
                        np.testing.assert_allclose(
                            got,
                            want,
                            atol=2e-6 * np.max(np.abs(want)),
                            err_msg=f"size {size} forward {forward} shift {shift}",
                        )

    def test_fft_real_input_odd_size_as_complex(self):
        # GNU Radio 3.10.5.1's fft_vfc drops the last input of an odd-sized reverse shifted
        # transform; real input is transformed here as fft_vcc transforms it.
        size = 255
        data = self.random(np.float32, size * 9)
        window = self.rng.random(size).astype(np.float32)
        for forward in (True, False):
            ours = cuda.fft_cupy(size, forward, window, True, True)
            got = self.through(np.float32, data, [ours], size, sink_dtype=np.complex64)
            theirs = gr_fft.fft_vcc(size, forward, list(window), True)
            want = self.through(np.complex64, data.astype(np.complex64), [theirs], size)
            np.testing.assert_allclose(got, want, atol=2e-6 * np.max(np.abs(want)))

    def test_fft_many_batch_sizes(self):
        """Calls of changing sizes reuse and replace the per-batch plans."""
        size = 128
        data = self.random(np.complex64, size * 3001)
        ours = cuda.fft_cupy(size, True, None, True)
        source = blocks.vector_source_c(data, False, size)
        source.set_max_noutput_items(13)
        got = run(source, [ours], blocks.vector_sink_c(size))
        want = np.fft.fftshift(np.fft.fft(data.reshape(-1, size), axis=1), axes=1)
        np.testing.assert_allclose(got.reshape(-1, size), want, atol=2e-6 * np.max(np.abs(want)))

    def test_arguments_are_checked(self):
        checks = (
            (
                ValueError,
                "window must have fft_size \\(8\\) taps, or none, got 3",
                lambda: cuda.fft_cupy(8, True, [1, 2, 3]),
            ),
            (ValueError, "fft_size must be between 1 and 2\\^27, got 0", lambda: cuda.fft_cupy(0)),
            (TypeError, "fft_size must be an integer", lambda: cuda.fft_cupy(8.0)),
        )
        for error, message, make in checks:
            with self.assertRaisesRegex(error, message):
                make()


if __name__ == "__main__":
    gr_unittest.run(qa_fft_cupy)
