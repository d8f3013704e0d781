#
# SPDX-License-Identifier: GPL-3.0-or-later
#
"""complex_to_mag_cupy: blocks.complex_to_mag as a Python GPU block."""

import numpy

from ..cuda_python import default_device
from ..python_blocks import sync_block
from .support import checked_elements_per_item, item_type


class complex_to_mag_cupy(sync_block):
    """|input|, like blocks.complex_to_mag.

    device: the GPU the block runs on (a CUDA ordinal), or default_device (-1).
    """

    def __init__(self, vlen=1, device=default_device):
        vlen = checked_elements_per_item("complex_to_mag_cupy", "vlen", vlen, 8)
        sync_block.__init__(
            self,
            "complex_to_mag_cupy",
            [item_type(numpy.complex64, vlen)],
            [item_type(numpy.float32, vlen)],
            device=device,
        )

    def work(self, input_items, output_items):
        self.xp.abs(input_items[0], out=output_items[0])
        return len(output_items[0])
