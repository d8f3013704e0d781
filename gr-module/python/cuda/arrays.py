#
# SPDX-License-Identifier: GPL-3.0-or-later
#
"""Arrays over buffer memory for Python GPU blocks, without copies.

GNU Radio hands a Python block raw addresses of its ports' memory. On the GPU these are
device addresses, which NumPy must never touch: they become CuPy arrays here (or any
library's arrays through __cuda_array_interface__). On the simulated backend the "device"
is host memory and they become NumPy arrays, so the same block code runs in CI.

array_module() decides once per process which of the two the blocks get; array_cache keeps
the arrays of a block's port from call to call.
"""

import ctypes
import functools

import numpy

from .cuda_python import default_device, device_ordinal, simulated


@functools.cache
def array_module():
    """cupy on a GPU, numpy on the simulated backend: the module blocks compute with."""
    if simulated():
        return numpy
    try:
        import cupy
    except ImportError as error:
        raise ImportError(
            "gnuradio.cuda Python blocks need CuPy on a GPU machine, and it is not installed "
            f"({error}). Install the wheel that matches your CUDA version, e.g. "
            "`pip install cupy-cuda13x` (CUDA 13) or `pip install cupy-cuda12x` (CUDA 12); "
            "set GRCUDA_BACKEND=simulated to run on the CPU instead."
        ) from error
    return cupy


def device_array(address, dtype, nitems, device=default_device):
    """The array of \\p nitems items of \\p dtype at \\p address in the memory of \\p device
    (a CUDA ordinal, or default_device).

    A dtype with a shape (a vector item, such as numpy.dtype((numpy.float32, 4))) gives an
    array of shape (nitems, 4). The array does not own the memory: it is valid for the
    work() call that received it.
    """
    dtype = numpy.dtype(dtype)
    shape = (nitems,) + dtype.shape
    nbytes = nitems * dtype.itemsize
    xp = array_module()
    if nbytes == 0:
        return xp.empty(shape, dtype.base)
    if xp is numpy:
        memory = (ctypes.c_char * nbytes).from_address(address)
        return numpy.frombuffer(memory, dtype.base).reshape(shape)
    memory = xp.cuda.UnownedMemory(address, nbytes, owner=None, device_id=device_ordinal(device))
    return xp.ndarray(shape, dtype.base, xp.cuda.MemoryPointer(memory, 0))


class array_cache:
    """device_array()s over one port's memory, of one dtype, kept from call to call.

    A call gets the same array object as an earlier call with the same address and length:
    GNU Radio's calls start at addresses in the port's ring, which recur from call to call,
    and building a CuPy array costs microseconds where the lookup costs a fraction of one.
    An array is only an address, a length and a dtype (it owns nothing), so a kept one
    equals a new one for the same key, whatever buffer holds that memory by then. At most
    \\p size arrays are kept; a new one replaces the oldest. \\p device: the CUDA ordinal of the
    memory's device.
    """

    def __init__(self, dtype, size=256, device=default_device):
        self.dtype = numpy.dtype(dtype)
        self._size = size
        self._device = device_ordinal(device)
        self._arrays = {}

    def __call__(self, address, nitems):
        """The array of \\p nitems items at \\p address."""
        key = (address, nitems)
        array = self._arrays.get(key)
        if array is None:
            if len(self._arrays) >= self._size:
                del self._arrays[next(iter(self._arrays))]
            array = self._arrays[key] = device_array(address, self.dtype, nitems, self._device)
        return array


def as_cupy(array):
    """A CuPy view of \\p array, which must be in GPU memory; no copy.

    Accepts CuPy arrays (returned as they are), any object with __cuda_array_interface__
    (PyTorch CUDA tensors, Numba device arrays), and NumPy arrays whose data pointer is a
    device address, as GNU Radio's own gr.sync_block hands out for ports in GPU memory. On
    the simulated backend it returns the NumPy array itself.
    """
    if array_module() is numpy:
        # The simulated backend's device memory is host memory: NumPy is its array library.
        if not isinstance(array, numpy.ndarray):
            raise TypeError(f"as_cupy: expected an array of a GPU port, got {type(array).__name__}")
        return array
    import cupy

    if isinstance(array, cupy.ndarray):
        return array
    if hasattr(array, "__cuda_array_interface__"):
        return cupy.asarray(array)
    if not isinstance(array, numpy.ndarray):
        raise TypeError(f"as_cupy: expected an array in GPU memory, got {type(array).__name__}")
    address = array.__array_interface__["data"][0]
    kind = cupy.cuda.runtime.pointerGetAttributes(address).type
    if kind not in (cupy.cuda.runtime.memoryTypeDevice, cupy.cuda.runtime.memoryTypeManaged):
        raise ValueError(
            "as_cupy: this NumPy array is in host memory, not GPU memory; use cupy.asarray() to copy it to the GPU"
        )
    memory = cupy.cuda.UnownedMemory(address, array.nbytes, owner=array)
    return cupy.ndarray(array.shape, array.dtype, cupy.cuda.MemoryPointer(memory, 0), strides=array.strides)
