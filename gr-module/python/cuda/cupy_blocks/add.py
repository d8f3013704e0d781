#
# SPDX-License-Identifier: GPL-3.0-or-later
#
"""add_cupy: blocks.add_cc/ff/ii/ss as a Python GPU block."""

import numpy

from ..cuda_python import default_device
from ..python_blocks import sync_block
from .support import MAX_PORTS, checked_count, checked_dtype, checked_elements_per_item, item_type


class add_cupy(sync_block):
    """output = sum of num_inputs inputs, like blocks.add_cc/ff/ii/ss.

    device: the GPU the block runs on (a CUDA ordinal), or default_device (-1).
    """

    SUPPORTED = (numpy.complex64, numpy.float32, numpy.int32, numpy.int16, numpy.int8)

    def __init__(self, num_inputs=2, dtype=numpy.complex64, vlen=1, device=default_device):
        dtype = checked_dtype("add_cupy", dtype, self.SUPPORTED)
        num_inputs = checked_count("add_cupy", "num_inputs", num_inputs, 1, MAX_PORTS)
        vlen = checked_elements_per_item("add_cupy", "vlen", vlen, dtype.itemsize)
        item = item_type(dtype, vlen)
        sync_block.__init__(self, "add_cupy", [item] * num_inputs, [item], device=device)

    def work(self, input_items, output_items):
        out = output_items[0]
        if len(input_items) == 1:
            out[...] = input_items[0]
        else:
            self.xp.add(input_items[0], input_items[1], out=out)
            for more in input_items[2:]:
                self.xp.add(out, more, out=out)
        return len(out)
