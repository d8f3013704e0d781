#
# SPDX-License-Identifier: GPL-3.0-or-later
#
"""GPU blocks for GNU Radio: buffers in GPU memory, copies and synchronisation done for you.

Blocks from this package exchange data in GPU memory; next to CPU blocks, GNU Radio moves
the data between host and GPU automatically. Without a GPU the same blocks run on libgrcuda's
simulated backend (host memory, CPU kernels); cuda.simulated() says which.
"""

from .cuda_python import *  # noqa: F401,F403  (the C++ blocks and cuda_buffer_type)
from .arrays import array_module, as_cupy, device_array  # noqa: F401
from .python_blocks import basic_block, decim_block, interp_block, io_signature, sync_block  # noqa: F401
from .cupy_blocks import (
    add_cupy,
    complex_to_mag_cupy,
    complex_to_mag_squared_cupy,
    const_source_cupy,
    fft_cupy,
    multiply_const_cupy,
    nlog10_cupy,
    noise_source_cupy,
    random_uniform_source_cupy,
    repeat_cupy,
    sig_source_cupy,
    vector_source_cupy,
)
