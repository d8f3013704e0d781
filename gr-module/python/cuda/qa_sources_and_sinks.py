#!/usr/bin/env python3
#
# SPDX-License-Identifier: GPL-3.0-or-later
#
"""null_source, head, nop and null_sink: a GPU-resident chain ends, counts are exact."""

import numpy as np
from gnuradio import blocks, gr, gr_unittest

from gnuradio import cuda


class qa_sources_and_sinks(gr_unittest.TestCase):
    def test_gpu_resident_chain_ends_after_head(self):
        for n in (1, 1000, 1_000_003):
            tb = gr.top_block()
            head = cuda.head(8, n)
            sink = cuda.null_sink(8)
            tb.connect(cuda.null_source(8), head, cuda.multiply_const_cc(2j), cuda.nop(8), sink)
            tb.run()
            self.assertEqual(sink.nitems_read(0), n)

    def test_null_source_gives_zeros_to_the_cpu(self):
        tb = gr.top_block()
        sink = blocks.vector_sink_f()
        tb.connect(cuda.null_source(4), cuda.head(4, 123_457), sink)
        tb.run()
        np.testing.assert_array_equal(np.array(sink.data(), dtype=np.float32), np.zeros(123_457, np.float32))

    def test_head_passes_exactly_and_can_be_reset(self):
        data = np.arange(50_000, dtype=np.float32)
        head = cuda.head(4, 10_000)
        for length in (10_000, 777):
            head.set_length(length)
            head.reset()
            tb = gr.top_block()
            sink = blocks.vector_sink_f()
            tb.connect(blocks.vector_source_f(data), head, sink)
            tb.run()
            np.testing.assert_array_equal(np.array(sink.data(), dtype=np.float32), data[:length])

    def test_several_ports(self):
        tb = gr.top_block()
        source = cuda.null_source(4, 2)
        sink = cuda.null_sink(4, 2)
        for port in range(2):
            tb.connect((source, port), cuda.head(4, 5000 + port), (sink, port))
        tb.run()
        self.assertEqual(sink.nitems_read(0), 5000)

    def test_host_data_into_a_gpu_sink(self):
        tb = gr.top_block()
        sink = cuda.null_sink(4)
        tb.connect(blocks.vector_source_f(np.ones(77_777, np.float32)), sink)
        tb.run()
        self.assertEqual(sink.nitems_read(0), 77_777)


if __name__ == "__main__":
    gr_unittest.run(qa_sources_and_sinks)
