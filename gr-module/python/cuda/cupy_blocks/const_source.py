#
# SPDX-License-Identifier: GPL-3.0-or-later
#
"""const_source_cupy: analog's constant source as a Python GPU block."""

import numpy

from ..cuda_python import default_device
from ..python_blocks import sync_block
from .support import checked_dtype, checked_scalar


class const_source_cupy(sync_block):
    """Every output item equals const, like analog's constant source.

    device: the GPU the block runs on (a CUDA ordinal), or default_device (-1).
    """

    SUPPORTED = (numpy.complex64, numpy.float32, numpy.int32, numpy.int16, numpy.int8)

    def __init__(self, const=0, dtype=numpy.complex64, device=default_device):
        dtype = checked_dtype("const_source_cupy", dtype, self.SUPPORTED)
        value = checked_scalar("const_source_cupy", "const", const, dtype)
        sync_block.__init__(self, "const_source_cupy", None, [dtype], device=device)
        self._dtype = dtype
        self._const = value

    def const(self):
        return self._const.item()

    def set_const(self, const):
        self._const = checked_scalar("const_source_cupy", "const", const, self._dtype)

    def work(self, input_items, output_items):
        output_items[0].fill(self._const)
        return len(output_items[0])
