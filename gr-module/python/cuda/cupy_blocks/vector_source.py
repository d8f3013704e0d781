#
# SPDX-License-Identifier: GPL-3.0-or-later
#
"""vector_source_cupy: blocks.vector_source as a Python GPU block, its data copied to the
device once."""

import threading

import numpy
from gnuradio import gr

from ..cuda_python import default_device
from ..python_blocks import sync_block
from .support import checked_dtype, checked_elements_per_item, device_constant, item_type

_WORK_DONE = int(gr.WORK_DONE)


def _fill_periodic(flat, period, start):
    """flat[i] = period[(start + i) % len(period)], in at most three copies."""
    size, total = len(period), len(flat)
    head = min(size - start, total)
    flat[:head] = period[start : start + head]
    whole = (total - head) // size
    end = head + whole * size
    if whole:
        flat[head:end].reshape(whole, size)[...] = period
    flat[end:] = period[: total - end]


def _checked_tags(block, tags):
    tags = list(tags or ())
    for tag in tags:
        if not isinstance(tag, gr.tag_t):
            raise TypeError(
                f"{block}: tags must be gr.tag_t objects (gr.tag_utils.python_to_tag "
                f"makes them), not {type(tag).__name__}"
            )
    return [(int(tag.offset), tag.key, tag.value, tag.srcid) for tag in tags]


class vector_source_cupy(sync_block):
    """Plays data (len(data) / vlen items), once or repeated, like blocks.vector_source.

    The data is copied to the device once. Tags, as blocks.vector_source places them: with
    repeat, each tag's offset counts from the start of the data and the tag comes again in
    every repetition (the output then comes in whole repetitions); without repeat, it is
    added at its offset when that part of the data is played.

    device: the GPU the block runs on (a CUDA ordinal), or default_device (-1).
    """

    SUPPORTED = (numpy.complex64, numpy.float32, numpy.int32, numpy.int16, numpy.int8, numpy.uint8)

    def __init__(self, data, repeat=True, vlen=1, tags=None, dtype=numpy.complex64, device=default_device):
        dtype = checked_dtype("vector_source_cupy", dtype, self.SUPPORTED)
        vlen = checked_elements_per_item("vector_source_cupy", "vlen", vlen, dtype.itemsize)
        self._dtype = dtype
        self._vlen = vlen
        host = self._checked_data(data)
        tags = _checked_tags("vector_source_cupy", tags)
        sync_block.__init__(self, "vector_source_cupy", None, [item_type(dtype, vlen)], device=device)
        self._repeat = bool(repeat)
        self._lock = threading.Lock()
        self._data = None
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
            raise TypeError(f"vector_source_cupy: data of {host.dtype} cannot become {self._dtype.name}")
        if self._dtype.kind in "iu" and host.size:
            info = numpy.iinfo(self._dtype)
            if host.min() < info.min or host.max() > info.max:
                raise ValueError(
                    f"vector_source_cupy: data outside the {self._dtype.name} range ({info.min} to {info.max})"
                )
        if len(host) % self._vlen:
            raise ValueError(
                f"vector_source_cupy: the data length ({len(host)}) must be a multiple of vlen ({self._vlen})"
            )
        return host

    def _install(self, host, tags):
        with self.on_device():  # set_data() runs on the control thread
            data = device_constant(self.xp, host, self._dtype)
        with self._lock:
            previous, self._data, self._tags, self._offset = self._data, data, tags, 0
        # work() enqueues its reads of the data under the lock: once the stream has run
        # them, the previous array may go back to CuPy's pool, whose next allocation on the
        # control thread's stream would otherwise overwrite it while the GPU reads it.
        if previous is not None and self.stream is not None:
            self.stream.synchronize()
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
            flat[:count] = data[offset : offset + count]
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
