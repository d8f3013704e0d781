#
# SPDX-License-Identifier: GPL-3.0-or-later
#
"""What the blocks of the CuPy block library share: argument checks whose errors name the
block and what it accepts, the text of ignored messages in warnings, and device memory a
block keeps across work() calls."""

import math
import numbers
import operator

import numpy
import pmt


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


# The limits of GNU Radio's own types, which the C++ blocks check too (gr-module/lib/arguments.h).
MAX_INT = 2**31 - 1  # GNU Radio keeps item sizes, output multiples and rates in ints
MAX_ITEM_SIZE = MAX_INT  # bytes
# GNU Radio keeps state for every output port a block may have from its construction, so
# 2^31 - 1 ports would take 32 GiB before anything is connected.
MAX_PORTS = 2**16
MAX_FFT_SIZE = 2**27  # a 1 GiB vector, well within what cuFFT transforms (see arguments.h)


def limit_text(value):
    """\\p value written so that limits read easily: 2^27, 2^31 - 1, 715827882 or 2047."""
    for bits in range(16, 64):
        if value == 1 << bits:
            return f"2^{bits}"
        if value == (1 << bits) - 1:
            return f"2^{bits} - 1"
    return str(value)


def checked_count(block, what, value, minimum=1, maximum=MAX_INT, after_max=""):
    """\\p value as an int in [\\p minimum, \\p maximum] (a vector length, a port count...);
    \\p maximum None means no upper limit; \\p after_max follows the maximum in the message."""
    if isinstance(value, bool):
        raise TypeError(f"{block}: {what} must be an integer, not {value!r}")
    try:
        value = operator.index(value)
    except TypeError:
        raise TypeError(f"{block}: {what} must be an integer, not {value!r}") from None
    if maximum is None:
        if value < minimum:
            raise ValueError(f"{block}: {what} must be at least {minimum}, got {value}")
    elif not minimum <= value <= maximum:
        raise ValueError(
            f"{block}: {what} must be between {limit_text(minimum)} and {limit_text(maximum)}{after_max}, got {value}"
        )
    return value


def checked_seed(block, value):
    """A random source's \\p value as the seed of its generator, as GNU Radio's sources take
    it: their long or int seed becomes gr::random's uint64_t, so a negative seed is taken
    modulo 2^64 (-1 is 2^64 - 1) and 0 means a different sequence on every run."""
    seed = checked_count(block, "seed", value, minimum=-(2**63), maximum=None)
    return seed % 2**64 if seed < 0 else seed


def checked_elements_per_item(block, what, value, element_size):
    """\\p value elements of \\p element_size bytes make one item (vlen, fft_size): at least
    1, and the item fits GNU Radio's int item size."""
    return checked_count(
        block,
        what,
        value,
        1,
        MAX_ITEM_SIZE // element_size,
        f" ({what} * {element_size} bytes must fit GNU Radio's largest item, {limit_text(MAX_ITEM_SIZE)} bytes)",
    )


def checked_real(block, what, value):
    """\\p value as a finite float (a rate, a frequency, a phase)."""
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise TypeError(f"{block}: {what} must be a real number, not {value!r}")
    value = float(value)
    if not math.isfinite(value):
        raise ValueError(f"{block}: {what} must be finite, got {value}")
    return value


def checked_positive(block, what, value):
    """\\p value as a finite float > 0 (a sampling rate)."""
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise TypeError(f"{block}: {what} must be a real number, not {value!r}")
    value = float(value)
    if not (math.isfinite(value) and value > 0):
        raise ValueError(f"{block}: {what} must be finite and > 0, got {value}")
    return value


def checked_scalar(block, what, value, dtype):
    """\\p value as a NumPy scalar of \\p dtype, which keeps array arithmetic in that type."""
    kind = dtype.kind
    if isinstance(value, bool) or not isinstance(value, numbers.Number):
        raise TypeError(f"{block}: {what} must be a number, not {value!r}")
    if kind == "c":
        with numpy.errstate(over="ignore"):
            converted = dtype.type(complex(value))
        return _finite(block, what, value, converted, dtype)
    if isinstance(value, numbers.Complex) and not isinstance(value, numbers.Real):
        if value.imag != 0:
            raise TypeError(f"{block}: {what} {value!r} is complex; {dtype.name} takes a real number")
        value = value.real
    if kind == "f":
        with numpy.errstate(over="ignore"):
            converted = dtype.type(float(value))
        return _finite(block, what, value, converted, dtype)
    if not isinstance(value, numbers.Integral):
        raise TypeError(f"{block}: {what} for {dtype.name} must be an integer, not {value!r}")
    info = numpy.iinfo(dtype)
    if not info.min <= int(value) <= info.max:
        raise ValueError(f"{block}: {what} {value} does not fit in {dtype.name} ({info.min} to {info.max})")
    return dtype.type(int(value))


def _finite(block, what, value, converted, dtype):
    """\\p converted, unless it is NaN or infinite: such a constant (given, or too large for
    \\p dtype) makes only NaN or infinite samples."""
    with numpy.errstate(all="ignore"):
        finite = numpy.isfinite(converted)
    if not finite:
        if all(math.isfinite(part) for part in (complex(value).real, complex(value).imag)):
            raise ValueError(f"{block}: {what} {value!r} does not fit in {dtype.name} (it becomes {converted})")
        raise ValueError(f"{block}: {what} must be finite, got {value!r}")
    return converted


def message_text(message):
    """A message as the warnings about ignored messages quote it: PMT's text, cut after 120
    characters (a message of a megabyte makes a line of the log, not two megabytes)."""
    text = pmt.write_string(message)
    if len(text) > 120:
        return f"{text[:120]}... ({len(text)} characters)"
    return text


def item_type(dtype, vlen):
    """A port's item: the dtype, or a (dtype, vlen) vector of it."""
    return dtype if vlen == 1 else (dtype, vlen)


def device_constant(xp, value, dtype):
    """\\p value copied into device memory once, for work() calls to read.

    The array is on CuPy's current device: outside work(), call this inside the block's
    `with self.on_device():`. CuPy copies on the calling thread's current stream of that
    device; a block's stream is non-blocking and would not wait for that copy, so it is
    finished here (get_current_stream() is the current device's, the one copied on).
    """
    array = xp.asarray(numpy.asarray(value, dtype))
    if xp is not numpy:
        xp.cuda.get_current_stream().synchronize()
    return array


class scratch_buffer:
    """Device memory reused across work() calls, grown to the largest call seen.

    Allocate it inside work(), where the block's device and stream are current: the memory
    is then on the block's device, and CuPy's memory pool orders its reuse after the work
    that used it.
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
