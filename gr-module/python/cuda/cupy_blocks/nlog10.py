#
# SPDX-License-Identifier: GPL-3.0-or-later
#
"""nlog10_cupy: blocks.nlog10_ff as a Python GPU block."""

import numpy

from ..cuda_python import default_device
from ..python_blocks import sync_block
from .support import checked_elements_per_item, checked_scalar, item_type


class nlog10_cupy(sync_block):
    """n * log10(input) + k, like blocks.nlog10_ff: inputs are first clamped to the finite
    positive float32 range, so 0 and negative inputs give n * log10(FLT_MIN) + k (about
    -379.3 for n = 10 and k = 0, as in GNU Radio) and infinity n * log10(FLT_MAX) + k.

    device: the GPU the block runs on (a CUDA ordinal), or default_device (-1).
    """

    def __init__(self, n=1.0, vlen=1, k=0.0, device=default_device):
        vlen = checked_elements_per_item("nlog10_cupy", "vlen", vlen, 4)
        n = checked_scalar("nlog10_cupy", "n", n, numpy.dtype(numpy.float32))
        k = checked_scalar("nlog10_cupy", "k", k, numpy.dtype(numpy.float32))
        item = item_type(numpy.float32, vlen)
        sync_block.__init__(self, "nlog10_cupy", [item], [item], device=device)
        self._n = n
        self._k = k
        info = numpy.finfo(numpy.float32)
        self._smallest, self._largest = info.tiny, info.max

    def work(self, input_items, output_items):
        xp, out = self.xp, output_items[0]
        xp.clip(input_items[0], self._smallest, self._largest, out=out)
        xp.log10(out, out=out)
        if self._n != 1:
            xp.multiply(out, self._n, out=out)
        if self._k != 0:
            xp.add(out, self._k, out=out)
        return len(out)
