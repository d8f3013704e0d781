#!/usr/bin/env python3
#
# SPDX-License-Identifier: GPL-3.0-or-later
#
"""Passive batching: with GNU Radio's defaults, a GPU block that falls behind takes many
upstream calls' worth of items in one call (its buffers hold at least [cuda]
ring_floor_bytes: 128 MiB on a GPU, 1 MiB on the simulated backend), and caps the user sets
are kept. Readers with large output multiples get rings as GNU Radio sizes them, and rings
that do not fit the device are refused with the fix."""

import gc
import os
import subprocess
import sys
import time

import numpy as np
from gnuradio import blocks, gr, gr_unittest

from gnuradio import cuda
from qa_support import flowgraph_test


class slow_copy(cuda.sync_block):
    """Copies, slowly: records the size of every call."""

    def __init__(self, seconds_per_call):
        cuda.sync_block.__init__(self, "slow_copy", [np.float32], [np.float32])
        self.seconds_per_call = seconds_per_call
        self.calls = []

    def work(self, input_items, output_items):
        time.sleep(self.seconds_per_call)
        output_items[0][:] = input_items[0]
        self.calls.append(len(output_items[0]))
        return len(output_items[0])


class counter(cuda.sync_block):
    """Writes 0, 1, 2, ... (uint32) on the device, \\p total items in all."""

    def __init__(self, total):
        cuda.sync_block.__init__(self, "counter", [], [np.uint32])
        self.total = total

    def work(self, input_items, output_items):
        start = self.nitems_written(0)
        n = min(len(output_items[0]), self.total - start)
        if n <= 0:
            return gr.WORK_DONE
        self.xp.add(self.xp.arange(n, dtype=np.uint32), np.uint32(start), out=output_items[0][:n])
        return n


class slow_counter_sink(cuda.sync_block):
    """Takes what is there, slowly; records every call's size and checks the counter."""

    def __init__(self, seconds_per_call):
        cuda.sync_block.__init__(self, "slow_counter_sink", [np.uint32], [])
        self.seconds_per_call = seconds_per_call
        self.calls = []
        self.wrong_calls = 0

    def work(self, input_items, output_items):
        time.sleep(self.seconds_per_call)
        n, start = len(input_items[0]), self.nitems_read(0)
        expected = self.xp.arange(n, dtype=np.uint32) + np.uint32(start)
        self.wrong_calls += int(not bool((input_items[0] == expected).all()))
        self.calls.append(n)
        return n


# GNU Radio's own call cap for a float output: its 32 KiB buffer_size preference, doubled.
GNU_RADIO_FLOAT_CALL = 2 * 32768 // 4


class qa_passive_batching(flowgraph_test):
    def test_a_block_that_falls_behind_takes_large_calls(self):
        data = self.random(np.float32, 1 << 21)
        tb = gr.top_block()
        block, sink = slow_copy(0.002), blocks.vector_sink_f()
        tb.connect(blocks.vector_source_f(data), cuda.copy(4), block, sink)
        tb.run()
        np.testing.assert_array_equal(np.array(sink.data(), dtype=np.float32), data)
        self.assertGreaterEqual(max(block.calls), 4 * GNU_RADIO_FLOAT_CALL, block.calls[:20])

    def test_gpu_blocks_may_fill_their_share_of_the_ring(self):
        # Half of the ring per call by default ([cuda] ring_calls = 2), a quarter with 4.
        floor = (1 << 20) if cuda.simulated() else (128 << 20)
        for calls in (None, "2", "4"):
            with self.subTest(ring_calls=calls):
                saved = os.environ.pop("GR_CONF_CUDA_RING_CALLS", None)
                if calls:
                    os.environ["GR_CONF_CUDA_RING_CALLS"] = calls
                try:
                    tb = gr.top_block()
                    copy = cuda.copy(8)
                    tb.connect(cuda.null_source(8), cuda.head(8, 1000), copy, blocks.null_sink(8))
                    tb.run()
                finally:
                    os.environ.pop("GR_CONF_CUDA_RING_CALLS", None)
                    if saved is not None:
                        os.environ["GR_CONF_CUDA_RING_CALLS"] = saved
                share = int(calls or 2)
                self.assertGreaterEqual(copy.max_noutput_items(), floor // 8 // share)
                self.assertLess(copy.max_noutput_items(), floor // 8 // share * 2)

    def test_caps_the_user_sets_are_kept(self):
        data = self.random(np.float32, 100_000)
        tb = gr.top_block()
        block, sink = slow_copy(0.0005), blocks.vector_sink_f()
        block.set_max_noutput_items(777)
        copy = cuda.copy(4)
        copy.set_max_noutput_items(1000)
        tb.connect(blocks.vector_source_f(data), copy, block, sink)
        tb.run()
        np.testing.assert_array_equal(np.array(sink.data(), dtype=np.float32), data)
        self.assertLessEqual(max(block.calls), 777)
        self.assertEqual(copy.max_noutput_items(), 1000)

    def test_a_writer_the_user_capped_gets_room_for_several_calls(self):
        # A cap larger than half the floor: the floor alone would hold under two calls; the
        # ring holds 8, so a slow reader takes more than two at once.
        floor_items = ((1 << 20) if cuda.simulated() else (64 << 20)) // 4
        cap = floor_items
        tb = gr.top_block()
        source, writer, sink = counter(12 * cap), cuda.copy(4), slow_counter_sink(0.01)
        writer.set_max_noutput_items(cap)
        tb.connect(source, writer, sink)
        tb.run(1 << 30)  # the top block's own cap (10^7 items per call) would hide the ring's
        self.assertEqual(sum(sink.calls), 12 * cap)
        self.assertEqual(sink.wrong_calls, 0)
        self.assertGreater(max(sink.calls), 2 * cap, sink.calls[:20])

    def test_a_floor_of_zero_keeps_gnu_radio_sizes(self):
        script = (
            "from gnuradio import blocks, cuda, gr\n"
            "tb = gr.top_block()\n"
            "copy = cuda.copy(4)\n"
            "tb.connect(blocks.vector_source_f([1.0] * 10), copy, blocks.null_sink(4))\n"
            "tb.run()\n"
            "print(copy.max_noutput_items())"
        )
        result = subprocess.run(
            [sys.executable, "-c", script],
            capture_output=True,
            text=True,
            timeout=120,
            env=dict(os.environ, GR_CONF_CUDA_RING_FLOOR_BYTES="0"),
        )
        self.assertEqual(result.returncode, 0, result.stderr)
        # GNU Radio's size, or half a ring rounded up to the allocation granularity (2 MiB on
        # a GPU).
        self.assertLessEqual(int(result.stdout.split()[-1]), max(GNU_RADIO_FLOAT_CALL, (1 << 20) // 4))

    def test_long_vector_readers_get_rings_as_gnu_radio_sizes_them(self):
        # vector_to_stream(v) has an output multiple of v items; GNU Radio's single-mapped
        # sizing would have asked for 4 v vectors of v items (32 GiB of rings at v = 2^16).
        v = 1 << 16
        data = self.random(np.complex64, 3 * v)
        before = cuda.free_device_memory()
        tb = gr.top_block()
        gpu_fft, sink = cuda.fft(v, True, [], False), blocks.vector_sink_c()
        tb.connect(
            blocks.vector_source_c(data), blocks.stream_to_vector(8, v), gpu_fft, blocks.vector_to_stream(8, v), sink
        )
        tb.start()
        held = before - cuda.free_device_memory()
        tb.wait()
        expected = np.fft.fft(data.reshape(-1, v), axis=1).ravel()
        np.testing.assert_allclose(np.array(sink.data()), expected, rtol=1e-4, atol=1e-2 * np.sqrt(v))
        self.assertLess(held, 2 << 30, "device memory held by two rings of 512 KiB items")

    def test_rings_that_do_not_fit_are_refused_with_the_fix(self):
        size = 1 << 30
        before = cuda.free_device_memory()
        # Every ring holds at least two of these items: more copies than the device holds.
        copies = before // (2 * size) + 2
        tb = gr.top_block()
        copies = [cuda.copy(size) for _ in range(copies)]
        tb.connect(cuda.null_source(size), cuda.head(size, 4), *copies, cuda.null_sink(size))
        with self.assertRaisesRegex(RuntimeError, r"cannot allocate the ring of \w+\(\d+\)'s output .*Fix:"):
            tb.start()
        del tb, copies
        gc.collect()
        self.assertGreater(cuda.free_device_memory(), before - (64 << 20), "the rings made before the refusal")


if __name__ == "__main__":
    gr_unittest.run(qa_passive_batching)
