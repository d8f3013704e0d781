#
# SPDX-License-Identifier: GPL-3.0-or-later
#
"""multiply_const_cupy: blocks.multiply_const_cc/ff/ii/ss as a Python GPU block."""

import numpy

from ..cuda_python import default_device
from ..python_blocks import sync_block
from .support import checked_dtype, checked_elements_per_item, checked_scalar, item_type


class multiply_const_cupy(sync_block):
    """output = input * k, like blocks.multiply_const_cc/ff/ii/ss (integers wrap around).

    device: the GPU the block runs on (a CUDA ordinal), or default_device (-1).
    """

    SUPPORTED = (numpy.complex64, numpy.float32, numpy.int32, numpy.int16)

    def __init__(self, k, dtype=numpy.complex64, vlen=1, device=default_device):
        dtype = checked_dtype("multiply_const_cupy", dtype, self.SUPPORTED)
        vlen = checked_elements_per_item("multiply_const_cupy", "vlen", vlen, dtype.itemsize)
        k = checked_scalar("multiply_const_cupy", "k", k, dtype)
        item = item_type(dtype, vlen)
        sync_block.__init__(self, "multiply_const_cupy", [item], [item], device=device)
        self._dtype = dtype
        self._k = k

    def k(self):
        return self._k.item()

    def set_k(self, k):
        self._k = checked_scalar("multiply_const_cupy", "k", k, self._dtype)

    def work(self, input_items, output_items):
        self.xp.multiply(input_items[0], self._k, out=output_items[0])
        return len(output_items[0])
