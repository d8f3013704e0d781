#!/usr/bin/env python3
#
# SPDX-License-Identifier: GPL-3.0-or-later
#
"""cuda.multiply_const_XX against blocks.multiply_const_XX on random data."""

import numpy as np
from gnuradio import blocks, gr, gr_unittest

from gnuradio import cuda

# The GPU block, GNU Radio's CPU block, source, sink, and a random-data maker per type.
TYPES = {
    "ss": (
        cuda.multiply_const_ss,
        blocks.multiply_const_ss,
        blocks.vector_source_s,
        blocks.vector_sink_s,
        lambda rng, n: rng.integers(-(2**15), 2**15, n).astype(np.int16),
        1234,
    ),
    "ii": (
        cuda.multiply_const_ii,
        blocks.multiply_const_ii,
        blocks.vector_source_i,
        blocks.vector_sink_i,
        lambda rng, n: rng.integers(-(2**31), 2**31, n).astype(np.int32),
        123457,
    ),
    "ff": (
        cuda.multiply_const_ff,
        blocks.multiply_const_ff,
        blocks.vector_source_f,
        blocks.vector_sink_f,
        lambda rng, n: rng.standard_normal(n).astype(np.float32),
        2.5,
    ),
    "cc": (
        cuda.multiply_const_cc,
        blocks.multiply_const_cc,
        blocks.vector_source_c,
        blocks.vector_sink_c,
        lambda rng, n: (rng.standard_normal(n) + 1j * rng.standard_normal(n)).astype(np.complex64),
        0.5 - 1.25j,
    ),
}


class qa_multiply_const(gr_unittest.TestCase):
    def setUp(self):
        self.rng = np.random.default_rng(7)

    def run_both(self, suffix, data, k, vlen=1):
        gpu_block, cpu_block, source, sink, _, _ = TYPES[suffix]
        results = []
        for make in (gpu_block, cpu_block):
            tb = gr.top_block()
            snk = sink(vlen)
            tb.connect(source(data, False, vlen), make(k, vlen), snk)
            tb.run()
            results.append(np.array(snk.data()))
        return results

    def test_every_type_against_gnuradio(self):
        for suffix, (_, _, _, _, random, k) in TYPES.items():
            for n in (1, 4097, 300_001):
                gpu, cpu = self.run_both(suffix, random(self.rng, n), k)
                if suffix in ("ff", "cc"):
                    np.testing.assert_allclose(gpu, cpu, rtol=1e-6, err_msg=f"{suffix} n={n}")
                else:
                    np.testing.assert_array_equal(gpu, cpu, err_msg=f"{suffix} n={n}")

    def test_vectors(self):
        data = TYPES["cc"][4](self.rng, 37 * 1000)
        gpu, cpu = self.run_both("cc", data, 3 + 1j, vlen=37)
        np.testing.assert_allclose(gpu, cpu, rtol=1e-6)

    def test_set_k(self):
        block = cuda.multiply_const_ff(2.0)
        self.assertEqual(block.k(), 2.0)
        block.set_k(-3.0)
        data = self.rng.standard_normal(10_000).astype(np.float32)
        tb = gr.top_block()
        sink = blocks.vector_sink_f()
        tb.connect(blocks.vector_source_f(data), block, sink)
        tb.run()
        np.testing.assert_allclose(np.array(sink.data()), -3.0 * data, rtol=1e-6)


if __name__ == "__main__":
    gr_unittest.run(qa_multiply_const)
