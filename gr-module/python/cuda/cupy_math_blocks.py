#
# SPDX-License-Identifier: GPL-3.0-or-later
#
"""Array-code math blocks (the CuPy block library): multiply_const_cupy, add_cupy, fft_cupy,
complex_to_mag_cupy, complex_to_mag_squared_cupy and nlog10_cupy.

Each is a cuda.sync_block written against self.xp (CuPy on a GPU, NumPy on the simulated
backend), with the names, arguments and results of GNU Radio's CPU blocks. They write into
their output buffers with out= arguments, so a work() call allocates nothing on the device
(fft_cupy keeps its cuFFT plans and one scratch buffer between calls).
"""

import collections

import numpy

from .cupy_block_support import (MAX_FFT_SIZE, MAX_PORTS, checked_count, checked_dtype,
                                 checked_elements_per_item, checked_scalar, device_constant,
                                 item_type, scratch_buffer)
from .python_blocks import sync_block

_MAX_FFT_PLANS = 8


class multiply_const_cupy(sync_block):
    """output = input * k, like blocks.multiply_const_cc/ff/ii/ss (integers wrap around)."""

    SUPPORTED = (numpy.complex64, numpy.float32, numpy.int32, numpy.int16)

    def __init__(self, k, dtype=numpy.complex64, vlen=1):
        dtype = checked_dtype("multiply_const_cupy", dtype, self.SUPPORTED)
        vlen = checked_elements_per_item("multiply_const_cupy", "vlen", vlen, dtype.itemsize)
        k = checked_scalar("multiply_const_cupy", "k", k, dtype)
        item = item_type(dtype, vlen)
        sync_block.__init__(self, "multiply_const_cupy", [item], [item])
        self._dtype = dtype
        self._k = k

    def k(self):
        return self._k.item()

    def set_k(self, k):
        self._k = checked_scalar("multiply_const_cupy", "k", k, self._dtype)

    def work(self, input_items, output_items):
        self.xp.multiply(input_items[0], self._k, out=output_items[0])
        return len(output_items[0])


class add_cupy(sync_block):
    """output = sum of num_inputs inputs, like blocks.add_cc/ff/ii/ss."""

    SUPPORTED = (numpy.complex64, numpy.float32, numpy.int32, numpy.int16, numpy.int8)

    def __init__(self, num_inputs=2, dtype=numpy.complex64, vlen=1):
        dtype = checked_dtype("add_cupy", dtype, self.SUPPORTED)
        num_inputs = checked_count("add_cupy", "num_inputs", num_inputs, 1, MAX_PORTS)
        vlen = checked_elements_per_item("add_cupy", "vlen", vlen, dtype.itemsize)
        item = item_type(dtype, vlen)
        sync_block.__init__(self, "add_cupy", [item] * num_inputs, [item])

    def work(self, input_items, output_items):
        out = output_items[0]
        if len(input_items) == 1:
            out[...] = input_items[0]
        else:
            self.xp.add(input_items[0], input_items[1], out=out)
            for more in input_items[2:]:
                self.xp.add(out, more, out=out)
        return len(out)


class fft_cupy(sync_block):
    """FFT of fft_size-item vectors, as fft.fft_vcc (complex input) and fft.fft_vfc
    (real_input=True): the window multiplies each input vector first; the transform is not
    normalised in either direction; shift puts the zero frequency in the middle (fftshift of
    the output of a forward transform, ifftshift of the windowed input of a reverse one).
    The output is always complex64 with all fft_size bins.

    On the GPU it runs cuFFT plans, one per batch size (kept for the last few sizes), straight
    into the output buffer; on the simulated backend numpy.fft.
    """

    def __init__(self, fft_size, forward=True, window=None, shift=False, real_input=False):
        fft_size = checked_count("fft_cupy", "fft_size", fft_size, 1, MAX_FFT_SIZE)
        taps = numpy.asarray([] if window is None else window, numpy.float32).ravel()
        if len(taps) not in (0, fft_size):
            raise ValueError(f"fft_cupy: window must have fft_size ({fft_size}) taps, or none, "
                             f"got {len(taps)}")
        if not numpy.isfinite(taps).all():
            tap = int(numpy.flatnonzero(~numpy.isfinite(taps))[0])
            raise ValueError(f"fft_cupy: window taps must be finite, got {taps[tap]} at tap {tap}")
        in_type = numpy.float32 if real_input else numpy.complex64
        # A shape, not a length: NumPy reads (type, 1) as a plain type, and work() indexes
        # vectors even when fft_size is 1.
        sync_block.__init__(self, "fft_cupy", [(in_type, (fft_size,))], [(numpy.complex64, (fft_size,))])
        self._fft_size = fft_size
        self._forward = bool(forward)
        self._shift = bool(shift)
        self._real_input = bool(real_input)
        self._window = device_constant(self.xp, taps, numpy.float32) if len(taps) else None
        self._spectrum = scratch_buffer(self.xp, numpy.complex64, (fft_size,))
        self._plans = collections.OrderedDict()

    def stop(self):
        result = super().stop()  # waits for the stream: the plans are idle now
        self._plans.clear()
        return result

    def work(self, input_items, output_items):
        # A power-of-two batch per call, the rest left for the next call (as cuda.fft): a
        # full buffer offers 2^k - 1 vectors whenever the ring's free item shifts the calls,
        # and a cuFFT plan per odd batch size would be created and evicted over and over.
        if len(output_items[0]) == 0:
            return 0
        batch = 1 << (len(output_items[0]).bit_length() - 1)
        out = output_items[0][:batch]
        source = self._prepared_input(input_items[0][:batch], out)
        if self._forward and self._shift:
            spectrum = self._spectrum.get(len(out))
            self._transform(source, spectrum)
            half = (self._fft_size + 1) // 2
            out[:, :self._fft_size - half] = spectrum[:, half:]
            out[:, self._fft_size - half:] = spectrum[:, :half]
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
        from cupy.cuda import cufft

        batch = len(source)
        plan = self._plans.pop(batch, None)
        if plan is None:
            if len(self._plans) >= _MAX_FFT_PLANS:
                # cuFFT may still run the oldest plan's last transform on the stream.
                self.stream.synchronize()
                self._plans.popitem(last=False)
            plan = cufft.Plan1d(self._fft_size, cufft.CUFFT_C2C, batch)
        self._plans[batch] = plan
        direction = cufft.CUFFT_FORWARD if self._forward else cufft.CUFFT_INVERSE
        plan.fft(source, destination, direction)


class complex_to_mag_cupy(sync_block):
    """|input|, like blocks.complex_to_mag."""

    def __init__(self, vlen=1):
        vlen = checked_elements_per_item("complex_to_mag_cupy", "vlen", vlen, 8)
        sync_block.__init__(self, "complex_to_mag_cupy", [item_type(numpy.complex64, vlen)],
                            [item_type(numpy.float32, vlen)])

    def work(self, input_items, output_items):
        self.xp.abs(input_items[0], out=output_items[0])
        return len(output_items[0])


class complex_to_mag_squared_cupy(sync_block):
    """re² + im², like blocks.complex_to_mag_squared (no square root involved)."""

    def __init__(self, vlen=1):
        vlen = checked_elements_per_item("complex_to_mag_squared_cupy", "vlen", vlen, 8)
        item_shape = () if vlen == 1 else (vlen,)
        sync_block.__init__(self, "complex_to_mag_squared_cupy", [item_type(numpy.complex64, vlen)],
                            [item_type(numpy.float32, vlen)])
        self._imag_squared = scratch_buffer(self.xp, numpy.float32, item_shape)

    def work(self, input_items, output_items):
        xp, values, out = self.xp, input_items[0], output_items[0]
        imag_squared = self._imag_squared.get(len(out))
        xp.multiply(values.real, values.real, out=out)
        xp.multiply(values.imag, values.imag, out=imag_squared)
        xp.add(out, imag_squared, out=out)
        return len(out)


class nlog10_cupy(sync_block):
    """n * log10(input) + k, like blocks.nlog10_ff: inputs are first clamped to the finite
    positive float32 range, so 0 and negative inputs give n * log10(FLT_MIN) + k (about
    -379.3 for n = 10 and k = 0, as in GNU Radio) and infinity n * log10(FLT_MAX) + k."""

    def __init__(self, n=1.0, vlen=1, k=0.0):
        vlen = checked_elements_per_item("nlog10_cupy", "vlen", vlen, 4)
        n = checked_scalar("nlog10_cupy", "n", n, numpy.dtype(numpy.float32))
        k = checked_scalar("nlog10_cupy", "k", k, numpy.dtype(numpy.float32))
        item = item_type(numpy.float32, vlen)
        sync_block.__init__(self, "nlog10_cupy", [item], [item])
        self._n = n
        self._k = k
        info = numpy.finfo(numpy.float32)
        self._smallest, self._largest = info.tiny, info.max

    def work(self, input_items, output_items):
        xp, out = self.xp, output_items[0]
        xp.clip(input_items[0], self._smallest, self._largest, out=out)
        xp.log10(out, out=out)
        if self._n != 1:
            xp.multiply(out, self._n, out=out)
        if self._k != 0:
            xp.add(out, self._k, out=out)
        return len(out)


__all__ = ["multiply_const_cupy", "add_cupy", "fft_cupy", "complex_to_mag_cupy",
           "complex_to_mag_squared_cupy", "nlog10_cupy"]
