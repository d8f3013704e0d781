#!/usr/bin/env python3
#
# SPDX-License-Identifier: GPL-3.0-or-later
#
"""The C++ side of the Python GPU blocks (python_gateway): one entry into Python per work()
call, forecast() answered in C++ unless the class has its own, fixed-rate scheduling of
sync, decimating and interpolating blocks, and the device arrays kept per port, address and
length (arrays.array_cache)."""

import time

import numpy as np
from gnuradio import blocks, gr, gr_unittest

from gnuradio import cuda
from gnuradio.cuda.arrays import array_cache
from qa_support import flowgraph_test


class entry_counts:
    """Counts the gateway's entries into Python (handle_forecast, handle_work,
    handle_general_work) of the class it is mixed into."""

    def handle_forecast(self, noutput_items, ninputs):
        self.entries["forecast"] += 1
        return super().handle_forecast(noutput_items, ninputs)

    def handle_work(self, *args):
        self.entries["work"] += 1
        return super().handle_work(*args)

    def handle_general_work(self, *args):
        self.entries["work"] += 1
        return super().handle_general_work(*args)


class counted_copy(entry_counts, cuda.sync_block):
    def __init__(self):
        cuda.sync_block.__init__(self, "counted_copy", [np.float32], [np.float32])
        self.entries = {"forecast": 0, "work": 0}
        self.calls = 0

    def work(self, input_items, output_items):
        self.calls += 1
        output_items[0][:] = input_items[0]
        return len(output_items[0])


class counted_pair_sum(entry_counts, cuda.decim_block):
    """Sum of pairs of a 3-tap window: out[i] = x[2i] + x[2i + 1] + x[2i + 2] (history 3)."""

    def __init__(self):
        cuda.decim_block.__init__(self, "counted_pair_sum", [np.float32], [np.float32], decim=2)
        self.set_history(3)
        self.entries = {"forecast": 0, "work": 0}

    def work(self, input_items, output_items):
        n, x = len(output_items[0]), input_items[0]
        assert len(x) == 2 * n + 2, (len(x), n)
        output_items[0][:] = x[0 : 2 * n : 2] + x[1 : 2 * n + 1 : 2] + x[2 : 2 * n + 2 : 2]
        return n


class counted_repeat(entry_counts, cuda.interp_block):
    """Each item 4 times, with history 2 (the first input item of a call is the previous
    call's last)."""

    def __init__(self):
        cuda.interp_block.__init__(self, "counted_repeat", [np.float32], [np.float32], interp=4)
        self.set_history(2)
        self.entries = {"forecast": 0, "work": 0}

    def work(self, input_items, output_items):
        n, x = len(output_items[0]) // 4, input_items[0]
        assert len(x) == n + 1, (len(x), n)
        output_items[0][: 4 * n] = self.xp.repeat(x[1 : n + 1], 4)
        return 4 * n


class counted_passthrough(entry_counts, cuda.basic_block):
    """A basic_block keeping GNU Radio's forecast()."""

    def __init__(self):
        cuda.basic_block.__init__(self, "counted_passthrough", [np.float32], [np.float32])
        self.entries = {"forecast": 0, "work": 0}

    def general_work(self, input_items, output_items):
        n = min(len(input_items[0]), len(output_items[0]))
        output_items[0][:n] = input_items[0][:n]
        self.consume(0, n)
        return n


class counted_halves(entry_counts, cuda.basic_block):
    """A basic_block with its own forecast(): 2 inputs per output, plus 5."""

    def __init__(self):
        cuda.basic_block.__init__(self, "counted_halves", [np.float32], [np.float32])
        self.entries = {"forecast": 0, "work": 0}

    def forecast(self, noutput_items, ninputs):
        return [2 * noutput_items + 5] * ninputs

    def general_work(self, input_items, output_items):
        n = min((len(input_items[0]) - 5) // 2, len(output_items[0]))
        output_items[0][:n] = input_items[0][0 : 2 * n : 2]
        self.consume(0, 2 * n)
        return n


class own_sync_forecast(entry_counts, cuda.sync_block):
    """A sync block with its own forecast(): the gateway asks it."""

    def __init__(self):
        cuda.sync_block.__init__(self, "own_sync_forecast", [np.float32], [np.float32])
        self.entries = {"forecast": 0, "work": 0}

    def forecast(self, noutput_items, ninputs):
        return [noutput_items + 1] * ninputs

    def work(self, input_items, output_items):
        output_items[0][:] = input_items[0][: len(output_items[0])]
        return len(output_items[0])


class late_starter(cuda.sync_block):
    """Copies; its first call sleeps, so that the whole rest of the input is there for the
    second. Records every call's size."""

    def __init__(self):
        cuda.sync_block.__init__(self, "late_starter", [np.float32], [np.float32])
        self.calls = []

    def work(self, input_items, output_items):
        if not self.calls:
            time.sleep(0.3)
        self.calls.append(len(output_items[0]))
        output_items[0][:] = input_items[0]
        return len(output_items[0])


class array_recorder(cuda.sync_block):
    """Copies in calls of at most 4096 items; records (input address, length, array object)
    of every call (the ring's addresses come back once it wraps, shifted by an item
    whenever a full ring offers one item less)."""

    def __init__(self):
        cuda.sync_block.__init__(self, "array_recorder", [np.float32], [np.float32])
        self.set_max_noutput_items(4096)
        self.seen = []

    def work(self, input_items, output_items):
        array = input_items[0]
        self.seen.append((address_of(array), len(array), array))
        output_items[0][:] = array
        return len(output_items[0])


class bad_forecast(cuda.basic_block):
    """A basic_block whose forecast() returns \\p result (or raises it, an exception)."""

    def __init__(self, result):
        cuda.basic_block.__init__(self, "bad_forecast", [np.float32], [np.float32])
        self.result = result

    def forecast(self, noutput_items, ninputs):
        if isinstance(self.result, Exception):
            raise self.result
        return self.result

    def general_work(self, input_items, output_items):
        raise AssertionError("general_work() must not run after forecast() failed")


class bad_handle_forecast(bad_forecast):
    """Overrides the checked handle_forecast(): the gateway's own guard ends the block."""

    def handle_forecast(self, noutput_items, ninputs):
        return self.result


def address_of(array):
    return array.ctypes.data if isinstance(array, np.ndarray) else array.data.ptr


class qa_python_gateway(flowgraph_test):
    time_limit = 120
    seed = 3

    def run_chain(self, data, block):
        tb = gr.top_block()
        sink = blocks.vector_sink_f()
        tb.connect(blocks.vector_source_f(data), block, sink)
        tb.run()
        return np.array(sink.data(), dtype=np.float32)

    def test_fixed_rate_forecast_in_cpp_with_history(self):
        decimator, interpolator = counted_pair_sum(), counted_repeat()
        for block, decim, interp in ((counted_copy(), 1, 1), (decimator, 2, 1), (interpolator, 1, 4)):
            history = block.history()
            self.assertTrue(block.gateway.fixed_rate())
            for noutput_items in (0, 4, 8, 4096, 1 << 20):
                ninput = noutput_items * decim // interp + history - 1
                self.assertEqual(block.gateway.forecast(noutput_items, 2), [ninput, ninput])
                self.assertEqual(block.gateway.fixed_rate_noutput_to_ninput(noutput_items), ninput)
                self.assertEqual(block.fixed_rate_noutput_to_ninput(noutput_items), ninput)
            for ninput_items in (0, history - 1, history, 1001, 1 << 20):
                expected = max(0, ninput_items - history + 1) * interp // decim
                self.assertEqual(block.gateway.fixed_rate_ninput_to_noutput(ninput_items), expected)
            self.assertEqual(block.entries["forecast"], 0)
        self.assertEqual(decimator.relative_rate(), 0.5)
        self.assertEqual(interpolator.relative_rate(), 4.0)
        self.assertEqual(interpolator.output_multiple(), 4)

    def test_one_python_entry_per_call_for_fixed_rate_blocks(self):
        data = self.random(np.float32, 100_003)
        copy = counted_copy()
        copy.set_max_noutput_items(1000)
        np.testing.assert_array_equal(self.run_chain(data, copy), data)
        self.assertEqual(copy.entries, {"forecast": 0, "work": copy.calls})
        self.assertGreaterEqual(copy.calls, 100)

        # History: a call's input starts history - 1 items early, zeros before the stream.
        block = counted_pair_sum()
        block.set_max_noutput_items(777)
        got = self.run_chain(data, block)
        x = np.concatenate([np.zeros(2, np.float32), data])
        n = len(data) // 2
        np.testing.assert_array_equal(got, x[0 : 2 * n : 2] + x[1 : 2 * n + 1 : 2] + x[2 : 2 * n + 2 : 2])
        self.assertEqual(block.entries["forecast"], 0)

        block = counted_repeat()
        block.set_max_noutput_items(1000)
        got = self.run_chain(data, block)
        np.testing.assert_array_equal(got, np.repeat(data, 4))
        self.assertEqual(block.entries["forecast"], 0)

    def test_basic_blocks_forecast_in_cpp_unless_their_own(self):
        data = self.random(np.float32, 50_001)
        passthrough = counted_passthrough()
        passthrough.set_history(3)
        self.assertFalse(passthrough.gateway.fixed_rate())
        self.assertEqual(passthrough.gateway.forecast(100, 1), [102])
        passthrough = counted_passthrough()
        np.testing.assert_array_equal(self.run_chain(data, passthrough), data)
        self.assertEqual(passthrough.entries["forecast"], 0)
        self.assertGreater(passthrough.entries["work"], 0)

        halves = counted_halves()
        self.assertEqual(halves.gateway.forecast(100, 2), [205, 205])
        self.assertEqual(halves.entries["forecast"], 1)
        got = self.run_chain(data, halves)
        np.testing.assert_array_equal(got, data[0 : 2 * len(got) : 2])
        self.assertGreater(len(got), 24_000)
        self.assertGreater(halves.entries["forecast"], 1)

        own = own_sync_forecast()
        self.assertEqual(own.gateway.forecast(10, 1), [11])
        self.assertEqual(own.entries["forecast"], 1)

    def test_a_block_behind_takes_all_the_input_in_one_call(self):
        # Fixed-rate: the scheduler sizes the call to the input there is, as for a C++
        # sync block, rather than halving the output room until the input covers it.
        data = self.random(np.float32, 30_000)
        block = late_starter()
        np.testing.assert_array_equal(self.run_chain(data, block), data)
        self.assertLessEqual(len(block.calls), 2, block.calls)

    def test_arrays_kept_per_address_and_length(self):
        data = self.random(np.float32, 1 << 20)
        block = array_recorder()
        np.testing.assert_array_equal(self.run_chain(data, block), data)
        arrays = {}
        for address, length, array in block.seen:
            arrays.setdefault((address, length), set()).add(id(array))
        self.assertTrue(all(len(ids) == 1 for ids in arrays.values()))
        keys = {}  # every array seen is still alive (in block.seen): ids are unique
        for address, length, array in block.seen:
            keys.setdefault(id(array), set()).add((address, length))
        self.assertTrue(all(len(pairs) == 1 for pairs in keys.values()))
        caches = block._input_arrays
        self.run_chain(data, block)
        self.assertIsNot(block._input_arrays, caches)  # a restart starts new caches

    def test_array_cache(self):
        xp = cuda.array_module()
        memory = xp.arange(64, dtype=np.float32)
        base = address_of(memory)
        cache = array_cache(np.dtype((np.float32, 2)), size=4)
        first = cache(base, 8)
        self.assertIs(cache(base, 8), first)
        self.assertEqual(first.shape, (8, 2))
        self.assertEqual(address_of(first), base)
        other_length, other_address = cache(base, 4), cache(base + 16, 8)
        self.assertIsNot(other_length, first)
        self.assertIsNot(other_address, first)
        self.assertEqual((other_length.shape, address_of(other_address)), ((4, 2), base + 16))
        self.assertEqual(float(other_address[0, 0]), 4.0)
        cache(base + 32, 1)
        self.assertIs(cache(base, 8), first)  # 4 kept
        cache(base + 48, 1)  # a fifth replaces the oldest
        self.assertIsNot(cache(base, 8), first)
        self.assertEqual(len(cache(base, 0)), 0)

    def test_a_bad_forecast_result_ends_the_block_with_the_reason(self):
        expected = r"it must return a list of 1 whole number\(s\) of input items \(one per input, 0 to 2147483647\)"
        for result, error, message in (
            ([], ValueError, r"returned \[\]; " + expected),
            (None, TypeError, r"returned None; " + expected),
            ([2.5], TypeError, r"returned \[2\.5\]; " + expected),
            ([True], TypeError, r"returned \[True\]; " + expected),
            ([10**12], ValueError, r"returned \[1000000000000\]; " + expected),
            ([2**31], ValueError, r"returned \[2147483648\]; " + expected),
            ([-5], ValueError, r"returned \[-5\]; " + expected),
            ([3, 3], ValueError, r"returned \[3, 3\]; " + expected),
            ("7", TypeError, r"returned '7'; " + expected),
            (KeyError("no idea how much input"), KeyError, "no idea how much input"),
        ):
            with self.subTest(result=result):
                block = bad_forecast(result)
                started = time.monotonic()
                self.assertEqual(len(self.run_chain(np.ones(10_000, np.float32), block)), 0)
                self.assertLess(time.monotonic() - started, 5)
                self.assertIsInstance(block.error, error)
                self.assertRegex(str(block.error), message)
                if not isinstance(result, Exception):
                    self.assertRegex(str(block.error), r"^bad_forecast: forecast\(\) returned ")
        # What the scheduler accepts: whole numbers of any integer type, as a list.
        for result, expected in (((np.int64(4),), [4]), (np.array([7]), [7]), ([2**31 - 1], [2**31 - 1])):
            block = bad_forecast(result)  # kept: the gateway calls back into it
            self.assertEqual(block.gateway.forecast(8, 1), expected)
            self.assertIsNone(block.error)

    def test_an_unusable_handle_forecast_result_ends_the_block(self):
        for result in ([], None, [2.5], [10**12]):
            with self.subTest(result=result):
                block = bad_handle_forecast(result)
                self.assertEqual(block.gateway.forecast(8, 1), [0])
                started = time.monotonic()
                self.assertEqual(len(self.run_chain(np.ones(10_000, np.float32), block)), 0)
                self.assertLess(time.monotonic() - started, 5)

    def test_decim_and_interp_must_be_positive(self):
        for make in (
            lambda: cuda.decim_block("d", [np.float32], [np.float32], 0),
            lambda: cuda.interp_block("i", [np.float32], [np.float32], -3),
        ):
            with self.assertRaisesRegex(ValueError, "decim and interp must be at least 1"):
                make()


if __name__ == "__main__":
    gr_unittest.run(qa_python_gateway)
