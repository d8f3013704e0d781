#!/usr/bin/env python3
#
# SPDX-License-Identifier: GPL-3.0-or-later
#
"""lock()/unlock() with GPU blocks: swapping a GPU block, inserting GPU blocks into a running
CPU chain and adding GPU readers run on; the one change GNU Radio 3.10 cannot make (a running
block's output moving between GPU and CPU readers) is refused at unlock() with the fix.

A throttled source repeats 0..period-1; after each change, the newest items at the sink must
be the sequence as the new chain transforms it, with no gap and nothing invented.
"""

import time

import numpy as np
from gnuradio import blocks, gr, gr_unittest

from gnuradio import cuda
from qa_support import flowgraph_test

PERIOD = 1000


class qa_reconfiguration(flowgraph_test):
    time_limit = 60

    def setUp(self):
        super().setUp()
        self.tb = gr.top_block()
        self.source = blocks.vector_source_f(np.arange(PERIOD, dtype=np.float32), True)
        self.throttle = blocks.throttle(4, 2e6)
        self.sink = blocks.vector_sink_f()
        self.tb.connect(self.source, self.throttle)

    def tearDown(self):
        self.tb.stop()
        self.tb.wait()
        super().tearDown()

    def wait_for_items(self, count=20_000):
        """Waits until the sink has \\p count more items than now; returns its newest ones."""
        target = len(self.sink.data()) + count
        deadline = time.monotonic() + 20
        while len(self.sink.data()) < target:
            self.assertLess(time.monotonic(), deadline, "the flowgraph stopped producing")
            time.sleep(0.01)
        return np.array(self.sink.data()[-count // 2 :], dtype=np.float32)

    def assert_sequence(self, newest, scale):
        """\\p newest is scale * (k, k + 1, ...) mod PERIOD for some k."""
        start = round(newest[0] / scale) % PERIOD
        expected = scale * ((start + np.arange(len(newest))) % PERIOD).astype(np.float32)
        np.testing.assert_array_equal(newest, expected)

    def test_swap_a_gpu_block(self):
        copy = cuda.copy(4)
        self.tb.connect(self.throttle, copy, self.sink)
        self.tb.start()
        self.assert_sequence(self.wait_for_items(), 1)
        for scale in (2, 3):
            multiply = cuda.multiply_const_ff(scale)
            self.tb.lock()
            self.tb.disconnect_all()
            self.tb.connect(self.source, self.throttle, multiply, self.sink)
            self.tb.unlock()
            self.assert_sequence(self.wait_for_items(), scale)

    def test_insert_gpu_blocks_into_a_running_cpu_chain(self):
        cpu = blocks.copy(4)
        self.tb.connect(self.throttle, cpu, self.sink)
        self.tb.start()
        self.assert_sequence(self.wait_for_items(), 1)
        gpu_chain = [cuda.copy(4), cuda.multiply_const_ff(2.0), cuda.copy(4)]
        self.tb.lock()
        self.tb.disconnect(self.throttle, cpu)
        self.tb.disconnect(cpu, self.sink)
        self.tb.connect(self.throttle, *gpu_chain, self.sink)
        self.tb.unlock()
        self.assert_sequence(self.wait_for_items(), 2)

    def test_add_a_gpu_reader_to_a_gpu_block(self):
        ingress = cuda.copy(4)
        self.tb.connect(self.throttle, ingress, cuda.copy(4), self.sink)
        self.tb.start()
        self.wait_for_items()
        second_sink = blocks.vector_sink_f()
        self.tb.lock()
        self.tb.connect(ingress, cuda.multiply_const_ff(4.0), second_sink)
        self.tb.unlock()
        self.assert_sequence(self.wait_for_items(), 1)
        deadline = time.monotonic() + 20
        while len(second_sink.data()) < 20_000:
            self.assertLess(time.monotonic(), deadline, "the new branch produces nothing")
            time.sleep(0.01)
        self.assert_sequence(np.array(second_sink.data()[-10_000:], dtype=np.float32), 4)

    def test_a_cpu_reader_beside_gpu_readers_is_refused_at_unlock(self):
        ingress = cuda.copy(4)
        self.tb.connect(self.throttle, ingress, cuda.copy(4), self.sink)
        self.tb.start()
        self.wait_for_items()
        self.tb.lock()
        self.tb.connect(ingress, blocks.null_sink(4))
        with self.assertRaisesRegex(
            RuntimeError,
            r"copy\(\d+\) feeds both GPU blocks \(copy\(\d+\)\) "
            r"and a CPU block from one output.* Fix: ",
        ):
            self.tb.unlock()

    def test_moving_an_output_between_gpu_and_cpu_readers_is_refused_at_unlock(self):
        gpu = cuda.copy(4)
        self.tb.connect(self.throttle, gpu, self.sink)
        self.tb.start()
        self.wait_for_items()
        self.tb.lock()
        self.tb.disconnect(self.throttle, gpu)
        self.tb.disconnect(gpu, self.sink)
        self.tb.connect(self.throttle, blocks.copy(4), self.sink)
        with self.assertRaisesRegex(
            RuntimeError,
            r"after lock\(\)/unlock\(\), throttle\(\d+\)'s output is read by "
            r"CPU blocks where GPU blocks read it before.* Fix: stop\(\) and "
            r"wait\(\) the flowgraph, reconnect, and start\(\) it again",
        ):
            self.tb.unlock()

    def assert_refused(self, sink):
        """unlock() returned and the GPU blocks feeding sink refused to run: it gets nothing
        more, and stop() and wait() (tearDown) end the flowgraph within time_limit."""
        time.sleep(0.5)
        before = len(sink.data())
        time.sleep(0.5)
        self.assertEqual(len(sink.data()), before, "the refused GPU blocks still run")

    def test_an_existing_cpu_block_moved_beside_gpu_readers_is_refused(self):
        # GNU Radio adds the readers of blocks it keeps without a transfer type, so no check
        # runs at unlock(): the GPU blocks refuse at their start() and end the flowgraph,
        # where their threads died and unlock() never returned.
        ingress, gpu = cuda.copy(4), cuda.copy(4)
        other_sink = blocks.vector_sink_f()
        self.tb.connect(self.throttle, ingress, gpu, self.sink)
        other = blocks.vector_source_f(np.zeros(PERIOD, dtype=np.float32), True)
        cpu = blocks.copy(4)
        self.tb.connect(other, blocks.throttle(4, 2e6), cpu, other_sink)
        self.tb.start()
        self.wait_for_items()
        self.tb.lock()
        self.tb.disconnect(cpu, other_sink)
        self.tb.connect(cpu, blocks.null_sink(4))
        self.tb.connect(ingress, other_sink)
        self.tb.unlock()
        self.assert_refused(self.sink)

    def test_an_existing_cpu_block_moved_onto_a_gpu_readers_output_is_refused(self):
        ingress, gpu = cuda.copy(4), cuda.multiply_const_ff(2.0)
        self.tb.connect(self.throttle, ingress, gpu, self.sink)
        self.tb.start()
        self.wait_for_items()
        self.tb.lock()
        self.tb.disconnect(ingress, gpu)
        self.tb.disconnect(gpu, self.sink)
        self.tb.connect(ingress, self.sink)
        self.tb.unlock()
        self.assert_refused(self.sink)

    def test_an_existing_gpu_block_moved_to_a_cpu_output_is_refused(self):
        # Its input would be the CPU block's buffer in host memory, where kernels cannot read.
        cpu = blocks.copy(4)
        self.tb.connect(self.throttle, cpu, self.sink)
        other = blocks.vector_source_f(np.zeros(PERIOD, dtype=np.float32), True)
        ingress, gpu, gpu_sink = cuda.copy(4), cuda.multiply_const_ff(2.0), blocks.vector_sink_f()
        self.tb.connect(other, blocks.throttle(4, 2e6), ingress, gpu, gpu_sink)
        self.tb.start()
        self.wait_for_items()
        self.tb.lock()
        self.tb.disconnect(ingress, gpu)
        self.tb.connect(ingress, cuda.null_sink(4))
        self.tb.connect(cpu, gpu)
        self.tb.unlock()
        self.assert_refused(gpu_sink)

    def test_the_fix_stop_reconnect_start_runs(self):
        gpu = cuda.copy(4)
        self.tb.connect(self.throttle, gpu, self.sink)
        self.tb.start()
        self.wait_for_items()
        self.tb.stop()
        self.tb.wait()
        self.tb.disconnect_all()
        self.tb.connect(self.source, self.throttle, blocks.copy(4), self.sink)
        self.tb.start()
        self.assert_sequence(self.wait_for_items(), 1)


if __name__ == "__main__":
    gr_unittest.run(qa_reconfiguration)
