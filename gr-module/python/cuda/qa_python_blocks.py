#!/usr/bin/env python3
#
# SPDX-License-Identifier: GPL-3.0-or-later
#
"""cuda.sync_block, decim_block, interp_block and basic_block: blocks written in a few lines
of array code (CuPy on the GPU, NumPy on the simulated backend) against NumPy references,
GNU Radio's CPU blocks and the C++ GPU blocks, on random data."""

import sys
from unittest import mock

import numpy as np
import pmt
from gnuradio import blocks, filter as gr_filter, gr, gr_unittest

from gnuradio import cuda
from qa_support import flowgraph_test


class scale(cuda.sync_block):
    def __init__(self, dtype, k, vlen=1):
        item = dtype if vlen == 1 else (dtype, vlen)
        cuda.sync_block.__init__(self, name="scale", in_sig=[item], out_sig=[item])
        self.k = k

    def work(self, input_items, output_items):
        output_items[0][:] = input_items[0] * self.k
        return len(output_items[0])


class adder(cuda.sync_block):
    def __init__(self, ninputs):
        cuda.sync_block.__init__(self, "adder", [np.float32] * ninputs, [np.float32])

    def work(self, input_items, output_items):
        output_items[0][:] = sum(input_items)
        return len(output_items[0])


class pair_sum(cuda.decim_block):
    def __init__(self):
        cuda.decim_block.__init__(self, name="pair_sum", in_sig=[np.float32], out_sig=[np.float32], decim=2)

    def work(self, input_items, output_items):
        n = len(output_items[0])
        output_items[0][:] = input_items[0][0 : 2 * n : 2] + input_items[0][1 : 2 * n : 2]
        return n


class repeat3(cuda.interp_block):
    def __init__(self):
        cuda.interp_block.__init__(self, name="repeat3", in_sig=[np.int16], out_sig=[np.int16], interp=3)

    def work(self, input_items, output_items):
        n = len(output_items[0]) // 3
        output_items[0][:] = self.xp.repeat(input_items[0][:n], 3)
        return 3 * n


class fir(cuda.sync_block):
    """A FIR filter through history: each output reads ntaps - 1 earlier inputs."""

    def __init__(self, taps):
        cuda.sync_block.__init__(self, "fir", [np.float32], [np.float32])
        self.taps = np.asarray(taps, np.float32)
        self.set_history(len(taps))

    def work(self, input_items, output_items):
        n = len(output_items[0])
        x = input_items[0]
        acc = self.xp.zeros(n, np.float32)
        # GNU Radio's FIR convention: y[i] = sum_k taps[k] * x[i + ntaps - 1 - k].
        for k, tap in enumerate(self.taps):
            acc += tap * x[len(self.taps) - 1 - k : len(self.taps) - 1 - k + n]
        output_items[0][:] = acc
        return n


class magnitude(cuda.sync_block):
    def __init__(self):
        cuda.sync_block.__init__(self, "magnitude", [np.complex64], [np.float32])

    def work(self, input_items, output_items):
        output_items[0][:] = self.xp.abs(input_items[0])
        return len(output_items[0])


class passthrough(cuda.basic_block):
    """general_work() copying what it can, consumed and produced explicitly."""

    def __init__(self):
        cuda.basic_block.__init__(self, "passthrough", [np.float32], [np.float32])

    def general_work(self, input_items, output_items):
        n = min(len(input_items[0]), len(output_items[0]))
        output_items[0][:n] = input_items[0][:n]
        self.consume(0, n)
        return n


class accumulate8(cuda.basic_block):
    """Sum of every 8 inputs (1:8), with a forecast."""

    def __init__(self):
        cuda.basic_block.__init__(self, "accumulate8", [np.float32], [np.float32])

    def forecast(self, noutput_items, ninputs):
        return [8 * noutput_items] * ninputs

    def general_work(self, input_items, output_items):
        n = min(len(input_items[0]) // 8, len(output_items[0]))
        output_items[0][:n] = input_items[0][: 8 * n].reshape(n, 8).sum(axis=1)
        self.consume_each(8 * n)
        return n


class produce_after_heavy_work(cuda.basic_block):
    """Calls produce() after a long chain of GPU work on the output, then enqueues more:
    readers must see the final values. Checks that nitems_written() counts the produce()."""

    def __init__(self, delay_rounds=20, decim=1, skip_every_other_call=False):
        cuda.basic_block.__init__(self, "produce_after_heavy_work", [np.float32], [np.float32])
        self.delay_rounds = delay_rounds
        self.decim = decim
        self.skip_every_other_call = skip_every_other_call
        self.calls = 0
        self.counts_seen = True

    def forecast(self, noutput_items, ninputs):
        return [self.decim * noutput_items] * ninputs

    def general_work(self, input_items, output_items):
        self.calls += 1
        if self.skip_every_other_call and self.calls % 2:
            return 0  # an early return: nothing consumed, nothing produced
        n = min(len(input_items[0]) // self.decim, len(output_items[0]))
        if n == 0:
            return 0
        out = output_items[0][:n]
        out[:] = input_items[0][: self.decim * n : self.decim]
        for _ in range(self.delay_rounds):  # GPU work that takes a while, result unchanged
            out *= 2.0
            out *= 0.5
        before = self.nitems_written(0)
        self.produce(0, n)
        self.counts_seen &= self.nitems_written(0) == before + n
        out += 1.0  # still part of this call's work: readers must see it
        self.consume(0, self.decim * n)
        return gr.WORK_CALLED_PRODUCE


class counting_source(cuda.sync_block):
    """0, 1, 2, ... made on the GPU, then WORK_DONE after total items."""

    def __init__(self, total):
        cuda.sync_block.__init__(self, "counting_source", None, [np.float32])
        self.total = total
        self.sent = 0

    def work(self, input_items, output_items):
        n = min(len(output_items[0]), self.total - self.sent)
        if n == 0:
            return gr.WORK_DONE
        output_items[0][:n] = self.xp.arange(self.sent, self.sent + n, dtype=np.float32)
        self.sent += n
        return n


class summing_sink(cuda.sync_block):
    """Sums what it gets on the GPU; the host sees only the total."""

    def __init__(self):
        cuda.sync_block.__init__(self, "summing_sink", [np.float32], None)
        self.total = None
        self.items = 0

    def work(self, input_items, output_items):
        part = input_items[0].astype(np.float64).sum()
        self.total = part if self.total is None else self.total + part
        self.items += len(input_items[0])
        return len(input_items[0])


class failing(cuda.sync_block):
    def __init__(self, how):
        cuda.sync_block.__init__(self, "failing", [np.float32], [np.float32])
        self.how = how

    def work(self, input_items, output_items):
        n = len(output_items[0])
        if self.how == "raise":
            raise ArithmeticError("the GPU math went wrong")
        if self.how == "exit":
            # Not an Exception: sys.exit() ended only the block's thread (a hang).
            raise SystemExit("the block wants out")
        if self.how == "consume":
            # GNU Radio's own gateway passes it on: the input is consumed twice.
            self.consume(0, n)
        if self.how == "produce":
            # A port the block lacks: GNU Radio's own gateway crashes the process.
            self.produce(3, n)
        return n if self.how in ("consume", "produce") else n + 1


class failing_handler(cuda.sync_block):
    """A copy whose message handler raises."""

    def __init__(self):
        cuda.sync_block.__init__(self, "failing_handler", [np.float32], [np.float32])
        self.message_port_register_in(pmt.intern("command"))
        self.set_msg_handler(pmt.intern("command"), self.handle_command)

    def handle_command(self, message):
        raise KeyError(f"no such command: {pmt.write_string(message)}")

    def work(self, input_items, output_items):
        output_items[0][:] = input_items[0]
        return len(output_items[0])


class failing_forecast(cuda.basic_block):
    def __init__(self, error):
        cuda.basic_block.__init__(self, "failing_forecast", [np.float32], [np.float32])
        self.forecast_error = error

    def forecast(self, noutput_items, ninputs):
        raise self.forecast_error

    def general_work(self, input_items, output_items):
        raise AssertionError("general_work() must not run after forecast() failed")


class own_start(cuda.sync_block):
    """Overrides start() and stop() without calling the base class."""

    def __init__(self):
        cuda.sync_block.__init__(self, "own_start", [np.float32], [np.float32])
        self.starts = 0

    def start(self):
        self.starts += 1
        return True

    def stop(self):
        return True

    def work(self, input_items, output_items):
        output_items[0][:] = input_items[0] + 1
        return len(output_items[0])


class failing_start_or_stop(cuda.sync_block):
    """A copy whose start() or stop() raises (which: "start" or "stop")."""

    def __init__(self, which):
        cuda.sync_block.__init__(self, "failing_start_or_stop", [np.float32], [np.float32])
        self.which = which

    def start(self):
        if self.which == "start":
            raise OSError("no radio attached")
        return super().start()

    def stop(self):
        if self.which == "stop":
            raise OSError("the radio would not let go")
        return super().stop()

    def work(self, input_items, output_items):
        output_items[0][:] = input_items[0]
        return len(output_items[0])


class qa_python_blocks(flowgraph_test):
    time_limit = 120
    seed = 7

    def floats(self, n):
        return self.random(np.float32, n)

    def complexes(self, n):
        return self.random(np.complex64, n)

    def run_chain(self, source, *chain, sink):
        tb = gr.top_block()
        tb.connect(source, *chain, sink)
        tb.run()
        return np.array(sink.data())

    def test_sync_float_complex_int16_and_vectors(self):
        for length in (1, 4095, 100_003):
            data = self.floats(length)
            got = self.run_chain(blocks.vector_source_f(data), scale(np.float32, 3.0), sink=blocks.vector_sink_f())
            np.testing.assert_array_equal(got, data * np.float32(3.0))
        data = self.complexes(70_001)
        got = self.run_chain(
            blocks.vector_source_c(data), scale(np.complex64, np.complex64(1 - 2j)), sink=blocks.vector_sink_c()
        )
        np.testing.assert_allclose(got, data * np.complex64(1 - 2j), rtol=1e-6)
        data = self.rng.integers(-1000, 1000, 50_000).astype(np.int16)
        got = self.run_chain(blocks.vector_source_s(data.tolist()), scale(np.int16, 7), sink=blocks.vector_sink_s())
        np.testing.assert_array_equal(got, data * 7)
        data = self.floats(4 * 30_001)
        got = self.run_chain(
            blocks.vector_source_f(data, False, 4), scale(np.float32, -1.5, vlen=4), sink=blocks.vector_sink_f(4)
        )
        np.testing.assert_array_equal(got, data * np.float32(-1.5))

    def test_several_inputs_against_add_ff(self):
        data = [self.floats(60_007) for _ in range(3)]
        tb = gr.top_block()
        ours, theirs = adder(3), blocks.add_ff()
        our_sink, their_sink = blocks.vector_sink_f(), blocks.vector_sink_f()
        for port, stream in enumerate(data):
            tb.connect(blocks.vector_source_f(stream), (ours, port))
            tb.connect(blocks.vector_source_f(stream), (theirs, port))
        tb.connect(ours, our_sink)
        tb.connect(theirs, their_sink)
        tb.run()
        np.testing.assert_allclose(our_sink.data(), their_sink.data(), rtol=1e-6, atol=1e-6)

    def test_decimator_and_interpolator(self):
        data = self.floats(2 * 40_001)
        got = self.run_chain(blocks.vector_source_f(data), pair_sum(), sink=blocks.vector_sink_f())
        np.testing.assert_array_equal(got, data[0::2] + data[1::2])
        data = self.rng.integers(-100, 100, 33_333).astype(np.int16)
        got = self.run_chain(blocks.vector_source_s(data.tolist()), repeat3(), sink=blocks.vector_sink_s())
        np.testing.assert_array_equal(got, np.repeat(data, 3))

    def test_history_fir_against_fir_filter_fff(self):
        taps = self.floats(17)
        data = self.floats(50_000)
        got = self.run_chain(blocks.vector_source_f(data), fir(taps), sink=blocks.vector_sink_f())
        expected = self.run_chain(
            blocks.vector_source_f(data), gr_filter.fir_filter_fff(1, taps), sink=blocks.vector_sink_f()
        )
        np.testing.assert_allclose(got, expected, rtol=1e-4, atol=1e-4)

    def test_complex_to_float(self):
        data = self.complexes(80_000)
        got = self.run_chain(blocks.vector_source_c(data), magnitude(), sink=blocks.vector_sink_f())
        expected = self.run_chain(blocks.vector_source_c(data), blocks.complex_to_mag(), sink=blocks.vector_sink_f())
        np.testing.assert_allclose(got, expected, rtol=1e-6)

    def test_basic_passthrough_and_accumulate(self):
        data = self.floats(123_457)
        got = self.run_chain(blocks.vector_source_f(data), passthrough(), sink=blocks.vector_sink_f())
        np.testing.assert_array_equal(got, data)
        data = self.floats(8 * 10_001)
        got = self.run_chain(blocks.vector_source_f(data), accumulate8(), sink=blocks.vector_sink_f())
        np.testing.assert_allclose(got, data.reshape(-1, 8).sum(axis=1), rtol=1e-5, atol=1e-5)

    def test_source_ending_with_work_done_and_gpu_only_sink(self):
        source, sink = counting_source(1_000_003), summing_sink()
        tb = gr.top_block()
        tb.connect(source, cuda.multiply_const_ff(2.0), sink)
        tb.run()
        self.assertEqual(sink.items, 1_000_003)
        self.assertEqual(float(sink.total), 2.0 * sum(range(1_000_003)))

    def test_explicit_produce_after_heavy_work_small_calls(self):
        data = self.floats(200_000)
        tb = gr.top_block()
        chain = [produce_after_heavy_work(skip_every_other_call=index == 1) for index in range(3)]
        for block in chain:
            block.set_max_noutput_items(1024)
        sink = blocks.vector_sink_f()
        tb.connect(blocks.vector_source_f(data), *chain, sink)
        tb.run()
        expected = data
        for _ in chain:
            expected = expected + np.float32(1)
        np.testing.assert_array_equal(sink.data(), expected)
        self.assertTrue(all(block.counts_seen for block in chain))

    def test_explicit_produce_decimating_by_two(self):
        data = self.floats(100_001)
        block = produce_after_heavy_work(delay_rounds=5, decim=2)
        block.set_max_noutput_items(1024)
        got = self.run_chain(blocks.vector_source_f(data), block, sink=blocks.vector_sink_f())
        np.testing.assert_array_equal(got, data[0:100_000:2] + 1)

    def test_cpp_python_cpp_chain_and_cpu_neighbours(self):
        data = self.floats(250_000)
        got = self.run_chain(
            blocks.vector_source_f(data),
            cuda.multiply_const_ff(2.0),
            scale(np.float32, 3.0),
            cuda.copy(4),
            blocks.multiply_const_ff(0.5),
            scale(np.float32, 4.0),
            sink=blocks.vector_sink_f(),
        )
        np.testing.assert_array_equal(got, data * 12)

    def test_python_fan_out_to_python_blocks_of_different_speeds(self):
        data = self.floats(300_000)
        tb = gr.top_block()
        # The flowgraph holds only the C++ side of a Python block: keep the Python objects.
        source, fast = scale(np.float32, 1.0), scale(np.float32, 2.0)
        slow = produce_after_heavy_work(delay_rounds=50)
        slow.set_max_noutput_items(512)
        sinks = [blocks.vector_sink_f(), blocks.vector_sink_f()]
        tb.connect(blocks.vector_source_f(data), source)
        tb.connect(source, fast, sinks[0])
        tb.connect(source, slow, sinks[1])
        tb.run()
        np.testing.assert_array_equal(sinks[0].data(), data * 2)
        np.testing.assert_array_equal(sinks[1].data(), data + 1)

    def test_tags_through_sync_and_decimating_blocks(self):
        data = self.floats(40_000)
        tags = [
            gr.tag_utils.python_to_tag((offset, pmt.intern("key"), pmt.from_long(offset), pmt.PMT_F))
            for offset in (0, 1, 4095, 4096, 12_345, 39_998)
        ]
        source, first, second, sink = (
            blocks.vector_source_f(data, False, 1, tags),
            scale(np.float32, 2.0),
            pair_sum(),
            blocks.vector_sink_f(),
        )
        tb = gr.top_block()
        tb.connect(source, first, second, sink)
        tb.run()
        np.testing.assert_array_equal(sink.data(), 2 * data[0::2] + 2 * data[1::2])
        got = [(tag.offset, pmt.to_python(tag.value)) for tag in sink.tags()]
        # GNU Radio moves a tag to offset * relative rate, rounded to the nearest item (up at .5).
        self.assertEqual(got, [((offset + 1) // 2, offset) for offset in (0, 1, 4095, 4096, 12_345, 39_998)])

    def test_arrays_are_views_of_the_buffers(self):
        if cuda.simulated():
            memory = np.arange(10, dtype=np.float32)
            view = cuda.device_array(memory.ctypes.data, np.float32, 10)
            self.assertEqual(view.ctypes.data, memory.ctypes.data)
            view[3] = -1
            self.assertEqual(memory[3], -1)
            return
        import cupy

        memory = cupy.arange(10, dtype=cupy.float32)
        view = cuda.device_array(memory.data.ptr, np.dtype((np.float32, 2)), 5)
        self.assertEqual((view.shape, view.data.ptr), ((5, 2), memory.data.ptr))

        class foreign:  # what PyTorch and Numba arrays expose
            __cuda_array_interface__ = memory.__cuda_array_interface__

        self.assertEqual(cuda.as_cupy(foreign()).data.ptr, memory.data.ptr)
        # A NumPy array over device memory, as a plain gr.sync_block gets for a GPU port:
        wrapped = gr.gateway.pointer_to_ndarray(memory.data.ptr, np.dtype(np.float32), 10)
        self.assertTrue(bool((cuda.as_cupy(wrapped) == memory).all()))
        with self.assertRaisesRegex(ValueError, "host memory"):
            cuda.as_cupy(np.zeros(4, np.float32))

    def test_restart_with_start_and_stop_overridden(self):
        block = own_start()
        tb = gr.top_block()
        data = self.floats(20_000)
        source, sink = blocks.vector_source_f(data), blocks.vector_sink_f()
        tb.connect(source, block, sink)
        for _run in range(3):
            source.rewind()
            sink.reset()
            tb.run()
            np.testing.assert_array_equal(sink.data(), data + 1)
        self.assertEqual(block.starts, 3)

    def test_start_or_stop_raising_ends_the_flowgraph(self):
        # GNU Radio's gateway: start() raising hangs the flowgraph, stop() raising aborts.
        data = self.floats(20_000)
        for which, message in (("start", "no radio attached"), ("stop", "would not let go")):
            with self.subTest(which=which):
                block = failing_start_or_stop(which)
                tb = gr.top_block()
                source, sink = blocks.vector_source_f(data), blocks.vector_sink_f()
                tb.connect(source, block, sink)
                tb.run()  # the time limit fails the test if this hangs
                self.assertIsInstance(block.error, OSError)
                self.assertIn(message, str(block.error))
                if which == "start":
                    self.assertEqual(len(sink.data()), 0)
                else:
                    np.testing.assert_array_equal(sink.data(), data)
                # The buffers were let go: the block runs again once it is fixed.
                block.which, block.error = None, None
                source.rewind()
                sink.reset()
                tb.run()
                np.testing.assert_array_equal(sink.data(), data)

    def test_errors_end_the_flowgraph_with_the_reason(self):
        outside = r"^failing: {}\(\) is only valid inside a cuda.basic_block's general_work\(\); a sync"
        for how, error, message in (
            ("raise", ArithmeticError, "went wrong"),
            ("exit", SystemExit, "wants out"),
            ("too many", ValueError, r"returned \d+ items but was given room for \d+"),
            ("consume", RuntimeError, outside.format("consume")),
            ("produce", RuntimeError, outside.format("produce")),
            ("forecast", LookupError, "no idea"),
            ("forecast exit", KeyboardInterrupt, "interrupted"),
        ):
            with self.subTest(how=how):
                if how == "forecast":
                    block = failing_forecast(LookupError("no idea how much input"))
                elif how == "forecast exit":
                    block = failing_forecast(KeyboardInterrupt("interrupted"))
                else:
                    block = failing(how)
                tb = gr.top_block()
                tb.connect(blocks.null_source(4), block, blocks.null_sink(4))
                tb.run()  # the time limit fails the test if this hangs
                self.assertIsInstance(block.error, error)
                self.assertRegex(str(block.error), message)

    def test_an_exception_in_a_message_handler_ends_the_flowgraph(self):
        block = failing_handler()
        tb = gr.top_block()
        tb.connect(blocks.null_source(4), block, blocks.null_sink(4))
        tb.start()
        block._post(pmt.intern("command"), pmt.intern("launch"))
        tb.wait()  # the time limit fails the test if this hangs
        self.assertIsInstance(block.error, KeyError)
        self.assertIn("no such command: launch", str(block.error))

    def test_io_signature_with_a_port_range_and_cpu_signatures_refused(self):
        class any_inputs(cuda.sync_block):
            def __init__(self):
                cuda.sync_block.__init__(
                    self, "any_inputs", cuda.io_signature(1, 4, [np.float32]), cuda.io_signature(1, 1, [np.float32])
                )

            def work(self, input_items, output_items):
                output_items[0][:] = sum(input_items)
                return len(output_items[0])

        data = self.floats(10_000)
        tb = gr.top_block()
        block, sink = any_inputs(), blocks.vector_sink_f()
        for port in range(2):
            tb.connect(blocks.vector_source_f(data), (block, port))
        tb.connect(block, sink)
        tb.run()
        np.testing.assert_array_equal(sink.data(), data * 2)
        with self.assertRaisesRegex(TypeError, "cuda.io_signature"):
            scale.__bases__[0].__init__(scale.__new__(scale), "x", gr.py_io_signature(1, 1, [np.float32]), None)
        # Types device memory cannot hold are refused when the block is made, not at its
        # first call.
        with self.assertRaisesRegex(ValueError, "Python objects"):
            cuda.sync_block("objects", [object], [np.float32])
        with self.assertRaisesRegex(ValueError, "a vlen of at least 1"):
            cuda.sync_block("no size", [(np.float32, 0)], [np.float32])

        class unmade(cuda.sync_block):
            def __init__(self):
                self.set_history(3)  # before the base class's __init__

        with self.assertRaisesRegex(AttributeError, r"unmade.set_history: the block is not made yet; call the base"):
            unmade()

    def test_missing_cupy_on_a_gpu_is_a_clear_error(self):
        from gnuradio.cuda import arrays

        with mock.patch.object(arrays, "simulated", return_value=False), mock.patch.dict(sys.modules, {"cupy": None}):
            with self.assertRaisesRegex(ImportError, "pip install cupy-cuda13x"):
                arrays.array_module.__wrapped__()

    def test_arrays_are_the_backends_module(self):
        block = scale(np.float32, 1.0)
        if cuda.simulated():
            self.assertIs(block.xp, np)
            self.assertIsNone(block.stream)
        else:
            import cupy

            self.assertIs(block.xp, cupy)
            self.assertEqual(block.stream.ptr, block.stream_handle)


if __name__ == "__main__":
    gr_unittest.run(qa_python_blocks)
