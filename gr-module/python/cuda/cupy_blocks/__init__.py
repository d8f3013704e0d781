#
# SPDX-License-Identifier: GPL-3.0-or-later
#
"""The CuPy block library: GNU Radio CPU blocks as Python GPU blocks, one module per block.

Each block is a cuda.sync_block (repeat_cupy a cuda.basic_block) written against self.xp
(CuPy on a GPU, NumPy on the simulated backend), with the names, arguments, setters, tags and
message ports of its CPU counterpart. The blocks write into their output buffers with out=
arguments, so a work() call allocates nothing on the device. The random sources cannot
reproduce GNU Radio's generator bit for bit; they draw the same distributions, and a non-zero
seed gives the same output on every run.

support.py holds what the blocks share: argument checks whose errors name the block and what
it accepts, and device memory kept across work() calls; random_draws.py the random sources'
generator. gnuradio.cuda exports every block (cuda.multiply_const_cupy, ...). multiply_const_py
and add_py are the reference module's blocks in its manual-synchronisation style: GNU Radio
gr.sync_blocks with their own stream (manual_sync.py).
"""

from .add import add_cupy
from .add_py import add_py
from .complex_to_mag import complex_to_mag_cupy
from .complex_to_mag_squared import complex_to_mag_squared_cupy
from .const_source import const_source_cupy
from .fft import fft_cupy
from .multiply_const import multiply_const_cupy
from .multiply_const_py import multiply_const_py
from .nlog10 import nlog10_cupy
from .noise_source import noise_source_cupy
from .random_uniform_source import random_uniform_source_cupy
from .repeat import repeat_cupy
from .sig_source import sig_source_cupy
from .vector_source import vector_source_cupy

__all__ = [
    "add_cupy",
    "complex_to_mag_cupy",
    "complex_to_mag_squared_cupy",
    "const_source_cupy",
    "fft_cupy",
    "multiply_const_cupy",
    "nlog10_cupy",
    "noise_source_cupy",
    "random_uniform_source_cupy",
    "repeat_cupy",
    "sig_source_cupy",
    "vector_source_cupy",
]
