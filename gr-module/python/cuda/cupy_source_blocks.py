#
# SPDX-License-Identifier: GPL-3.0-or-later
#
"""Array-code sources and repeat (the CuPy block library): const_source_cupy,
vector_source_cupy, noise_source_cupy, random_uniform_source_cupy and repeat_cupy.

Each is a Python GPU block written against self.xp (CuPy on a GPU, NumPy on the simulated
backend) that behaves as its GNU Radio CPU counterpart: same arguments, setters, tags and
message port. The random sources cannot reproduce GNU Radio's generator bit for bit; they
draw the same distributions, and a non-zero seed gives the same output on every run.
"""

import math
import operator
import threading

import numpy
import pmt
from gnuradio import analog, gr

from .cupy_block_support import (checked_count, checked_dtype, checked_elements_per_item,
                                 checked_scalar, device_constant, item_type, scratch_buffer)
from .python_blocks import basic_block, sync_block

_WORK_DONE = int(gr.WORK_DONE)

# Random values are drawn this many at a time (see _chunked_draws).
_DRAW_CHUNK = 1 << 20

_UNIFORM = int(analog.GR_UNIFORM)
_GAUSSIAN = int(analog.GR_GAUSSIAN)
_LAPLACIAN = int(analog.GR_LAPLACIAN)
_IMPULSE = int(analog.GR_IMPULSE)
_NOISE_NAMES = {_UNIFORM: "GR_UNIFORM", _GAUSSIAN: "GR_GAUSSIAN",
                _LAPLACIAN: "GR_LAPLACIAN", _IMPULSE: "GR_IMPULSE"}

# GNU Radio's impulse noise: sqrt(2) times an exponential draw, kept only above this level.
_IMPULSE_LEVEL = 9.0


class const_source_cupy(sync_block):
    """Every output item equals const, like analog's constant source."""

    SUPPORTED = (numpy.complex64, numpy.float32, numpy.int32, numpy.int16, numpy.int8)

    def __init__(self, const=0, dtype=numpy.complex64):
        dtype = checked_dtype("const_source_cupy", dtype, self.SUPPORTED)
        value = checked_scalar("const_source_cupy", "const", const, dtype)
        sync_block.__init__(self, "const_source_cupy", None, [dtype])
        self._dtype = dtype
        self._const = value

    def const(self):
        return self._const.item()

    def set_const(self, const):
        self._const = checked_scalar("const_source_cupy", "const", const, self._dtype)

    def work(self, input_items, output_items):
        output_items[0].fill(self._const)
        return len(output_items[0])


def _fill_periodic(flat, period, start):
    """flat[i] = period[(start + i) % len(period)], in at most three copies."""
    size, total = len(period), len(flat)
    head = min(size - start, total)
    flat[:head] = period[start:start + head]
    whole = (total - head) // size
    end = head + whole * size
    if whole:
        flat[head:end].reshape(whole, size)[...] = period
    flat[end:] = period[:total - end]


def _checked_tags(block, tags):
    tags = list(tags or ())
    for tag in tags:
        if not isinstance(tag, gr.tag_t):
            raise TypeError(f"{block}: tags must be gr.tag_t objects (gr.tag_utils.python_to_tag "
                            f"makes them), not {type(tag).__name__}")
    return [(int(tag.offset), tag.key, tag.value, tag.srcid) for tag in tags]


class vector_source_cupy(sync_block):
    """Plays data (len(data) / vlen items), once or repeated, like blocks.vector_source.

    The data is copied to the device once. Tags, as blocks.vector_source places them: with
    repeat, each tag's offset counts from the start of the data and the tag comes again in
    every repetition (the output then comes in whole repetitions); without repeat, it is
    added at its offset when that part of the data is played.
    """

    SUPPORTED = (numpy.complex64, numpy.float32, numpy.int32, numpy.int16, numpy.int8, numpy.uint8)

    def __init__(self, data, repeat=True, vlen=1, tags=None, dtype=numpy.complex64):
        dtype = checked_dtype("vector_source_cupy", dtype, self.SUPPORTED)
        vlen = checked_elements_per_item("vector_source_cupy", "vlen", vlen, dtype.itemsize)
        self._dtype = dtype
        self._vlen = vlen
        host = self._checked_data(data)
        tags = _checked_tags("vector_source_cupy", tags)
        sync_block.__init__(self, "vector_source_cupy", None, [item_type(dtype, vlen)])
        self._repeat = bool(repeat)
        self._lock = threading.Lock()
        self._install(host, tags)

    def rewind(self):
        with self._lock:
            self._offset = 0

    def set_data(self, data, tags=None):
        """New data and tags, played from their start."""
        self._install(self._checked_data(data), _checked_tags("vector_source_cupy", tags))

    def _checked_data(self, data):
        host = numpy.asarray(data).ravel()
        convertible = {"c": "biufc", "f": "biuf", "i": "biu", "u": "biu"}[self._dtype.kind]
        # An empty list is float64 to NumPy, but has no values to convert.
        if host.size and host.dtype.kind not in convertible:
            raise TypeError(f"vector_source_cupy: data of {host.dtype} cannot become "
                            f"{self._dtype.name}")
        if self._dtype.kind in "iu" and host.size:
            info = numpy.iinfo(self._dtype)
            if host.min() < info.min or host.max() > info.max:
                raise ValueError(f"vector_source_cupy: data outside the {self._dtype.name} range "
                                 f"({info.min} to {info.max})")
        if len(host) % self._vlen:
            raise ValueError(f"vector_source_cupy: the data length ({len(host)}) must be a "
                             f"multiple of vlen ({self._vlen})")
        return host

    def _install(self, host, tags):
        data = device_constant(self.xp, host, self._dtype)
        with self._lock:
            self._data, self._tags, self._offset = data, tags, 0
        if tags and self._repeat and len(host):
            self.set_output_multiple(len(host) // self._vlen)

    def work(self, input_items, output_items):
        out = output_items[0]
        vlen = self._vlen
        with self._lock:
            data, tags, offset = self._data, self._tags, self._offset
            size = len(data)
            if size == 0 or (not self._repeat and offset >= size):
                return _WORK_DONE
            flat = out.reshape(-1)
            if self._repeat:
                _fill_periodic(flat, data, offset)
                self._offset = (offset + len(flat)) % size
                if tags:
                    self._add_repeated_tags(tags, offset // vlen, size // vlen, len(out))
                return len(out)
            count = min(size - offset, len(flat))
            flat[:count] = data[offset:offset + count]
            self._offset = offset + count
            # As blocks.vector_source does: the tag offsets are compared with positions in
            # the data counted in scalars (also for vectors) and used as item offsets.
            for tag_offset, key, value, srcid in tags:
                if offset <= tag_offset < offset + count:
                    self.add_item_tag(0, tag_offset, key, value, srcid)
            return count // vlen

    def _add_repeated_tags(self, tags, start_item, period, nitems):
        """Tags of every repetition of the data that starts in this call's nitems items,
        whose first item is item start_item of the data."""
        written = self.nitems_written(0)
        copy_start = -start_item % period
        while copy_start < nitems:
            for tag_offset, key, value, srcid in tags:
                self.add_item_tag(0, written + copy_start + tag_offset, key, value, srcid)
            copy_start += period


class _chunked_draws:
    """Random values made a fixed number at a time and handed out in order.

    Drawing _DRAW_CHUNK values at a time makes the sequence depend on the seed alone, not on
    the sizes of the work() calls: CuPy's generator gives different values for one draw of
    2n than for two draws of n. The generator is made at the first draw, in work(), so that
    its set-up runs on the block's stream.
    """

    def __init__(self, xp, seed):
        self._xp = xp
        self._seed = seed
        self._rng = None
        self._chunk = None
        self._kind = None
        self._used = 0

    def take(self, out, kind, draw, scale=None):
        """Fills \\p out with the next values (times \\p scale); draw(rng) makes a chunk of
        values of \\p kind. A kind other than the last one's starts a new chunk."""
        if self._rng is None:
            self._rng = self._xp.random.default_rng(self._seed or None)
        position = 0
        while position < len(out):
            if self._kind != kind or self._used == len(self._chunk):
                self._chunk, self._kind, self._used = draw(self._rng), kind, 0
            count = min(len(self._chunk) - self._used, len(out) - position)
            values = self._chunk[self._used:self._used + count]
            if scale is None:
                out[position:position + count] = values
            else:
                self._xp.multiply(values, scale, out=out[position:position + count])
            self._used += count
            position += count


def _checked_noise_type(noise_type, dtype):
    try:
        value = int(noise_type)
    except (TypeError, ValueError):
        raise TypeError(f"noise_source_cupy: noise_type must be one of analog.GR_UNIFORM, "
                        f"GR_GAUSSIAN, GR_LAPLACIAN or GR_IMPULSE, not {noise_type!r}") from None
    if value not in _NOISE_NAMES:
        raise ValueError(f"noise_source_cupy: noise_type must be one of analog.GR_UNIFORM, "
                         f"GR_GAUSSIAN, GR_LAPLACIAN or GR_IMPULSE, not {noise_type!r}")
    if dtype.kind == "c" and value not in (_UNIFORM, _GAUSSIAN):
        raise ValueError(f"noise_source_cupy: complex64 noise is GR_UNIFORM or GR_GAUSSIAN, "
                         f"not {_NOISE_NAMES[value]}")
    return value


class noise_source_cupy(sync_block):
    """Noise like analog.noise_source: GR_UNIFORM in [-amplitude, amplitude), GR_GAUSSIAN of
    standard deviation amplitude, GR_LAPLACIAN amplitude times a Laplace(0, 1) draw and
    GR_IMPULSE amplitude times sqrt(2)*exponential draws above 9, 0 otherwise; complex64
    noise (uniform or gaussian) has amplitude/sqrt(2) in each component; integer outputs
    truncate. seed 0 draws a different sequence on every run, any other seed the same one.
    """

    SUPPORTED = (numpy.complex64, numpy.float32, numpy.int32, numpy.int16)

    def __init__(self, noise_type=analog.GR_GAUSSIAN, amplitude=1.0, seed=0, dtype=numpy.complex64):
        dtype = checked_dtype("noise_source_cupy", dtype, self.SUPPORTED)
        noise_type = _checked_noise_type(noise_type, dtype)
        amplitude = checked_scalar("noise_source_cupy", "amplitude", amplitude, numpy.dtype(numpy.float32))
        seed = checked_count("noise_source_cupy", "seed", seed, minimum=0, maximum=None)
        sync_block.__init__(self, "noise_source_cupy", None, [dtype])
        self._dtype = dtype
        self._type = noise_type
        self._amplitude = amplitude
        self._draws = _chunked_draws(self.xp, seed)
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
        self._amplitude = checked_scalar("noise_source_cupy", "amplitude", amplitude,
                                         numpy.dtype(numpy.float32))

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
        unit = self._unit.get(_DRAW_CHUNK)
        shape = unit.shape
        if noise_type == _UNIFORM:
            rng.random(shape, numpy.float32, out=unit)
            xp.multiply(unit, 2, out=unit)
            xp.subtract(unit, 1, out=unit)
        elif noise_type == _GAUSSIAN:
            rng.standard_normal(shape, numpy.float32, out=unit)
        else:
            spare = self._spare.get(_DRAW_CHUNK)
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


def _checked_int(block, what, value):
    if isinstance(value, bool):
        raise TypeError(f"{block}: {what} must be an integer, not {value!r}")
    try:
        return operator.index(value)
    except TypeError:
        raise TypeError(f"{block}: {what} must be an integer, not {value!r}") from None


class random_uniform_source_cupy(sync_block):
    """Integers uniform in [minimum, maximum), like analog.random_uniform_source_i/s/b.
    seed 0 draws a different sequence on every run, any other seed the same one."""

    SUPPORTED = (numpy.int32, numpy.int16, numpy.int8, numpy.uint8)

    def __init__(self, minimum=0, maximum=2, seed=0, dtype=numpy.int32):
        dtype = checked_dtype("random_uniform_source_cupy", dtype, self.SUPPORTED)
        minimum = _checked_int("random_uniform_source_cupy", "minimum", minimum)
        maximum = _checked_int("random_uniform_source_cupy", "maximum", maximum)
        info = numpy.iinfo(dtype)
        if not info.min <= minimum < maximum <= info.max + 1:
            raise ValueError(f"random_uniform_source_cupy: [minimum, maximum) = [{minimum}, "
                             f"{maximum}) must hold a value and fit in {dtype.name} "
                             f"({info.min} to {info.max})")
        seed = checked_count("random_uniform_source_cupy", "seed", seed, minimum=0, maximum=None)
        sync_block.__init__(self, "random_uniform_source_cupy", None, [dtype])
        self._dtype = dtype
        self._minimum = minimum
        self._maximum = maximum
        self._draws = _chunked_draws(self.xp, seed)

    def work(self, input_items, output_items):
        out = output_items[0]
        self._draws.take(out, "integers", lambda rng: rng.integers(
            self._minimum, self._maximum, size=_DRAW_CHUNK, dtype=self._dtype))
        return len(out)


class repeat_cupy(basic_block):
    """Each input item interp times, like blocks.repeat; an item's repetitions may span
    work() calls. A tag goes to the first repetition of its item (where blocks.repeat puts
    it). The interpolation changes between items: through set_interpolation() or a message
    on the "interpolation" port, either an integer or blocks.repeat's pair
    ("interpolation" . integer); an item already started keeps its interpolation.
    """

    SUPPORTED = (numpy.complex64, numpy.float32, numpy.int32, numpy.int16, numpy.int8, numpy.uint8)

    def __init__(self, interp, vlen=1, dtype=numpy.float32, output_multiple=1):
        dtype = checked_dtype("repeat_cupy", dtype, self.SUPPORTED)
        interp = checked_count("repeat_cupy", "interp", interp)
        vlen = checked_elements_per_item("repeat_cupy", "vlen", vlen, dtype.itemsize)
        output_multiple = checked_count("repeat_cupy", "output_multiple", output_multiple)
        item = item_type(dtype, vlen)
        basic_block.__init__(self, "repeat_cupy", [item], [item])
        self._dtype = dtype
        self._item_shape = () if vlen == 1 else (vlen,)
        self._interpolation = interp
        self._pending = None  # device copy of the item whose repetitions continue next call
        self._left = 0  # repetitions of it still to write
        self.set_relative_rate(float(interp))
        self.set_output_multiple(output_multiple)
        self.set_tag_propagation_policy(gr.TPP_DONT)
        port = pmt.intern("interpolation")
        self.message_port_register_in(port)
        self.set_msg_handler(port, self._handle_interpolation)

    def interpolation(self):
        return self._interpolation

    def set_interpolation(self, interp):
        interp = checked_count("repeat_cupy", "interp", interp)
        # general_work() reads it once per call, so a change never splits a call.
        self._interpolation = interp
        self.set_relative_rate(float(interp))

    def _handle_interpolation(self, msg):
        value = pmt.cdr(msg) if pmt.is_pair(msg) else msg
        try:
            if not pmt.is_integer(value):
                raise ValueError("not an integer")
            self.set_interpolation(pmt.to_long(value))
        except ValueError as error:
            self.gateway.logger.error(
                f"interpolation message {pmt.write_string(msg)} ignored ({error}): expected a "
                "positive integer, or a pair (interpolation . positive integer)")

    def forecast(self, noutput_items, ninputs):
        needed = max(noutput_items - self._left, 0)
        return [-(-needed // self._interpolation)] * ninputs

    def general_work(self, input_items, output_items):
        interp = self._interpolation
        source, out = input_items[0], output_items[0]
        room = len(out)

        head = min(self._left, room)
        if head:
            out[:head] = self._pending
            self._left -= head
        produced = head

        full = min((room - produced) // interp, len(source))
        if full:
            copies = out[produced:produced + full * interp]
            copies.reshape((full, interp) + self._item_shape)[...] = source[:full, None]
            produced += full * interp
        consumed = full

        partial = room - produced
        if partial and consumed < len(source):
            out[produced:] = source[consumed]
            if self._pending is None:
                self._pending = self.xp.empty(self._item_shape, self._dtype)
            self._pending[...] = source[consumed]
            self._left = interp - partial
            produced = room
            consumed += 1

        if consumed:
            self._copy_tags(consumed, head, interp)
            self.consume(0, consumed)
        return produced

    def _copy_tags(self, consumed, head, interp):
        """Tags of the consumed items, each to its item's first repetition."""
        first = self.nitems_read(0)
        written = self.nitems_written(0) + head
        for tag in self.get_tags_in_range(0, first, first + consumed):
            offset = written + (tag.offset - first) * interp
            self.add_item_tag(0, offset, tag.key, tag.value, tag.srcid)


__all__ = ["const_source_cupy", "vector_source_cupy", "noise_source_cupy",
           "random_uniform_source_cupy", "repeat_cupy"]
