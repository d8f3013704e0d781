#
# SPDX-License-Identifier: GPL-3.0-or-later
#
"""add_py: the reference module's adder in its manual-synchronisation style: a gr.sync_block
with its own stream, waiting for its inputs and marking its output itself (manual_sync.py).
add_cupy does the same work without host waits."""

import numpy
from gnuradio import gr

from ..arrays import array_module, as_cupy
from ..lifetime import kept_alive
from ..manual_sync import io_signature_make, mark_outputs_ready, new_stream, wait_for_inputs
from .support import MAX_PORTS, checked_count, checked_dtype, checked_elements_per_item, item_type


class add_py(kept_alive, gr.sync_block):
    """The sum of num_inputs streams on the block's own stream, like blocks.add_cc/ff/ii/ss
    (integers wrap around)."""

    SUPPORTED = (numpy.complex64, numpy.float32, numpy.int32, numpy.int16)

    def __init__(self, num_inputs=2, dtype=numpy.complex64, vlen=1):
        dtype = checked_dtype("add_py", dtype, self.SUPPORTED)
        num_inputs = checked_count("add_py", "num_inputs", num_inputs, 1, MAX_PORTS)
        vlen = checked_elements_per_item("add_py", "vlen", vlen, dtype.itemsize)
        item = item_type(dtype, vlen)
        gr.sync_block.__init__(
            self, "add_py", io_signature_make(num_inputs, num_inputs, item), io_signature_make(1, 1, item)
        )
        self.xp = array_module()
        self.stream = new_stream()

    def work(self, input_items, output_items):
        wait_for_inputs(self.gateway, self.stream.ptr)
        with self.stream:
            out = as_cupy(output_items[0])
            self.xp.copyto(out, as_cupy(input_items[0]))
            for port in input_items[1:]:
                self.xp.add(out, as_cupy(port), out=out)
        mark_outputs_ready(self.gateway, self.stream.ptr)
        return len(output_items[0])
