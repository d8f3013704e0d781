#!/usr/bin/env python3
#
# SPDX-License-Identifier: GPL-3.0-or-later
#
"""cudaexample.scale_offset_ff against numpy, alone and between gr-cuda blocks."""

import numpy as np
from gnuradio import blocks, cuda, gr, gr_unittest

from gnuradio import cudaexample


def scale_offset(data, scale, offset):
    """What the block computes, in float32: a product, then a sum."""
    return data * np.float32(scale) + np.float32(offset)


class qa_scale_offset_ff(gr_unittest.TestCase):
    def setUp(self):
        self.rng = np.random.default_rng(11)

    def random(self, n):
        return self.rng.standard_normal(n).astype(np.float32)

    def run_graph(self, data, *gpu_blocks):
        """CPU source -> the blocks -> CPU sink; the sink's data."""
        return self.run_graph_blocks(blocks.vector_source_f(data), *gpu_blocks)

    def run_graph_blocks(self, *chain):
        tb = gr.top_block()
        sink = blocks.vector_sink_f()
        tb.connect(*chain, sink)
        tb.run()
        return np.array(sink.data(), dtype=np.float32)

    def test_against_numpy(self):
        for n in (1, 4097, 300_001):
            data = self.random(n)
            result = self.run_graph(data, cudaexample.scale_offset_ff(-1.75, 0.3))
            self.assertEqual(len(result), n)
            np.testing.assert_allclose(result, scale_offset(data, -1.75, 0.3), rtol=1e-6, atol=1e-6, err_msg=f"n={n}")

    def test_large_work_calls(self):
        # Buffers of 2^20 items, so that work() gets more items per call than the block's
        # offset array holds (2^16), as on a GPU, whose rings hold at least 2 MiB.
        data = self.random(1_000_003)
        source = blocks.vector_source_f(data)
        block = cudaexample.scale_offset_ff(3.0, -0.5)
        for b in (source, block):
            b.set_min_output_buffer(1 << 20)
        result = self.run_graph_blocks(source, block)
        np.testing.assert_allclose(result, scale_offset(data, 3.0, -0.5), rtol=1e-6, atol=1e-6)

    def test_chain_with_gr_cuda(self):
        # Every edge between the source's copy to the GPU and the sink's copy back is GPU to
        # GPU: gr-cuda -> cudaexample -> gr-cuda -> cudaexample.
        data = self.random(200_000)
        result = self.run_graph(
            data,
            cuda.multiply_const_ff(2.0),
            cudaexample.scale_offset_ff(0.5, -1.0),
            cuda.multiply_const_ff(-3.0),
            cudaexample.scale_offset_ff(1.25, 4.0),
        )
        expected = scale_offset(scale_offset(data * np.float32(2.0), 0.5, -1.0) * np.float32(-3.0), 1.25, 4.0)
        np.testing.assert_allclose(result, expected, rtol=1e-5, atol=1e-5)

    def test_set_scale_and_offset_between_runs(self):
        block = cudaexample.scale_offset_ff(2.0, 1.0)
        self.assertEqual((block.scale(), block.offset()), (2.0, 1.0))
        data = self.random(100_000)
        tb = gr.top_block()
        source = blocks.vector_source_f(data)
        sink = blocks.vector_sink_f()
        tb.connect(source, block, sink)
        tb.run()
        np.testing.assert_allclose(np.array(sink.data()), scale_offset(data, 2.0, 1.0), rtol=1e-6, atol=1e-6)

        block.set_scale(-0.25)
        block.set_offset(7.5)
        self.assertEqual((block.scale(), block.offset()), (-0.25, 7.5))
        source.rewind()
        sink.reset()
        tb.run()
        np.testing.assert_allclose(np.array(sink.data()), scale_offset(data, -0.25, 7.5), rtol=1e-6, atol=1e-6)


if __name__ == "__main__":
    gr_unittest.run(qa_scale_offset_ff)
