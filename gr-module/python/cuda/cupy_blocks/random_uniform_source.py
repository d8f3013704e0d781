#
# SPDX-License-Identifier: GPL-3.0-or-later
#
"""random_uniform_source_cupy: analog.random_uniform_source_i/s/b as a Python GPU block."""

import operator

import numpy

from ..cuda_python import default_device
from ..python_blocks import sync_block
from .random_draws import DRAW_CHUNK, chunked_draws
from .support import checked_dtype, checked_seed


def _checked_int(block, what, value):
    if isinstance(value, bool):
        raise TypeError(f"{block}: {what} must be an integer, not {value!r}")
    try:
        return operator.index(value)
    except TypeError:
        raise TypeError(f"{block}: {what} must be an integer, not {value!r}") from None


class random_uniform_source_cupy(sync_block):
    """Integers uniform in [minimum, maximum), like analog.random_uniform_source_i/s/b.
    seed 0 draws a different sequence on every run, any other seed the same one; a
    negative seed is taken modulo 2^64, as GNU Radio's sources take it.

    device: the GPU the block runs on (a CUDA ordinal), or default_device (-1).
    """

    SUPPORTED = (numpy.int32, numpy.int16, numpy.int8, numpy.uint8)

    def __init__(self, minimum=0, maximum=2, seed=0, dtype=numpy.int32, device=default_device):
        dtype = checked_dtype("random_uniform_source_cupy", dtype, self.SUPPORTED)
        minimum = _checked_int("random_uniform_source_cupy", "minimum", minimum)
        maximum = _checked_int("random_uniform_source_cupy", "maximum", maximum)
        info = numpy.iinfo(dtype)
        if not info.min <= minimum < maximum <= info.max + 1:
            raise ValueError(
                f"random_uniform_source_cupy: [minimum, maximum) = [{minimum}, "
                f"{maximum}) must hold a value and fit in {dtype.name} "
                f"({info.min} to {info.max})"
            )
        seed = checked_seed("random_uniform_source_cupy", seed)
        sync_block.__init__(self, "random_uniform_source_cupy", None, [dtype], device=device)
        self._dtype = dtype
        self._minimum = minimum
        self._maximum = maximum
        self._draws = chunked_draws(self.xp, seed)

    def work(self, input_items, output_items):
        out = output_items[0]
        self._draws.take(
            out, "integers", lambda rng: rng.integers(self._minimum, self._maximum, size=DRAW_CHUNK, dtype=self._dtype)
        )
        return len(out)
