#
# SPDX-License-Identifier: GPL-3.0-or-later
#
"""noise_source_cupy: analog.noise_source as a Python GPU block: the same distributions, drawn
with CuPy's generator."""

import math

import numpy
from gnuradio import analog

from ..cuda_python import default_device
from ..python_blocks import sync_block
from .random_draws import DRAW_CHUNK, chunked_draws
from .support import checked_dtype, checked_scalar, checked_seed, scratch_buffer

_UNIFORM = int(analog.GR_UNIFORM)
_GAUSSIAN = int(analog.GR_GAUSSIAN)
_LAPLACIAN = int(analog.GR_LAPLACIAN)
_IMPULSE = int(analog.GR_IMPULSE)
_NOISE_NAMES = {_UNIFORM: "GR_UNIFORM", _GAUSSIAN: "GR_GAUSSIAN", _LAPLACIAN: "GR_LAPLACIAN", _IMPULSE: "GR_IMPULSE"}

# GNU Radio's impulse noise: sqrt(2) times an exponential draw, kept only above this level.
_IMPULSE_LEVEL = 9.0


def _checked_noise_type(noise_type, dtype):
    try:
        value = int(noise_type)
    except (TypeError, ValueError):
        raise TypeError(
            f"noise_source_cupy: noise_type must be one of analog.GR_UNIFORM, "
            f"GR_GAUSSIAN, GR_LAPLACIAN or GR_IMPULSE, not {noise_type!r}"
        ) from None
    if value not in _NOISE_NAMES:
        raise ValueError(
            f"noise_source_cupy: noise_type must be one of analog.GR_UNIFORM, "
            f"GR_GAUSSIAN, GR_LAPLACIAN or GR_IMPULSE, not {noise_type!r}"
        )
    if dtype.kind == "c" and value not in (_UNIFORM, _GAUSSIAN):
        raise ValueError(f"noise_source_cupy: complex64 noise is GR_UNIFORM or GR_GAUSSIAN, not {_NOISE_NAMES[value]}")
    return value


class noise_source_cupy(sync_block):
    """Noise like analog.noise_source: GR_UNIFORM in [-amplitude, amplitude), GR_GAUSSIAN of
    standard deviation amplitude, GR_LAPLACIAN amplitude times a Laplace(0, 1) draw and
    GR_IMPULSE amplitude times sqrt(2)*exponential draws above 9, 0 otherwise; complex64
    noise (uniform or gaussian) has amplitude/sqrt(2) in each component; integer outputs
    truncate. seed 0 draws a different sequence on every run, any other seed the same one; a
    negative seed is taken modulo 2^64, as GNU Radio's sources take it.

    device: the GPU the block runs on (a CUDA ordinal), or default_device (-1).
    """

    SUPPORTED = (numpy.complex64, numpy.float32, numpy.int32, numpy.int16)

    def __init__(
        self, noise_type=analog.GR_GAUSSIAN, amplitude=1.0, seed=0, dtype=numpy.complex64, device=default_device
    ):
        dtype = checked_dtype("noise_source_cupy", dtype, self.SUPPORTED)
        noise_type = _checked_noise_type(noise_type, dtype)
        amplitude = checked_scalar("noise_source_cupy", "amplitude", amplitude, numpy.dtype(numpy.float32))
        seed = checked_seed("noise_source_cupy", seed)
        sync_block.__init__(self, "noise_source_cupy", None, [dtype], device=device)
        self._dtype = dtype
        self._type = noise_type
        self._amplitude = amplitude
        self._draws = chunked_draws(self.xp, seed)
        self._unit = scratch_buffer(self.xp, numpy.float32)
        self._spare = scratch_buffer(self.xp, numpy.float32)
        self._scaled = scratch_buffer(self.xp, numpy.float32)

    def type(self):
        return analog.noise_type_t(self._type)

    def set_type(self, noise_type):
        self._type = _checked_noise_type(noise_type, self._dtype)

    def amplitude(self):
        return float(self._amplitude)

    def set_amplitude(self, amplitude):
        self._amplitude = checked_scalar("noise_source_cupy", "amplitude", amplitude, numpy.dtype(numpy.float32))

    def work(self, input_items, output_items):
        out = output_items[0]
        noise_type, scale = self._type, self._amplitude
        if self._dtype.kind == "c":
            values = out.view(numpy.float32)
            scale = scale / numpy.float32(math.sqrt(2.0))
        elif self._dtype.kind == "f":
            values = out
        else:
            values = self._scaled.get(len(out))
        self._draws.take(values, noise_type, lambda rng: self._unit_noise(rng, noise_type), scale)
        if self._dtype.kind == "i":
            out[...] = values  # truncates, as GNU Radio's cast does
        return len(out)

    def _unit_noise(self, rng, noise_type):
        """A chunk of noise of amplitude 1: GNU Radio's distributions, CuPy's generator."""
        xp = self.xp
        unit = self._unit.get(DRAW_CHUNK)
        shape = unit.shape
        if noise_type == _UNIFORM:
            rng.random(shape, numpy.float32, out=unit)
            xp.multiply(unit, 2, out=unit)
            xp.subtract(unit, 1, out=unit)
        elif noise_type == _GAUSSIAN:
            rng.standard_normal(shape, numpy.float32, out=unit)
        else:
            spare = self._spare.get(DRAW_CHUNK)
            rng.standard_exponential(shape, numpy.float32, "inv", out=unit)
            if noise_type == _LAPLACIAN:
                # The difference of two exponential draws is Laplace(0, 1).
                rng.standard_exponential(shape, numpy.float32, "inv", out=spare)
                xp.subtract(unit, spare, out=unit)
            else:
                xp.multiply(unit, numpy.float32(math.sqrt(2.0)), out=unit)
                xp.greater(unit, _IMPULSE_LEVEL, out=spare)
                xp.multiply(unit, spare, out=unit)
        return unit
