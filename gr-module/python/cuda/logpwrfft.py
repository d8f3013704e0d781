#
# SPDX-License-Identifier: GPL-3.0-or-later
#
"""cuda.logpwrfft_c and cuda.logpwrfft_f: GNU Radio's fft.logpwrfft_c / logpwrfft_f, with the
same arguments and defaults, as one GPU block.

GNU Radio's classes take a window function (``win``, blackmanharris by default) and call it
with fft_size; the C++ blocks (``cuda_python.logpwrfft_c`` and ``logpwrfft_f``, which these
functions replace in the package) take the taps.
"""

from . import cuda_python


def _window_taps(win, fft_size):
    # GNU Radio imports its window functions here too; fft_size is checked by the block.
    if fft_size < 1:
        return []
    if win is None:
        if fft_size == 1:
            # Blackman-Harris of one point divides by zero (NaN); one point is unwindowed.
            return [1.0]
        from gnuradio.fft import window

        win = window.blackmanharris
    return list(win(fft_size))


def logpwrfft_c(sample_rate, fft_size, ref_scale, frame_rate, avg_alpha, average, win=None, shift=False, device=-1):
    """Log power spectrum of a complex stream: vectors of fft_size floats in dB, as
    fft.logpwrfft_c, on the GPU. device: the GPU the block runs on (a CUDA ordinal), or -1
    for the default device."""
    return cuda_python.logpwrfft_c(
        sample_rate, fft_size, ref_scale, frame_rate, avg_alpha, average, _window_taps(win, fft_size), shift, device
    )


def logpwrfft_f(sample_rate, fft_size, ref_scale, frame_rate, avg_alpha, average, win=None, shift=False, device=-1):
    """Log power spectrum of a float stream, as fft.logpwrfft_f, on the GPU. With shift,
    DC is in the middle, as GNU Radio releases from 3.10.6 shift real input (3.10.5 does not).
    device: the GPU the block runs on (a CUDA ordinal), or -1 for the default device."""
    return cuda_python.logpwrfft_f(
        sample_rate, fft_size, ref_scale, frame_rate, avg_alpha, average, _window_taps(win, fft_size), shift, device
    )
