#
# SPDX-License-Identifier: GPL-3.0-or-later
#
"""fft_cupy: fft.fft_vcc and fft.fft_vfc as a Python GPU block, on cuFFT plans kept between
calls."""

import collections

import numpy

from ..cuda_python import default_device
from ..python_blocks import sync_block
from .support import MAX_FFT_SIZE, checked_count, device_constant, scratch_buffer

_MAX_FFT_PLANS = 8


class fft_cupy(sync_block):
    """FFT of fft_size-item vectors, as fft.fft_vcc (complex input) and fft.fft_vfc
    (real_input=True): the window multiplies each input vector first; the transform is not
    normalised in either direction; shift puts the zero frequency in the middle (fftshift of
    the output of a forward transform, ifftshift of the windowed input of a reverse one).
    The output is always complex64 with all fft_size bins.

    On the GPU it runs cuFFT plans, one per batch size (kept for the last few sizes), straight
    into the output buffer; on the simulated backend numpy.fft.

    device: the GPU the block runs on (a CUDA ordinal), or default_device (-1).
    """

    def __init__(self, fft_size, forward=True, window=None, shift=False, real_input=False, device=default_device):
        fft_size = checked_count("fft_cupy", "fft_size", fft_size, 1, MAX_FFT_SIZE)
        try:
            taps = numpy.asarray([] if window is None else window)
            if numpy.iscomplexobj(taps) or taps.ndim > 1:
                raise TypeError(f"{taps.ndim}-dimensional {taps.dtype} taps")
            taps = taps.astype(numpy.float32)
        except (TypeError, ValueError) as error:
            raise ValueError(f"fft_cupy: window must be a list of fft_size real taps, or none ({error})") from None
        if len(taps) not in (0, fft_size):
            raise ValueError(f"fft_cupy: window must have fft_size ({fft_size}) taps, or none, got {len(taps)}")
        if not numpy.isfinite(taps).all():
            tap = int(numpy.flatnonzero(~numpy.isfinite(taps))[0])
            raise ValueError(f"fft_cupy: window taps must be finite, got {taps[tap]} at tap {tap}")
        in_type = numpy.float32 if real_input else numpy.complex64
        # A shape, not a length: NumPy reads (type, 1) as a plain type, and work() indexes
        # vectors even when fft_size is 1.
        sync_block.__init__(self, "fft_cupy", [(in_type, (fft_size,))], [(numpy.complex64, (fft_size,))], device=device)
        self._fft_size = fft_size
        self._forward = bool(forward)
        self._shift = bool(shift)
        self._real_input = bool(real_input)
        self._window = None
        if len(taps):
            with self.on_device():
                self._window = device_constant(self.xp, taps, numpy.float32)
        self._spectrum = scratch_buffer(self.xp, numpy.complex64, (fft_size,))
        self._plans = collections.OrderedDict()
        # cuFFT's direction (CUFFT_FORWARD, CUFFT_INVERSE), which cupy.cuda.cufft names.
        self._direction = -1 if self._forward else 1

    def stop(self):
        result = super().stop()  # waits for the stream: the plans are idle now
        with self.on_device():  # stop() runs on the control thread: free them on their device
            self._plans.clear()
        return result

    def work(self, input_items, output_items):
        # A power-of-two batch per call, the rest left for the next call (as cuda.fft): a
        # full buffer offers 2^k - 1 vectors whenever the ring's free item shifts the calls,
        # and a cuFFT plan per odd batch size would be created and evicted over and over.
        offered = len(output_items[0])
        if offered == 0:
            return 0
        batch = 1 << (offered.bit_length() - 1)
        # Slicing a CuPy array costs microseconds: only where the batch is shorter.
        out, vectors = output_items[0], input_items[0]
        if batch < offered:
            out, vectors = out[:batch], vectors[:batch]
        source = self._prepared_input(vectors, out)
        if self._forward and self._shift:
            spectrum = self._spectrum.get(len(out))
            self._transform(source, spectrum)
            half = (self._fft_size + 1) // 2
            out[:, : self._fft_size - half] = spectrum[:, half:]
            out[:, self._fft_size - half :] = spectrum[:, :half]
        else:
            self._transform(source, out)
        return batch

    def _prepared_input(self, vectors, out):
        """The vectors to transform: the input itself, or (windowed, converted to complex or
        ifftshifted) written into \\p out, which the transform then overwrites in place."""
        xp, window = self.xp, self._window
        if not self._forward and self._shift:
            half = self._fft_size // 2
            rest = self._fft_size - half
            if window is None:
                out[:, :rest] = vectors[:, half:]
                out[:, rest:] = vectors[:, :half]
            else:
                xp.multiply(vectors[:, half:], window[half:], out=out[:, :rest])
                xp.multiply(vectors[:, :half], window[:half], out=out[:, rest:])
            return out
        if window is not None:
            xp.multiply(vectors, window, out=out)
            return out
        if self._real_input:
            out[...] = vectors
            return out
        return vectors

    def _transform(self, source, destination):
        if self.xp is numpy:
            if self._forward:
                destination[...] = numpy.fft.fft(source, axis=1)
            else:
                destination[...] = numpy.fft.ifft(source, axis=1, norm="forward")
            return
        batch = len(source)
        plan = self._plans.get(batch)
        if plan is None:
            plan = self._new_plan(batch)
        else:
            self._plans.move_to_end(batch)
        plan.fft(source, destination, self._direction)

    def _new_plan(self, batch):
        """A cuFFT plan for \\p batch transforms, kept as the newest of the last few."""
        from cupy.cuda import cufft

        if len(self._plans) >= _MAX_FFT_PLANS:
            # cuFFT may still run the oldest plan's last transform on the stream.
            self.stream.synchronize()
            self._plans.popitem(last=False)
        plan = self._plans[batch] = cufft.Plan1d(self._fft_size, cufft.CUFFT_C2C, batch)
        return plan
