#!/usr/bin/env python3
#
# SPDX-License-Identifier: GPL-3.0-or-later
#
"""head passes exactly nitems items, ends a GPU-resident chain, and can be reset."""

import numpy as np
from gnuradio import blocks, gr, gr_unittest

from gnuradio import cuda


class qa_head(gr_unittest.TestCase):
    def test_gpu_resident_chain_ends_after_head(self):
        for n in (1, 1000, 1_000_003):
            tb = gr.top_block()
            head = cuda.head(8, n)
            sink = cuda.null_sink(8)
            tb.connect(cuda.null_source(8), head, cuda.multiply_const_cc(2j), cuda.nop(8), sink)
            tb.run()
            self.assertEqual(sink.nitems_read(0), n)

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


if __name__ == "__main__":
    gr_unittest.run(qa_head)
