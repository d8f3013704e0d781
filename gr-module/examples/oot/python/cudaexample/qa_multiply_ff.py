#!/usr/bin/env python3
#
# SPDX-License-Identifier: GPL-3.0-or-later
#
"""cudaexample.multiply_ff, a C++ block in the reference gr-cuda module's style (the
gr::cuda_block mixin and a kernel on d_stream, with wait_for_inputs / mark_outputs_ready around
it or, as the reference's automatically synchronised blocks, without), against numpy: alone,
between gr-cuda's blocks, next to each other and next to a reference-style Python block."""

import numpy as np
from gnuradio import blocks, cuda, gr, gr_unittest

from gnuradio import cudaexample


class qa_multiply_ff(gr_unittest.TestCase):
    def setUp(self):
        self.rng = np.random.default_rng(12)

    def run_graph(self, data, *chain):
        tb = gr.top_block()
        sink = blocks.vector_sink_f()
        tb.connect(blocks.vector_source_f(data), *chain, sink)
        tb.run()
        return np.array(sink.data(), dtype=np.float32)

    def test_against_numpy(self):
        for n in (1, 4097, 300_001):
            for manual_sync in (True, False):
                data = self.rng.standard_normal(n).astype(np.float32)
                result = self.run_graph(data, cudaexample.multiply_ff(-2.5, manual_sync))
                np.testing.assert_allclose(
                    result, data * np.float32(-2.5), rtol=1e-6, err_msg=f"n={n}, manual_sync {manual_sync}"
                )

    def test_between_gpu_blocks_with_small_calls(self):
        # GPU to GPU on both sides, next to stream-ordered blocks of gr-cuda and of this
        # module, with calls small enough to wrap every ring many times.
        data = self.rng.standard_normal(250_007).astype(np.float32)
        chain = [
            cuda.copy(4),
            cudaexample.multiply_ff(3.0),
            cuda.multiply_const_ff(0.5),
            cudaexample.multiply_ff(-1.0),
            cudaexample.scale_offset_ff(2.0, 1.0),
            cuda.multiply_const_py(0.25, np.float32),
        ]
        for block in chain:
            block.set_max_noutput_items(3001)
        result = self.run_graph(data, *chain)
        expected = (data * 3.0 * 0.5 * -1.0 * 2.0 + 1.0) * 0.25
        np.testing.assert_allclose(result, expected, rtol=1e-5, atol=1e-6)

    def test_without_the_helpers_with_small_calls(self):
        # The buffers order a mixin block that never calls the helpers: after and before
        # stream-ordered blocks, after another such block, into a CPU block and a GPU sink.
        data = self.rng.standard_normal(250_007).astype(np.float32)
        chain = [
            cudaexample.multiply_ff(3.0, False),
            cuda.multiply_const_ff(0.5),
            cudaexample.multiply_ff(-1.0, False),
            cudaexample.multiply_ff(2.0, False),
            cudaexample.scale_offset_ff(1.0, 1.0),
            cudaexample.multiply_ff(0.25, False),
        ]
        for block in chain:
            block.set_max_noutput_items(3001)
        tb = gr.top_block()
        sink, gpu_sink = blocks.vector_sink_f(), cuda.null_sink(4)
        tb.connect(blocks.vector_source_f(data), cuda.copy(4), *chain, sink)
        tb.connect(chain[2], gpu_sink)
        tb.run()
        expected = (data * 3.0 * 0.5 * -1.0 * 2.0 + 1.0) * 0.25
        np.testing.assert_allclose(np.array(sink.data()), expected, rtol=1e-5, atol=1e-6)

    def test_set_k(self):
        block = cudaexample.multiply_ff(1.0)
        block.set_k(4.0)
        self.assertEqual(block.k(), 4.0)
        data = self.rng.standard_normal(10_000).astype(np.float32)
        np.testing.assert_allclose(self.run_graph(data, block), data * 4.0, rtol=1e-6)


if __name__ == "__main__":
    gr_unittest.run(qa_multiply_ff)
