#!/usr/bin/env python3
#
# SPDX-License-Identifier: GPL-3.0-or-later
#
"""tee, with GPU or host ports, feeds GPU and CPU blocks from one output."""

import numpy as np
from gnuradio import blocks, gr, gr_unittest

from gnuradio import cuda


class qa_tee(gr_unittest.TestCase):
    def setUp(self):
        self.rng = np.random.default_rng(5)

    def test_gpu_tee_feeds_gpu_and_cpu_blocks(self):
        data = self.rng.standard_normal(123_457).astype(np.float32)
        tb = gr.top_block()
        tee = cuda.tee(4)
        gpu_sink, cpu_sink = blocks.vector_sink_f(), blocks.vector_sink_f()
        tb.connect(blocks.vector_source_f(data), cuda.copy(4), tee)
        tb.connect((tee, 0), cuda.multiply_const_ff(2.0), gpu_sink)
        tb.connect((tee, 1), cpu_sink)
        tb.run()
        np.testing.assert_array_equal(np.array(cpu_sink.data(), dtype=np.float32), data)
        np.testing.assert_allclose(np.array(gpu_sink.data()), 2.0 * data, rtol=1e-6)

    def test_host_tee_feeds_cpu_and_gpu_blocks(self):
        data = self.rng.standard_normal(54_321).astype(np.float32)
        tb = gr.top_block()
        tee = cuda.tee(4, False)
        gpu_sink, cpu_sink = blocks.vector_sink_f(), blocks.vector_sink_f()
        tb.connect(blocks.vector_source_f(data), tee)
        tb.connect((tee, 0), cuda.copy(4), gpu_sink)
        tb.connect((tee, 1), cpu_sink)
        tb.run()
        for sink in (gpu_sink, cpu_sink):
            np.testing.assert_array_equal(np.array(sink.data(), dtype=np.float32), data)


if __name__ == "__main__":
    gr_unittest.run(qa_tee)
