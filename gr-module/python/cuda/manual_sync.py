#
# SPDX-License-Identifier: GPL-3.0-or-later
#
"""The reference gr-cuda module's manual-synchronisation API, for blocks that manage their
own CuPy stream (docs/PORTING.md).

Blocks written against it are GNU Radio's own gr.sync_block or gr.basic_block subclasses
whose ports are cuda_buffers (io_signature_make) and whose work() enqueues CuPy work on a
stream of their own between cuda.wait_for_inputs() and cuda.mark_outputs_ready() (or
wait_for_work() and mark_work_done()). GNU Radio's gateway gives the buffers no hook around
such a work(), so the block is a host-synchronous party of its buffers: the helpers wait on
the host, wait_for_inputs() for the posts of the items offered on its inputs and
mark_outputs_ready() for its stream, after which its outputs are visible to readers.

On this module's own Python blocks (cuda.sync_block and the others) the buffers already
order the block's stream, so with that stream (self.stream.ptr) the helpers do nothing; with
another stream they wait on the host as above. cuda.sync_block is the fast path: its work()
runs on the block's stream and no call waits on the host.
"""

from gnuradio import analog
from gnuradio.gr import gr_python

from . import cuda_python
from .arrays import array_module
from .python_blocks import io_signature

# The reference module exports analog's waveform and noise constants as its own.
GR_CONST_WAVE = analog.GR_CONST_WAVE
GR_SIN_WAVE = analog.GR_SIN_WAVE
GR_COS_WAVE = analog.GR_COS_WAVE
GR_SQR_WAVE = analog.GR_SQR_WAVE
GR_TRI_WAVE = analog.GR_TRI_WAVE
GR_SAW_WAVE = analog.GR_SAW_WAVE
GR_UNIFORM = analog.GR_UNIFORM
GR_GAUSSIAN = analog.GR_GAUSSIAN
GR_LAPLACIAN = analog.GR_LAPLACIAN
GR_IMPULSE = analog.GR_IMPULSE


class cuda_buffer:
    """The reference module's name for the buffer type: cuda.cuda_buffer.type is
    cuda.cuda_buffer_type, for gr.io_signature(..., [cuda.cuda_buffer.type])."""

    type = cuda_python.cuda_buffer_type


def io_signature_make(min_ports, max_ports, dtype):
    """A gr.py_io_signature whose ports are cuda_buffers, as the reference's
    io_signature_make: \\p dtype is one numpy type (or a (type, vlen) pair) for every port,
    or a list of them, one per port (the last repeating)."""
    types = list(dtype) if isinstance(dtype, list) else [dtype]
    return io_signature(min_ports, max_ports, types)


def _gateway(block, helper):
    """The C++ block the helpers take: \\p block itself, or a Python block's gateway (the
    reference's examples pass self.gateway; passing self means the same)."""
    # gr.basic_block is GNU Radio's Python block base; its C++ block class is gr_python.block.
    if isinstance(block, gr_python.block):
        return block
    gateway = getattr(block, "gateway", None)
    if isinstance(gateway, gr_python.block):
        return gateway
    raise TypeError(
        f"cuda.{helper}: expected a GNU Radio block (a Python block, or its .gateway), got "
        f"{type(block).__name__}; call it from work() as cuda.{helper}(self.gateway, stream)"
    )


def _own_stream(block):
    """The stream of one of this module's Python blocks (its gateway), None for others."""
    if isinstance(block, cuda_python.python_gateway):
        return block.context().stream_handle()
    return None


def _stream_pointer(stream):
    """A stream given as an integer CUstream or as a stream object (CuPy's has .ptr)."""
    return int(getattr(stream, "ptr", stream))


def _waits_needed(block, stream):
    own = _own_stream(block)
    return own is None or own != _stream_pointer(stream)


def wait_for_inputs(block, stream):
    """Waits until the items offered on every GPU input of \\p block (a Python block's
    gateway) are written, before work on \\p stream reads them."""
    block = _gateway(block, "wait_for_inputs")
    if _waits_needed(block, stream):
        cuda_python._wait_for_inputs(block, _stream_pointer(stream))


def mark_outputs_ready(block, stream):
    """Waits for the work enqueued on \\p stream: after it the outputs of \\p block are
    visible to every reader, and its reads of its inputs are done."""
    block = _gateway(block, "mark_outputs_ready")
    if _waits_needed(block, stream):
        cuda_python._mark_outputs_ready(block, _stream_pointer(stream))


def wait_for_work(block, stream):
    """As wait_for_inputs(): the space the outputs will use is free once GNU Radio offers
    it, as the buffers wait for earlier readers themselves."""
    block = _gateway(block, "wait_for_work")
    if _waits_needed(block, stream):
        cuda_python._wait_for_work(block, _stream_pointer(stream))


def mark_work_done(block, stream):
    """As mark_outputs_ready()."""
    block = _gateway(block, "mark_work_done")
    if _waits_needed(block, stream):
        cuda_python._mark_work_done(block, _stream_pointer(stream))


def register_cuda_stream(block, stream):
    """Tells the buffers which stream \\p block's work runs on. This module's Python blocks
    register their own stream at start(), so this accepts only that one; GNU Radio's
    gr.sync_block gives gr-cuda no hook after work(), so its blocks synchronise with
    wait_for_work()/mark_work_done() instead."""
    own = _own_stream(_gateway(block, "register_cuda_stream"))
    if own is None:
        raise ValueError(
            "cuda.register_cuda_stream: the block is a GNU Radio gr.* block, whose work() "
            "gr-cuda cannot follow on GNU Radio 3.10: derive it from cuda.sync_block (or "
            "cuda.basic_block, decim_block, interp_block), whose work() runs on the block's "
            "stream, or call cuda.wait_for_work(self.gateway, stream) at the start of work() "
            "and cuda.mark_work_done(self.gateway, stream) before it returns"
        )
    if own != _stream_pointer(stream):
        raise ValueError(
            "cuda.register_cuda_stream: this module's Python blocks run work() on their own "
            "stream, self.stream: enqueue the work there (CuPy does, as it is the current "
            "stream in work()) and drop the call"
        )


class _simulated_stream:
    """new_stream() on the simulated backend: no CUDA stream (ptr 0); work there is done
    when it is enqueued."""

    ptr = 0

    def __enter__(self):
        return self

    def __exit__(self, *exception):
        return False

    def synchronize(self):
        pass


def new_stream():
    """A stream for a block that manages its own: cupy.cuda.Stream(non_blocking=True) on a
    GPU, a stand-in with ptr 0 on the simulated backend (NumPy work is done at once)."""
    xp = array_module()
    if xp.__name__ == "numpy":
        return _simulated_stream()
    return xp.cuda.Stream(non_blocking=True)
