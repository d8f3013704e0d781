#!/usr/bin/env python3
#
# SPDX-License-Identifier: GPL-3.0-or-later
#
"""Flowgraphs restarted and rebuilt many times run right and give their device memory back."""

import gc

import numpy as np
from gnuradio import blocks, gr, gr_unittest

from gnuradio import cuda


def flowgraph(data):
    tb = gr.top_block()
    source, sink = blocks.vector_source_f(data), blocks.vector_sink_f()
    tb.connect(source, cuda.copy(4), cuda.multiply_const_ff(2.0), sink)
    return tb, source, sink


class qa_lifecycle(gr_unittest.TestCase):
    def setUp(self):
        self.data = np.random.default_rng(3).standard_normal(20_000).astype(np.float32)

    def test_start_stop_wait_one_flowgraph_100_times(self):
        tb, source, sink = flowgraph(self.data)
        for _ in range(100):
            source.rewind()
            sink.reset()
            tb.start()
            tb.wait()
            tb.stop()
            np.testing.assert_allclose(np.array(sink.data()), 2.0 * self.data, rtol=1e-6)

    def test_100_flowgraphs_built_and_destroyed_leak_no_device_memory(self):
        # The first flowgraph loads kernels and lets the driver settle.
        tb, _, _ = flowgraph(self.data)
        tb.run()
        del tb
        gc.collect()
        start = cuda.free_device_memory()
        for _ in range(100):
            tb, _, sink = flowgraph(self.data)
            tb.run()
            np.testing.assert_allclose(np.array(sink.data()), 2.0 * self.data, rtol=1e-6)
            del tb, sink
        gc.collect()
        self.assertEqual(cuda.free_device_memory(), start)


if __name__ == "__main__":
    gr_unittest.run(qa_lifecycle)
