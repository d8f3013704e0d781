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
from .logpwrfft import logpwrfft_c, logpwrfft_f  # noqa: F401
from .python_blocks import basic_block, decim_block, interp_block, io_signature, sync_block  # noqa: F401
from .manual_sync import (  # noqa: F401  (the reference module's manual-synchronisation API)
    GR_CONST_WAVE,
    GR_COS_WAVE,
    GR_GAUSSIAN,
    GR_IMPULSE,
    GR_LAPLACIAN,
    GR_SAW_WAVE,
    GR_SIN_WAVE,
    GR_SQR_WAVE,
    GR_TRI_WAVE,
    GR_UNIFORM,
    cuda_buffer,
    io_signature_make,
    mark_outputs_ready,
    mark_work_done,
    new_stream,
    register_cuda_stream,
    wait_for_inputs,
    wait_for_work,
)
from .cupy_blocks import (
    add_cupy,
    add_py,
    complex_to_mag_cupy,
    complex_to_mag_squared_cupy,
    const_source_cupy,
    fft_cupy,
    multiply_const_cupy,
    multiply_const_py,
    nlog10_cupy,
    noise_source_cupy,
    random_uniform_source_cupy,
    repeat_cupy,
    sig_source_cupy,
    vector_source_cupy,
)
