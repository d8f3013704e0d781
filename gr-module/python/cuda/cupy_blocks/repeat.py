#
# SPDX-License-Identifier: GPL-3.0-or-later
#
"""repeat_cupy: blocks.repeat as a Python GPU block, with its tags and interpolation message
port."""

import contextlib

import numpy
import pmt
from gnuradio import gr

from ..cuda_python import default_device
from ..python_blocks import basic_block
from .support import checked_count, checked_dtype, checked_elements_per_item, item_type, message_text


@contextlib.contextmanager
def _value_errors():
    """repeat_cupy refuses every bad argument with a ValueError, a wrong type too, as the
    reference module's repeat_cupy does (the other blocks raise TypeError for a wrong type)."""
    try:
        yield
    except TypeError as error:
        raise ValueError(str(error)) from None


class repeat_cupy(basic_block):
    """Each input item interp times, like blocks.repeat; an item's repetitions may span
    work() calls. A tag goes to the first repetition of its item (where blocks.repeat puts
    it), with its srcid (which blocks.repeat drops from GNU Radio 3.10.8 on). The interpolation changes between items: through set_interpolation() or a message
    on the "interpolation" port, either an integer or blocks.repeat's pair
    ("interpolation" . integer); an item already started keeps its interpolation.

    device: the GPU the block runs on (a CUDA ordinal), or default_device (-1).
    """

    SUPPORTED = (numpy.complex64, numpy.float32, numpy.int32, numpy.int16, numpy.int8, numpy.uint8)

    def __init__(self, interp, vlen=1, dtype=numpy.float32, output_multiple=1, device=default_device):
        with _value_errors():
            dtype = checked_dtype("repeat_cupy", dtype, self.SUPPORTED)
            interp = checked_count("repeat_cupy", "interp", interp)
            vlen = checked_elements_per_item("repeat_cupy", "vlen", vlen, dtype.itemsize)
            output_multiple = checked_count("repeat_cupy", "output_multiple", output_multiple)
        item = item_type(dtype, vlen)
        basic_block.__init__(self, "repeat_cupy", [item], [item], device=device)
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
        with _value_errors():
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
                f"interpolation message {message_text(msg)} ignored ({error}): expected a "
                "positive integer, or a pair (interpolation . positive integer)"
            )

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
            copies = out[produced : produced + full * interp]
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
