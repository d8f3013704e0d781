#!/usr/bin/env python3
#
# SPDX-License-Identifier: GPL-3.0-or-later
#
"""Topologies GNU Radio 3.10 cannot run with custom buffers fail fast at start(), never hang;
the ones that look similar but work, run."""

import signal
import subprocess
import sys

import numpy as np
from gnuradio import blocks, filter as gr_filter, gr, gr_unittest

from gnuradio import cuda


class qa_topologies(gr_unittest.TestCase):
    def setUp(self):
        # A hang fails the test instead of the whole run.
        signal.signal(signal.SIGALRM, lambda *_: self.fail("the flowgraph hung"))
        signal.alarm(60)
        self.data = np.arange(100_000, dtype=np.float32)

    def tearDown(self):
        signal.alarm(0)

    def start_fails(self, tb, message):
        with self.assertRaisesRegex(RuntimeError, message):
            tb.start()

    def test_cpu_output_into_two_gpu_blocks_is_refused_with_the_fix(self):
        tb = gr.top_block()
        source = blocks.vector_source_f(self.data)
        tb.connect(source, cuda.copy(4), blocks.vector_sink_f())
        tb.connect(source, cuda.copy(4), blocks.vector_sink_f())
        self.start_fails(tb, r"vector_source\(\d+\) feeds several GPU blocks .* fan out from that block")

    def test_cpu_output_into_gpu_and_cpu_blocks_fails_at_start(self):
        for gpu_first in (True, False):
            tb = gr.top_block()
            source = blocks.vector_source_f(self.data)
            edges = [(cuda.copy(4), blocks.vector_sink_f()), (blocks.vector_sink_f(),)]
            for edge in edges if gpu_first else reversed(edges):
                tb.connect(source, *edge)
            self.start_fails(
                tb,
                r"vector_source\(\d+\) feeds both (GPU blocks \(copy\(\d+\)\) and a CPU|"
                r"CPU blocks \(vector_sink\(\d+\)\) and a GPU) block .* Fix: .*blocks.copy",
            )

    def test_gpu_output_into_gpu_and_cpu_blocks_fails_at_start(self):
        tb = gr.top_block()
        gpu = cuda.copy(4)
        tb.connect(blocks.vector_source_f(self.data), gpu, cuda.copy(4), blocks.vector_sink_f())
        tb.connect(gpu, blocks.vector_sink_f())
        self.start_fails(
            tb,
            r"copy\(\d+\) feeds both (GPU blocks \(copy\(\d+\)\) and a CPU|"
            r"CPU blocks \(vector_sink\(\d+\)\) and a GPU) block .* Fix: .*cuda.copy",
        )

    def test_the_fixes_run(self):
        tb = gr.top_block()
        ingress = cuda.copy(4)
        sinks = [blocks.vector_sink_f() for _ in range(2)]
        tb.connect(blocks.vector_source_f(self.data), ingress)
        for sink in sinks:
            tb.connect(ingress, cuda.copy(4), sink)
        tb.run()
        for sink in sinks:
            np.testing.assert_array_equal(np.array(sink.data(), dtype=np.float32), self.data)

    def test_reader_with_history_equal_to_delay_plus_one_runs(self):
        # GNU Radio issue 6350 stalls such readers (every QT GUI sink) on single-mapped buffers;
        # cuda_buffer never realigns, so it does not.
        fir = gr_filter.fir_filter_fff(1, [1.0, 0.0])
        fir.declare_sample_delay(1)
        tb = gr.top_block()
        sink = blocks.vector_sink_f()
        tb.connect(blocks.vector_source_f(self.data), cuda.copy(4), fir, sink)
        tb.run()
        np.testing.assert_array_equal(np.array(sink.data(), dtype=np.float32), self.data)

    def test_a_general_block_capped_below_its_output_multiple_is_refused_with_the_fix(self):
        # GNU Radio would never call it: a silent hang, as with its own pfb_channelizer_ccf.
        taps = np.hanning(8 * 6).astype(np.float32).tolist()
        signal_in = (np.random.default_rng(7).standard_normal(8 * 4000)).astype(np.complex64)
        outputs = []
        for cap in (3, 4):
            channelizer = cuda.pfb_channelizer_ccf(8, taps, 4)
            self.assertEqual(channelizer.output_multiple(), 4)
            channelizer.set_max_noutput_items(cap)
            tb = gr.top_block()
            sinks = [blocks.vector_sink_c() for _ in range(8)]
            tb.connect(blocks.vector_source_c(signal_in.tolist()), channelizer)
            for channel, sink in enumerate(sinks):
                tb.connect((channelizer, channel), sink)
            if cap < 4:
                self.start_fails(
                    tb,
                    r"pfb_channelizer_ccf\(\d+\)'s max_noutput_items \(3\) is below its "
                    r"output multiple \(4\).* Fix: set_max_noutput_items\(4\) or more",
                )
                continue
            tb.run()
            outputs = [np.array(sink.data()) for sink in sinks]
        uncapped = gr.top_block()
        channelizer = cuda.pfb_channelizer_ccf(8, taps, 4)
        sinks = [blocks.vector_sink_c() for _ in range(8)]
        uncapped.connect(blocks.vector_source_c(signal_in.tolist()), channelizer)
        for channel, sink in enumerate(sinks):
            uncapped.connect((channelizer, channel), sink)
        uncapped.run()
        for capped, sink in zip(outputs, sinks):
            np.testing.assert_array_equal(capped, np.array(sink.data()))

    def test_a_python_general_block_capped_below_its_output_multiple_is_refused(self):
        class pairs(cuda.basic_block):
            def __init__(self):
                cuda.basic_block.__init__(self, "pairs", [np.float32], [np.float32])
                self.set_output_multiple(2)

            def general_work(self, input_items, output_items):
                n = min(len(input_items[0]), len(output_items[0]))
                output_items[0][:n] = input_items[0][:n]
                self.consume(0, n)
                return n

        block = pairs()
        block.set_max_noutput_items(1)
        tb = gr.top_block()
        tb.connect(blocks.vector_source_f(self.data), block, blocks.null_sink(4))
        self.start_fails(tb, r"pairs\(\d+\)'s max_noutput_items \(1\) is below its output multiple \(2\)")

    def test_a_block_asking_more_than_a_call_can_hold_is_refused_with_the_fix(self):
        # GNU Radio throws in the block's thread ("Buffer too small for min_noutput_items")
        # and the flowgraph waits forever. A fresh process, to read the reason logged (GNU
        # Radio's console log is its standard output).
        script = (
            "from gnuradio import blocks, cuda, gr\n"
            "gpu = cuda.multiply_const_ff(2.0)\n"
            "gpu.set_min_noutput_items(1 << 26)\n"
            "tb, sink = gr.top_block(), blocks.vector_sink_f()\n"
            "tb.connect(blocks.vector_source_f([1.0] * 1000), cuda.copy(4), gpu, cuda.copy(4), sink)\n"
            "tb.run()\n"
            "print(len(sink.data()))\n"
        )
        result = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=50)
        self.assertEqual(result.returncode, 0, result.stderr)
        self.assertEqual(result.stdout.split()[-1], "0")
        self.assertRegex(
            result.stdout,
            r"multiply_const\(\d+\) cannot run: its min_noutput_items \(67108864\) is more than GNU "
            r"Radio gives one call of output 0 \(\d+ items: half its buffer .* Fix: "
            r"set_min_output_buffer\(134217728\) or more on it, or a smaller set_min_noutput_items\(\)",
        )

    def test_a_sync_block_capped_below_its_output_multiple_runs(self):
        # GNU Radio lifts a fixed-rate block's cap to its output multiple.
        gpu = cuda.multiply_const_ff(2.0)
        gpu.set_output_multiple(101)
        gpu.set_max_noutput_items(7)
        tb = gr.top_block()
        sink = blocks.vector_sink_f()
        tb.connect(blocks.vector_source_f(self.data), cuda.copy(4), gpu, cuda.copy(4), sink)
        tb.run()
        output = np.array(sink.data(), dtype=np.float32)
        np.testing.assert_array_equal(output, 2.0 * self.data[: len(output)])
        self.assertEqual(len(output), len(self.data) // 101 * 101)


if __name__ == "__main__":
    gr_unittest.run(qa_topologies)
