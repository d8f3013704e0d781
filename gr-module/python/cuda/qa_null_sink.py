#!/usr/bin/env python3
#
# SPDX-License-Identifier: GPL-3.0-or-later
#
"""null_sink reads every item, from GPU and CPU blocks, on several ports."""

import numpy as np
from gnuradio import blocks, gr, gr_unittest

from gnuradio import cuda


class qa_null_sink(gr_unittest.TestCase):
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
    gr_unittest.run(qa_null_sink)
