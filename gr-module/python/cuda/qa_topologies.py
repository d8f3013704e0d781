#!/usr/bin/env python3
#
# SPDX-License-Identifier: GPL-3.0-or-later
#
"""Topologies GNU Radio 3.10 cannot run with custom buffers fail fast at start(), never hang;
the ones that look similar but work, run."""

import signal

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


if __name__ == "__main__":
    gr_unittest.run(qa_topologies)
