#
# SPDX-License-Identifier: GPL-3.0-or-later
#
"""Python GPU blocks: cuda.sync_block, decim_block, interp_block and basic_block.

Each is its gr. counterpart with every port in a cuda_buffer. work() and general_work()
receive device arrays (CuPy on a GPU, NumPy on the simulated backend; self.xp is that
module) and run with the block's own non-blocking CUDA stream current, so that every CuPy
call in them is ordered by the buffers' events: no copies, no synchronisation code.

Who does what, per work() call (the block's GNU Radio thread, holding the GIL):
1. handle_general_work(), which GNU Radio's block gateway calls, wraps the port addresses
   in device arrays and runs the user's work() with the stream current.
2. produce(), consume() and consume_each() called inside general_work() are recorded and
   applied after it returns. GNU Radio publishes produced items to readers at produce(),
   and the buffer orders readers after the GPU work enqueued by then: applied later, the
   items cover all the work of the call. nitems_written() and nitems_read() count the
   recorded calls, so the block sees its own produce() and consume() at once. Counts are
   checked as they are recorded: a port that does not exist, a count that is negative, not
   a whole number, or over what the call was given raises, before GNU Radio sees it.
3. Before items are consumed, the buffer learns that the work reading them is enqueued
   (block_context.report_consumed), so a writer upstream never overwrites them early.
4. An exception in work() or forecast() is logged with its traceback through the block's
   logger and ends the block (WORK_DONE), which ends the flowgraph instead of leaving it
   hanging; the exception stays in the block's `error` attribute.

start() registers the stream with the port buffers (again on every start, since GNU Radio
may give a restarted flowgraph new buffers), also when a subclass overrides start()
without calling this class's; stop() waits for the stream.
"""

import contextlib
import functools
import operator
import threading
import traceback

import numpy
from gnuradio import gr

from .arrays import array_module, capsule_address, device_array
from .cuda_python import block_context, cuda_buffer_type, hold_python_thread_state, release_python_thread_state

_WORK_DONE = int(gr.WORK_DONE)
_WORK_CALLED_PRODUCE = int(gr.WORK_CALLED_PRODUCE)


def io_signature(min_ports, max_ports, types):
    """A gr.py_io_signature whose ports are cuda_buffers.

    \\p types holds numpy dtypes or (dtype, vlen) tuples; when more ports are connected
    than types given, the last type repeats, as with gr.py_io_signature.
    """
    types = [numpy.dtype(t) for t in types]
    signature = gr.py_io_signature(min_ports, max_ports, types)
    sizes = [t.itemsize for t in types] or [0]
    # GNU Radio's gateway accepts only this exact class, and 3.10 has no argument for a
    # buffer type, so the instance gets its own gr_io_signature().
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
    this module's version through super()."""

    def wrap(method):
        @functools.wraps(method)
        def wrapper(self):
            self._gpu_finished[name] = False
            result = method(self)
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


class gpu_block:
    """The GPU half of the Python blocks below; comes first in their base classes."""

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        for name, finish in (("start", gpu_block._attach), ("stop", gpu_block._synchronize)):
            method = cls.__dict__.get(name)
            if method is not None and not getattr(method, "_gpu_wrapped", False):
                setattr(cls, name, _after_user_method(name, finish)(method))

    def __init__(self, name, in_sig, out_sig, *args, **kwargs):
        # Before the gateway exists: its __getattr__ would otherwise be asked for these.
        self.xp = array_module()
        self.error = None
        self._gpu_finished = {}
        self._gpu_recorded = None
        self._gpu_consumed = []
        self._gpu_produced = []
        self._gpu_available = []  # per input: the items this call was given
        self._gpu_room = []  # per output: the items this call has room for
        self._context = block_context()
        self._thread_state_holder = None  # the thread that holds its Python thread state
        super().__init__(name, _signature(in_sig), _signature(out_sig), *args, **kwargs)
        self._general = self._block_type == gr.GW_BLOCK_GENERAL
        self._port_types = {}  # (ninputs, noutputs) -> their dtypes, for work() calls
        self._stream = None
        if self.xp is not numpy:
            self._stream = self.xp.cuda.ExternalStream(self._context.stream_handle())

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
        self._synchronize()
        return super().stop()

    def _attach(self):
        self._context.attach(self.gateway)
        if self._thread_state_holder is None:
            hold_python_thread_state()
            self._thread_state_holder = threading.get_ident()
        self._gpu_finished["start"] = True

    def _synchronize(self):
        self._context.synchronize()
        if self._thread_state_holder == threading.get_ident():
            release_python_thread_state()
            self._thread_state_holder = None
        self._gpu_finished["stop"] = True

    # produce/consume: recorded inside general_work(), applied after it (see the module).

    def produce(self, which_output, how_many_items):
        if self._gpu_recorded is None:
            return self._apply_produce(which_output, how_many_items)
        how_many_items = self._checked_count(
            "produce", which_output, how_many_items, self._gpu_produced, self._gpu_room
        )
        self._gpu_recorded.append((self._apply_produce, which_output, how_many_items))
        self._gpu_produced[which_output] += how_many_items

    def consume(self, which_input, how_many_items):
        if self._gpu_recorded is None:
            return self._apply_consume(which_input, how_many_items)
        how_many_items = self._checked_count(
            "consume", which_input, how_many_items, self._gpu_consumed, self._gpu_available
        )
        self._gpu_recorded.append((self._apply_consume, which_input, how_many_items))
        self._gpu_consumed[which_input] += how_many_items

    def consume_each(self, how_many_items):
        if self._gpu_recorded is None:
            raise RuntimeError(f"{self.name()}: consume_each() is only valid inside general_work()")
        for port in range(len(self._gpu_consumed)):
            self.consume(port, how_many_items)

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

    def _apply_produce(self, which_output, how_many_items):
        self.gateway.produce(which_output, how_many_items)

    def _apply_consume(self, which_input, how_many_items):
        if how_many_items > 0:
            self._context.report_consumed(which_input, how_many_items)
        self.gateway.consume(which_input, how_many_items)

    def _consume_fixed_rate(self, nitems, ninputs):
        """What a sync, decimating or interpolating block consumes after work()."""
        if nitems > 0:
            consumed = nitems * self._decim // self._interp
            for port in range(ninputs):
                self._apply_consume(port, consumed)

    def handle_forecast(self, noutput_items, ninputs):
        """Called by GNU Radio's block gateway (C++) before each work() call."""
        try:
            return super().handle_forecast(noutput_items, ninputs)
        except Exception as error:  # noqa: BLE001 - any failure of user code ends the block
            self._fail(error, "forecast()")
            # No input needed: the scheduler then calls work(), which ends the block.
            return [0] * ninputs

    def handle_general_work(self, noutput_items, ninput_items, input_items, output_items):
        """Called by GNU Radio's block gateway (C++) for every work() call."""
        if self.error is not None:
            return _WORK_DONE
        try:
            return self._run_work(noutput_items, ninput_items, input_items, output_items)
        except Exception as error:  # noqa: BLE001 - any failure of user code ends the block
            self._fail(error, "work()")
            return _WORK_DONE

    def _fail(self, error, where):
        self.error = error
        self.gateway.logger.error(f"{where} raised; ending the flowgraph:\n{traceback.format_exc()}")

    def _run_work(self, noutput_items, ninput_items, input_items, output_items):
        general = self._general
        ninputs, noutputs = len(input_items), len(output_items)
        port_types = self._port_types.get((ninputs, noutputs))
        if port_types is None:
            port_types = (self.in_sig().port_types(ninputs), self.out_sig().port_types(noutputs))
            self._port_types[(ninputs, noutputs)] = port_types
        in_types, out_types = port_types
        if general:
            in_lengths = ninput_items
        else:
            in_lengths = [self.fixed_rate_noutput_to_ninput(noutput_items)] * ninputs
        inputs = [device_array(capsule_address(input_items[i]), in_types[i], in_lengths[i]) for i in range(ninputs)]
        outputs = [device_array(capsule_address(output_items[i]), out_types[i], noutput_items) for i in range(noutputs)]

        self._gpu_consumed = [0] * ninputs
        self._gpu_produced = [0] * noutputs
        self._gpu_available = in_lengths
        self._gpu_room = [noutput_items] * noutputs
        self._gpu_recorded = [] if general else None
        try:
            with self._stream if self._stream is not None else contextlib.nullcontext():
                if general:
                    result = self.general_work(inputs, outputs)
                else:
                    result = self.work(inputs, outputs)
        finally:
            recorded, self._gpu_recorded = self._gpu_recorded, None

        result = self._checked_result(result, noutput_items, general)
        if general and result > 0:
            # GNU Radio adds a returned count to every output, after what produce() made.
            for port, produced in enumerate(self._gpu_produced):
                if produced + result > noutput_items:
                    raise ValueError(
                        f"{self.name()}: general_work() called produce({port}, ...) for "
                        f"{produced} items and returned {result}, {produced + result} in all, "
                        f"but there is room for {noutput_items}; after produce(), return "
                        "WORK_CALLED_PRODUCE"
                    )
        if general:
            for apply, port, nitems in recorded:
                apply(port, nitems)
        else:
            self._consume_fixed_rate(result, ninputs)
        return result

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
        return result


class sync_block(gpu_block, gr.sync_block):
    """gr.sync_block on the GPU: `work(input_items, output_items)` gets device arrays."""


class decim_block(gpu_block, gr.decim_block):
    """gr.decim_block on the GPU: `work()` gets len(output) * decim input items."""


class interp_block(gpu_block, gr.interp_block):
    """gr.interp_block on the GPU: `work()` gets len(output) / interp input items."""


class basic_block(gpu_block, gr.basic_block):
    """gr.basic_block on the GPU: `general_work()` gets device arrays and calls
    consume()/produce() as usual (applied after it returns; see the module)."""
