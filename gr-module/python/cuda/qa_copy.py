#!/usr/bin/env python3
#
# SPDX-License-Identifier: GPL-3.0-or-later
#
"""cuda.copy on every edge type: CPU -> GPU -> CPU, GPU -> GPU chains, fan-out, restarts."""

import numpy as np
import pmt
from gnuradio import blocks, gr, gr_unittest

from gnuradio import cuda


class qa_copy(gr_unittest.TestCase):
    def setUp(self):
        self.rng = np.random.default_rng(1234)

    def run_chain(self, data, dtype, itemsize, length):
        tb = gr.top_block()
        source = blocks.vector_source_c(data) if dtype == np.complex64 else blocks.vector_source_f(data)
        sink = blocks.vector_sink_c() if dtype == np.complex64 else blocks.vector_sink_f()
        chain = [cuda.copy(itemsize) for _ in range(length)]
        tb.connect(source, chain[0])
        for a, b in zip(chain, chain[1:]):
            tb.connect(a, b)
        tb.connect(chain[-1], sink)
        tb.run()
        return np.array(sink.data(), dtype=dtype)

    def test_cpu_gpu_cpu_float(self):
        for n in (1, 1000, 100_003, 1_000_001):
            data = self.rng.standard_normal(n).astype(np.float32)
            np.testing.assert_array_equal(self.run_chain(data, np.float32, 4, 1), data)

    def test_chain_of_twenty_complex(self):
        n = 300_007
        data = (self.rng.standard_normal(n) + 1j * self.rng.standard_normal(n)).astype(np.complex64)
        np.testing.assert_array_equal(self.run_chain(data, np.complex64, 8, 20), data)

    def test_gpu_fan_out_to_three_readers(self):
        n = 200_003
        data = self.rng.standard_normal(n).astype(np.float32)
        tb = gr.top_block()
        source = blocks.vector_source_f(data)
        ingress = cuda.copy(4)
        branches = [cuda.copy(4) for _ in range(3)]
        sinks = [blocks.vector_sink_f() for _ in range(3)]
        tb.connect(source, ingress)
        for branch, sink in zip(branches, sinks):
            tb.connect(ingress, branch, sink)
        tb.run()
        for sink in sinks:
            np.testing.assert_array_equal(np.array(sink.data(), dtype=np.float32), data)

    def test_tags_pass_through(self):
        n = 50_000
        data = self.rng.standard_normal(n).astype(np.float32)
        tags = [gr.tag_utils.python_to_tag((i * 997, pmt.intern("k"), pmt.from_long(i))) for i in range(40)]
        tb = gr.top_block()
        source = blocks.vector_source_f(data, False, 1, tags)
        sink = blocks.vector_sink_f()
        tb.connect(source, cuda.copy(4), cuda.copy(4), sink)
        tb.run()
        got = [(t.offset, pmt.to_long(t.value)) for t in sink.tags()]
        self.assertEqual(got, [(i * 997, i) for i in range(40)])

    def test_cpu_readers_with_history_and_decimation(self):
        # A FIR (history 64) and a decimator read the device-to-host buffer.
        from gnuradio import filter as gr_filter

        n = 400_009
        data = self.rng.standard_normal(n).astype(np.float32)
        taps = self.rng.standard_normal(64).astype(np.float32)
        tb = gr.top_block()
        source = blocks.vector_source_f(data)
        gpu = cuda.copy(4)
        fir, fir_sink = gr_filter.fir_filter_fff(1, taps), blocks.vector_sink_f()
        keep, keep_sink = blocks.keep_one_in_n(4, 7), blocks.vector_sink_f()
        reference_fir, reference_sink = gr_filter.fir_filter_fff(1, taps), blocks.vector_sink_f()
        tb.connect(source, gpu)
        tb.connect(gpu, fir, fir_sink)
        tb.connect(gpu, keep, keep_sink)
        tb.connect(blocks.vector_source_f(data), reference_fir, reference_sink)
        tb.run()
        # Not bit-exact: VOLK's dot product sums in a different order for differently aligned
        # input, and the host ring's alignment differs from a plain CPU buffer's.
        np.testing.assert_allclose(np.array(fir_sink.data()), np.array(reference_sink.data()), rtol=1e-5, atol=1e-4)
        np.testing.assert_array_equal(np.array(keep_sink.data(), dtype=np.float32), data[6::7])

    def test_odd_output_multiple(self):
        n = 333_333
        data = self.rng.standard_normal(n).astype(np.float32)
        tb = gr.top_block()
        source, sink = blocks.vector_source_f(data), blocks.vector_sink_f()
        first, second = cuda.copy(4), cuda.copy(4)
        first.set_output_multiple(999)
        tb.connect(source, first, second, sink)
        tb.run()
        expected = data[: len(data) // 999 * 999]
        np.testing.assert_array_equal(np.array(sink.data(), dtype=np.float32), expected)

    def test_restart_many_times(self):
        data = self.rng.standard_normal(10_000).astype(np.float32)
        for _ in range(20):
            np.testing.assert_array_equal(self.run_chain(data, np.float32, 4, 2), data)


if __name__ == "__main__":
    gr_unittest.run(qa_copy)
