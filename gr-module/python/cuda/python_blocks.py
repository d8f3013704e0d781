#
# SPDX-License-Identifier: GPL-3.0-or-later
#
"""Python GPU blocks: cuda.sync_block, decim_block, interp_block and basic_block.

Each is its gr. counterpart with every port in a cuda_buffer. work() and general_work()
receive device arrays (CuPy on a GPU, NumPy on the simulated backend; self.xp is that
module) and run with the block's own non-blocking CUDA stream current, so that every CuPy
call in them is ordered by the buffers' events: no copies, no synchronisation code.

The classes derive from gr.sync_block, gr.decim_block, gr.interp_block and gr.basic_block
(GRC finds Python blocks by that, and their methods are GNU Radio's), but the C++ block
GNU Radio's scheduler calls is this module's python_gateway
(bindings/python_gateway_python.cc), made here in place of GNU Radio's gateway, which
enters Python for every forecast() as well as for every call.

Who does what, per work() call (the block's GNU Radio thread):
1. The gateway (C++) answers the scheduler's forecast() without Python, with GNU Radio's
   arithmetic, unless the class defines its own forecast() (a basic_block usually does),
   which it asks through handle_forecast(). A sync, decimating or interpolating block is a
   fixed-rate block there, as in C++: the scheduler sizes each call to all the input there
   is, so a block that falls behind catches up in one call.
2. The gateway enters Python once, holding the GIL: handle_work() (sync, decimating and
   interpolating blocks) or handle_general_work() gets the port addresses as integers,
   makes them device arrays and runs the user's work() or general_work() with the stream
   current. The arrays are kept per port, address and length (arrays.array_cache): a call
   whose port starts where an earlier one's did, with as many items, gets the same array
   objects. So a work() must not change its arrays in place (their shape or dtype): take
   views, e.g. reshape().
3. The gateway consumes a sync, decimating or interpolating block's input after work()
   returns (what gr::sync_block, sync_decimator and sync_interpolator consume).
   produce(), consume() and consume_each() called inside general_work() are recorded and
   applied after it returns. GNU Radio publishes produced items to readers at produce(),
   and the buffer orders readers after the GPU work enqueued by then: applied later, the
   items cover all the work of the call. nitems_written() and nitems_read() count the
   recorded calls, so the block sees its own produce() and consume() at once. Counts are
   checked as they are recorded: a port that does not exist, a count that is negative, not
   a whole number, or over what the call was given raises, before GNU Radio sees it.
4. Before items are consumed, the buffer learns that the work reading them is enqueued
   (the gateway's consume() reports it), so a writer upstream never overwrites them early.
5. An exception in work(), forecast(), start(), stop() or a message handler (any
   BaseException: sys.exit() ended only the block's thread), or a result the scheduler
   cannot use (checked as work()'s and forecast()'s results are), is logged with its
   traceback through the block's logger and ends the block (WORK_DONE, at the next call
   after a message handler's), which ends the flowgraph instead of leaving it hanging; the
   exception stays in the block's `error` attribute.

Each block runs on one device, its constructor's `device` argument (a CUDA ordinal, or
default_device: [cuda] device / $GRCUDA_DEVICE): its stream, its output buffers and the
arrays over them are there, and the device is CuPy's current device in its work() calls (set
once on the block's thread). Arrays a block allocates outside work() (in __init__) go to
its device inside `with self.on_device():`.

start() registers the stream with the port buffers (again on every start, since GNU Radio
may give a restarted flowgraph new buffers), also when a subclass overrides start()
without calling this class's; stop() waits for the stream and lets go of the port buffers.
"""

import contextlib
import functools
import operator
import threading
import traceback

import numpy
from gnuradio import gr

from .arrays import array_cache, array_module
from .cuda_python import (
    cuda_buffer_type,
    default_device,
    hold_python_thread_state,
    python_gateway,
    release_python_thread_state,
)
from .lifetime import kept_alive

_WORK_DONE = int(gr.WORK_DONE)
_WORK_CALLED_PRODUCE = int(gr.WORK_CALLED_PRODUCE)
_INT_MAX = 2**31 - 1  # GNU Radio counts items in C++ ints
# GNU Radio's forecast()s, which the gateway answers in C++ (the same arithmetic).
_GNU_RADIO_FORECASTS = (gr.gateway.gateway_block.forecast, gr.decim_block.forecast, gr.interp_block.forecast)


def io_signature(min_ports, max_ports, types):
    """A gr.py_io_signature whose ports are cuda_buffers.

    \\p types holds numpy dtypes or (dtype, vlen) tuples; when more ports are connected
    than types given, the last type repeats, as with gr.py_io_signature.
    """
    types = [numpy.dtype(t) for t in types]
    for t in types:
        if t.hasobject:
            raise ValueError(f"io_signature: {t} holds Python objects, which device memory cannot; use a numeric dtype")
        if t.itemsize == 0:
            raise ValueError(f"io_signature: {t} has no size (a vlen of 0?); give each port a vlen of at least 1")
    signature = gr.py_io_signature(min_ports, max_ports, types)
    sizes = [t.itemsize for t in types] or [0]
    # gr.py_io_signature's gr_io_signature() gives no buffer type (3.10 has no argument for
    # one), so the instance gets its own, from which the gateway is made.
    signature.gr_io_signature = lambda: gr.io_signature.makev(
        min_ports, max_ports, sizes, [cuda_buffer_type] * len(sizes)
    )
    return signature


def _signature(sig):
    if isinstance(sig, gr.py_io_signature):
        if not callable(sig.__dict__.get("gr_io_signature")):
            raise TypeError(
                "a gr.py_io_signature puts ports in host memory; build it with "
                "cuda.io_signature(min, max, types) instead"
            )
        return sig
    sig = list(sig or ())
    return io_signature(len(sig), len(sig), sig)


def _after_user_method(name, finish):
    """Wraps a subclass's start()/stop() so that \\p finish runs even when it does not call
    this module's version through super(); after a stop() that raised too (the gateway
    ends the flowgraph), but not after a start() that raised."""

    def wrap(method):
        @functools.wraps(method)
        def wrapper(self):
            self._gpu_finished[name] = False
            try:
                result = method(self)
            except BaseException:
                if name == "stop" and not self._gpu_finished[name]:
                    finish(self)
                raise
            if not self._gpu_finished[name]:
                finish(self)
            return result

        wrapper._gpu_wrapped = True
        return wrapper

    return wrap


def _whole_number(value):
    """\\p value as an int if it is a whole number (Python or NumPy integers, GNU Radio's
    work_return_t), else None: int() would turn 3.7 into 3 and "1000" into 1000."""
    if isinstance(value, bool):
        return None
    try:
        return operator.index(value)
    except TypeError:
        return None


class gpu_block(kept_alive):
    """The GPU half of the Python blocks below; comes first in their base classes."""

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        for name, finish in (("start", gpu_block._attach), ("stop", gpu_block._detach)):
            method = cls.__dict__.get(name)
            if method is not None and not getattr(method, "_gpu_wrapped", False):
                setattr(cls, name, _after_user_method(name, finish)(method))

    def __init__(self, name, in_sig, out_sig, fixed_rate, decim=1, interp=1, device=default_device):
        """What gr.gateway.gateway_block.__init__ does, with this module's gateway, on
        \\p device."""
        # Before the gateway exists: its __getattr__ would otherwise be asked for these.
        self.xp = array_module()
        self.error = None
        self._gpu_finished = {}
        self._gpu_recorded = None
        self._gpu_consumed = []
        self._gpu_produced = []
        self._gpu_available = []  # per input: the items this call was given
        self._gpu_room = []  # per output: the items this call has room for
        self._input_arrays = []  # per input: its array_cache, made at start()
        self._output_arrays = []
        self._thread_state_holder = None  # the thread that holds its Python thread state
        self._device_thread = None  # the thread whose current device is the block's
        self._in_sig, self._out_sig = _signature(in_sig), _signature(out_sig)
        self._decim, self._interp = decim, interp
        self.gateway = python_gateway(
            self,
            name,
            self._in_sig.gr_io_signature(),
            self._out_sig.gr_io_signature(),
            fixed_rate=fixed_rate,
            decim=decim,
            interp=interp,
            python_forecast=type(self).forecast not in _GNU_RADIO_FORECASTS,
            device=device,
        )
        self.msg_handlers = {}
        self._context = self.gateway.context()
        self._device = self._context.device_ordinal()
        self._stream = None
        if self.xp is not numpy:
            self._stream = self.xp.cuda.ExternalStream(self._context.stream_handle(), device_id=self._device)
        self._stream_context = self._stream if self._stream is not None else contextlib.nullcontext()

    def __getattr__(self, name):
        """The gateway's (C++) methods, as gr.gateway_block passes them through; before
        __init__ made the gateway, a clear error (gr.gateway_block's own check recurses)."""
        gateway = self.__dict__.get("gateway")
        if gateway is None:
            raise AttributeError(
                f"{type(self).__name__}.{name}: the block is not made yet; call the base class's "
                f"__init__ (e.g. cuda.sync_block.__init__(self, ...)) first in {type(self).__name__}.__init__"
            )
        return getattr(gateway, name)

    def in_sig(self):
        return self._in_sig

    def out_sig(self):
        return self._out_sig

    @property
    def device(self):
        """The CUDA ordinal of the device the block runs on."""
        return self._device

    def on_device(self):
        """A context manager making the block's device CuPy's current device, for arrays
        the block allocates outside work(); does nothing on the simulated backend."""
        if self.xp is numpy:
            return contextlib.nullcontext()
        return self.xp.cuda.Device(self._device)

    def _use_device_on_this_thread(self):
        """Makes the block's device current on the calling thread (GNU Radio's thread for
        the block), once: CuPy allocates on the current device."""
        if self.xp is not numpy:
            self.xp.cuda.runtime.setDevice(self._device)
        self._device_thread = threading.get_ident()

    @property
    def stream(self):
        """The block's stream: a cupy.cuda.ExternalStream, None on the simulated backend."""
        return self._stream

    @property
    def stream_handle(self):
        """The block's stream as an integer CUstream, for PyTorch
        (torch.cuda.ExternalStream), Numba (numba.cuda.external_stream) or ctypes calls;
        0 on the simulated backend."""
        return self._context.stream_handle()

    def start(self):
        self._attach()
        return super().start()

    def stop(self):
        self._detach()
        return super().stop()

    def _attach(self):
        self._context.attach(self.gateway)
        # New array caches: a restarted flowgraph may have new buffers, or ports connected
        # differently.
        detail = self.gateway.detail()
        self._input_arrays = [array_cache(t, device=self._device) for t in self._in_sig.port_types(detail.ninputs())]
        self._output_arrays = [array_cache(t, device=self._device) for t in self._out_sig.port_types(detail.noutputs())]
        if self._thread_state_holder is None:
            hold_python_thread_state()
            self._thread_state_holder = threading.get_ident()
        self._gpu_finished["start"] = True

    def _detach(self):
        self._context.detach()
        if self._thread_state_holder == threading.get_ident():
            release_python_thread_state()
            self._thread_state_holder = None
        self._gpu_finished["stop"] = True

    # produce/consume: recorded inside general_work(), applied after it (see the module).

    def produce(self, which_output, how_many_items):
        if self._gpu_recorded is None:
            raise RuntimeError(self._outside_general_work("produce"))
        how_many_items = self._checked_count(
            "produce", which_output, how_many_items, self._gpu_produced, self._gpu_room
        )
        self._gpu_recorded.append((self.gateway.produce, which_output, how_many_items))
        self._gpu_produced[which_output] += how_many_items

    def consume(self, which_input, how_many_items):
        if self._gpu_recorded is None:
            raise RuntimeError(self._outside_general_work("consume"))
        how_many_items = self._checked_count(
            "consume", which_input, how_many_items, self._gpu_consumed, self._gpu_available
        )
        self._gpu_recorded.append((self.gateway.consume, which_input, how_many_items))
        self._gpu_consumed[which_input] += how_many_items

    def consume_each(self, how_many_items):
        if self._gpu_recorded is None:
            raise RuntimeError(self._outside_general_work("consume_each"))
        for port in range(len(self._gpu_consumed)):
            self.consume(port, how_many_items)

    def _outside_general_work(self, method):
        # GNU Radio's own gateway passes these on from anywhere: in a sync block's work()
        # the input is then consumed twice (the flowgraph hangs or reads garbage), and a
        # port that does not exist crashes the process.
        return (
            f"{self.name()}: {method}() is only valid inside a cuda.basic_block's "
            "general_work(); a sync, decimating or interpolating block's work() returns how "
            "many items it made, and its input is consumed for it"
        )

    def _checked_count(self, method, port, how_many_items, counted, limits):
        """Refuses, before GNU Radio sees it, a produce() or consume() that would hand
        readers items never written or free items never read: a port that does not exist,
        a count that is not a whole number of items or is negative, or a total over what
        this call has room for (\\p limits: the output room or the input items available)."""
        kind = "output" if method == "produce" else "input"
        if _whole_number(port) is None or not 0 <= port < len(counted):
            raise IndexError(
                f"{self.name()}: {method}({port!r}, ...) names no {kind} port; "
                f"the block has {len(counted)} {kind} port(s) in this call"
            )
        count = _whole_number(how_many_items)
        if count is None:
            raise TypeError(
                f"{self.name()}: {method}({port}, {how_many_items!r}): the count must be a whole number of items"
            )
        how_many_items = count
        if how_many_items < 0:
            raise ValueError(f"{self.name()}: {method}({port}, {how_many_items}): the count must not be negative")
        if counted[port] + how_many_items > limits[port]:
            what = "there is room for" if method == "produce" else "the call was given"
            raise ValueError(
                f"{self.name()}: {method}({port}, {how_many_items}) brings {kind} {port} to "
                f"{counted[port] + how_many_items} items in this call, but {what} "
                f"{limits[port]}; {method} at most len({kind}_items[{port}]) items in all"
            )
        return how_many_items

    def nitems_written(self, which_output):
        pending = self._gpu_produced[which_output] if self._gpu_recorded is not None else 0
        return self.gateway.nitems_written(which_output) + pending

    def nitems_read(self, which_input):
        pending = self._gpu_consumed[which_input] if self._gpu_recorded is not None else 0
        return self.gateway.nitems_read(which_input) + pending

    def handle_forecast(self, noutput_items, ninputs):
        """Called by the gateway (C++) before each work() call, where the class has its own
        forecast(). Its result is checked (_checked_forecast()): a bad one ends the block as
        an exception does."""
        if self.error is not None:
            return [0] * ninputs
        try:
            return self._checked_forecast(super().handle_forecast(noutput_items, ninputs), ninputs)
        except BaseException as error:  # noqa: BLE001 - any failure of user code ends the block
            self._fail(error, "forecast()")
            # No input needed: the scheduler then calls work(), which ends the block.
            return [0] * ninputs

    def handle_work(self, noutput_items, ninput_items, input_addresses, output_addresses):
        """Called by the gateway (C++) for every work() call of a sync, decimating or
        interpolating block: \\p ninput_items is what each input holds for the call. The
        gateway consumes the input after it returns."""
        if self.error is not None:
            return _WORK_DONE
        try:
            if self._device_thread != threading.get_ident():
                self._use_device_on_this_thread()
            inputs = [arrays(address, ninput_items) for arrays, address in zip(self._input_arrays, input_addresses)]
            outputs = [arrays(address, noutput_items) for arrays, address in zip(self._output_arrays, output_addresses)]
            with self._stream_context:
                result = self.work(inputs, outputs)
            if type(result) is int and 0 <= result <= noutput_items and result % self._interp == 0:
                return result
            return self._checked_result(result, noutput_items, False)
        except BaseException as error:  # noqa: BLE001 - any failure of user code ends the block
            self._fail(error, "work()")
            return _WORK_DONE

    def handle_general_work(self, noutput_items, ninput_items, input_addresses, output_addresses):
        """Called by the gateway (C++) for every general_work() call of a basic_block."""
        if self.error is not None:
            return _WORK_DONE
        try:
            return self._run_general_work(noutput_items, ninput_items, input_addresses, output_addresses)
        except BaseException as error:  # noqa: BLE001 - any failure of user code ends the block
            self._fail(error, "work()")
            return _WORK_DONE

    def handle_message(self, handler_name, message):
        """Called by the gateway (C++) for each message to a port with a handler
        (set_msg_handler()): an exception in the handler ends the block as one in work()
        does, where it would end only the message thread and leave the flowgraph running."""
        if self.error is not None:
            return
        try:
            getattr(self, handler_name)(message)
        except BaseException as error:  # noqa: BLE001 - any failure of user code ends the block
            self._fail(error, f"the message handler {handler_name}()")

    def _fail(self, error, where):
        """Keeps \\p error, raised by the user's \\p where, and logs it with its traceback;
        the caller ends the block. Also called by the gateway (C++) for start() and stop()."""
        self.error = error
        trace = "".join(traceback.format_exception(error))
        self.gateway.logger.error(f"{where} raised; ending the flowgraph:\n{trace}")

    def _run_general_work(self, noutput_items, ninput_items, input_addresses, output_addresses):
        if self._device_thread != threading.get_ident():
            self._use_device_on_this_thread()
        inputs = [
            arrays(address, nitems)
            for arrays, address, nitems in zip(self._input_arrays, input_addresses, ninput_items)
        ]
        outputs = [arrays(address, noutput_items) for arrays, address in zip(self._output_arrays, output_addresses)]
        self._gpu_consumed = [0] * len(inputs)
        self._gpu_produced = [0] * len(outputs)
        self._gpu_available = ninput_items
        self._gpu_room = [noutput_items] * len(outputs)
        self._gpu_recorded = []
        try:
            with self._stream_context:
                result = self.general_work(inputs, outputs)
        finally:
            recorded, self._gpu_recorded = self._gpu_recorded, None

        result = self._checked_result(result, noutput_items, True)
        if result > 0:
            # GNU Radio adds a returned count to every output, after what produce() made.
            for port, produced in enumerate(self._gpu_produced):
                if produced + result > noutput_items:
                    raise ValueError(
                        f"{self.name()}: general_work() called produce({port}, ...) for "
                        f"{produced} items and returned {result}, {produced + result} in all, "
                        f"but there is room for {noutput_items}; after produce(), return "
                        "WORK_CALLED_PRODUCE"
                    )
        for apply, port, nitems in recorded:
            apply(port, nitems)
        return result

    def _checked_forecast(self, result, ninputs):
        """forecast()'s result as the list of ints the gateway hands GNU Radio's scheduler:
        a sequence of one whole number of input items per input, from 0 to INT_MAX (not a
        bool, a float or a string). Anything else raises, naming what was returned."""
        expected = f"a list of {ninputs} whole number(s) of input items (one per input, 0 to {_INT_MAX})"
        values = None
        if not isinstance(result, (str, bytes, dict)):
            try:
                values = [_whole_number(value) for value in result]
            except TypeError:
                values = None
        if values is None or None in values:
            raise TypeError(f"{self.name()}: forecast() returned {result!r}; it must return {expected}")
        if len(values) != ninputs or not all(0 <= value <= _INT_MAX for value in values):
            raise ValueError(f"{self.name()}: forecast() returned {result!r}; it must return {expected}")
        return values

    def _checked_result(self, result, noutput_items, general):
        method = "general_work()" if general else "work()"
        returned, result = result, _whole_number(result)
        if result is None:
            raise TypeError(
                f"{self.name()}: {method} must return a number of items (an int), "
                f"WORK_DONE or WORK_CALLED_PRODUCE, got {returned!r}"
            )
        allowed = (_WORK_DONE, _WORK_CALLED_PRODUCE) if general else (_WORK_DONE,)
        if result > noutput_items:
            raise ValueError(
                f"{self.name()}: {method} returned {result} items but was given room for "
                f"{noutput_items}; return at most len(output_items[0])"
            )
        if result < 0 and result not in allowed:
            raise ValueError(
                f"{self.name()}: {method} returned {result}; return a number of items "
                f"(0 to {noutput_items}) or WORK_DONE" + (" or WORK_CALLED_PRODUCE" if general else "")
            )
        if not general and result > 0 and result % self._interp:
            # The gateway consumes result / interp input items: the rest would be lost.
            raise ValueError(
                f"{self.name()}: {method} returned {result} items, not a multiple of interp "
                f"{self._interp}; an interpolating block makes interp outputs per input item"
            )
        return result


class sync_block(gpu_block, gr.sync_block):
    """gr.sync_block on the GPU: `work(input_items, output_items)` gets device arrays."""

    def __init__(self, name, in_sig, out_sig, device=default_device):
        gpu_block.__init__(self, name, in_sig, out_sig, fixed_rate=True, device=device)


class decim_block(gpu_block, gr.decim_block):
    """gr.decim_block on the GPU: `work()` gets len(output) * decim input items."""

    def __init__(self, name, in_sig, out_sig, decim, device=default_device):
        gpu_block.__init__(self, name, in_sig, out_sig, fixed_rate=True, decim=decim, device=device)
        # As gr.decim_block.
        self.gateway.set_relative_rate(1, decim)
        self.gateway.set_output_multiple(1)


class interp_block(gpu_block, gr.interp_block):
    """gr.interp_block on the GPU: `work()` gets len(output) / interp input items."""

    def __init__(self, name, in_sig, out_sig, interp, device=default_device):
        gpu_block.__init__(self, name, in_sig, out_sig, fixed_rate=True, interp=interp, device=device)
        # As gr.interp_block.
        self.gateway.set_relative_rate(interp, 1)
        self.gateway.set_output_multiple(interp)


class basic_block(gpu_block, gr.basic_block):
    """gr.basic_block on the GPU: `general_work()` gets device arrays and calls
    consume()/produce() as usual (applied after it returns; see the module)."""

    def __init__(self, name, in_sig, out_sig, device=default_device):
        gpu_block.__init__(self, name, in_sig, out_sig, fixed_rate=False, device=device)
