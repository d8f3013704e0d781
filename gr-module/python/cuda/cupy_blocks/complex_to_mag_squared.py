#
# SPDX-License-Identifier: GPL-3.0-or-later
#
"""complex_to_mag_squared_cupy: blocks.complex_to_mag_squared as a Python GPU block."""

import numpy

from ..cuda_python import default_device
from ..python_blocks import sync_block
from .support import checked_elements_per_item, item_type, scratch_buffer


class complex_to_mag_squared_cupy(sync_block):
    """re² + im², like blocks.complex_to_mag_squared (no square root involved).

    device: the GPU the block runs on (a CUDA ordinal), or default_device (-1).
    """

    def __init__(self, vlen=1, device=default_device):
        vlen = checked_elements_per_item("complex_to_mag_squared_cupy", "vlen", vlen, 8)
        item_shape = () if vlen == 1 else (vlen,)
        sync_block.__init__(
            self,
            "complex_to_mag_squared_cupy",
            [item_type(numpy.complex64, vlen)],
            [item_type(numpy.float32, vlen)],
            device=device,
        )
        self._imag_squared = scratch_buffer(self.xp, numpy.float32, item_shape)

    def work(self, input_items, output_items):
        xp, values, out = self.xp, input_items[0], output_items[0]
        imag_squared = self._imag_squared.get(len(out))
        xp.multiply(values.real, values.real, out=out)
        xp.multiply(values.imag, values.imag, out=imag_squared)
        xp.add(out, imag_squared, out=out)
        return len(out)
