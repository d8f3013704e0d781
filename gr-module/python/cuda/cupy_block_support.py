#
# SPDX-License-Identifier: GPL-3.0-or-later
#
"""What the blocks of the CuPy block library share: argument checks whose errors name the
block and what it accepts, and device memory a block keeps across work() calls."""

import numbers
import operator

import numpy


def _listed(names):
    names = list(names)
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def checked_dtype(block, dtype, supported):
    """\\p dtype as a numpy.dtype, or a TypeError saying what \\p block supports."""
    names = _listed(numpy.dtype(t).name for t in supported)
    try:
        dtype = numpy.dtype(dtype)
    except TypeError:
        raise TypeError(f"{block} supports {names}, not {dtype!r}") from None
    if dtype not in [numpy.dtype(t) for t in supported]:
        raise TypeError(f"{block} supports {names}, not {dtype.name}")
    return dtype


def checked_count(block, what, value, minimum=1):
    """\\p value as an int of at least \\p minimum (a vector length, a port count...)."""
    if isinstance(value, bool):
        raise TypeError(f"{block}: {what} must be an integer, not {value!r}")
    try:
        value = operator.index(value)
    except TypeError:
        raise TypeError(f"{block}: {what} must be an integer, not {value!r}") from None
    if value < minimum:
        raise ValueError(f"{block}: {what} must be at least {minimum}, not {value}")
    return value


def checked_scalar(block, what, value, dtype):
    """\\p value as a NumPy scalar of \\p dtype, which keeps array arithmetic in that type."""
    kind = dtype.kind
    if isinstance(value, bool) or not isinstance(value, numbers.Number):
        raise TypeError(f"{block}: {what} must be a number, not {value!r}")
    if kind == "c":
        return dtype.type(complex(value))
    if isinstance(value, numbers.Complex) and not isinstance(value, numbers.Real):
        if value.imag != 0:
            raise TypeError(f"{block}: {what} {value!r} is complex; {dtype.name} takes a real number")
        value = value.real
    if kind == "f":
        return dtype.type(float(value))
    if not isinstance(value, numbers.Integral):
        raise TypeError(f"{block}: {what} for {dtype.name} must be an integer, not {value!r}")
    info = numpy.iinfo(dtype)
    if not info.min <= int(value) <= info.max:
        raise ValueError(f"{block}: {what} {value} does not fit in {dtype.name} "
                         f"({info.min} to {info.max})")
    return dtype.type(int(value))


def item_type(dtype, vlen):
    """A port's item: the dtype, or a (dtype, vlen) vector of it."""
    return dtype if vlen == 1 else (dtype, vlen)


def device_constant(xp, value, dtype):
    """\\p value copied into device memory once, for work() calls to read.

    CuPy copies on the current stream of the calling thread; a block's stream is
    non-blocking and would not wait for that copy, so it is finished here.
    """
    array = xp.asarray(numpy.asarray(value, dtype))
    if xp is not numpy:
        xp.cuda.get_current_stream().synchronize()
    return array


class scratch_buffer:
    """Device memory reused across work() calls, grown to the largest call seen.

    Allocate it inside work(), where the block's stream is current: CuPy's memory pool then
    orders its reuse after the work that used it.
    """

    def __init__(self, xp, dtype, item_shape=()):
        self._xp = xp
        self._dtype = dtype
        self._item_shape = tuple(item_shape)
        self._array = None

    def get(self, nitems):
        if self._array is None or len(self._array) < nitems:
            self._array = self._xp.empty((nitems,) + self._item_shape, self._dtype)
        return self._array[:nitems]
