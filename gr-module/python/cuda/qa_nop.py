#!/usr/bin/env python3
#
# SPDX-License-Identifier: GPL-3.0-or-later
#
"""nop passes every item on without touching it, between GPU blocks and after CPU blocks."""

from gnuradio import blocks, gr, gr_unittest

from gnuradio import cuda


class qa_nop(gr_unittest.TestCase):
    def test_nop_passes_every_item(self):
        for n in (1, 1000, 1_000_003):
            tb = gr.top_block()
            nop, sink = cuda.nop(8), cuda.null_sink(8)
            tb.connect(cuda.null_source(8), cuda.head(8, n), nop, sink)
            tb.run()
            self.assertEqual(nop.nitems_written(0), n)
            self.assertEqual(sink.nitems_read(0), n)

    def test_nop_after_a_cpu_block(self):
        tb = gr.top_block()
        nop, sink = cuda.nop(4), cuda.null_sink(4)
        tb.connect(blocks.vector_source_f([1.0] * 54_321), nop, sink)
        tb.run()
        self.assertEqual(sink.nitems_read(0), 54_321)


if __name__ == "__main__":
    gr_unittest.run(qa_nop)
