#
# SPDX-License-Identifier: GPL-3.0-or-later
#
"""multiply_const_py: the reference module's multiply block in its manual-synchronisation
style: a gr.sync_block with its own stream, waiting for its inputs and marking its outputs
itself (manual_sync.py). multiply_const_cupy does the same work without host waits."""

import numpy
from gnuradio import gr

from ..arrays import array_module, as_cupy
from ..lifetime import kept_alive
from ..manual_sync import io_signature_make, mark_outputs_ready, new_stream, wait_for_inputs
from .support import checked_dtype, checked_elements_per_item, checked_scalar, item_type


class multiply_const_py(kept_alive, gr.sync_block):
    """output = input * k on the block's own stream, like blocks.multiply_const_cc/ff/ii/ss."""

    SUPPORTED = (numpy.complex64, numpy.float32, numpy.int32, numpy.int16)

    def __init__(self, k, dtype=numpy.complex64, vlen=1):
        dtype = checked_dtype("multiply_const_py", dtype, self.SUPPORTED)
        vlen = checked_elements_per_item("multiply_const_py", "vlen", vlen, dtype.itemsize)
        self._dtype = dtype
        self._k = checked_scalar("multiply_const_py", "k", k, dtype)
        signature = io_signature_make(1, 1, item_type(dtype, vlen))
        gr.sync_block.__init__(self, "multiply_const_py", signature, signature)
        self.xp = array_module()
        self.stream = new_stream()

    def k(self):
        return self._k.item()

    def set_k(self, k):
        self._k = checked_scalar("multiply_const_py", "k", k, self._dtype)

    def work(self, input_items, output_items):
        wait_for_inputs(self.gateway, self.stream.ptr)
        with self.stream:
            self.xp.multiply(as_cupy(input_items[0]), self._k, out=as_cupy(output_items[0]))
        mark_outputs_ready(self.gateway, self.stream.ptr)
        return len(output_items[0])
