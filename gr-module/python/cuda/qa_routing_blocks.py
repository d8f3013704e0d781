#!/usr/bin/env python3
#
# SPDX-License-Identifier: GPL-3.0-or-later
#
"""add, tee, fft_shift, streams_to_vector and vector_to_streams against GNU Radio's CPU
blocks and numpy on random data."""

import numpy as np
from gnuradio import blocks, gr, gr_unittest

from gnuradio import cuda


class qa_routing_blocks(gr_unittest.TestCase):
    def setUp(self):
        self.rng = np.random.default_rng(5)

    def test_add_against_gnuradio(self):
        cases = {
            "ff": (cuda.add_ff, blocks.add_ff, blocks.vector_source_f, blocks.vector_sink_f,
                   lambda n: self.rng.standard_normal(n).astype(np.float32)),
            "ss": (cuda.add_ss, blocks.add_ss, blocks.vector_source_s, blocks.vector_sink_s,
                   lambda n: self.rng.integers(-2**15, 2**15, n).astype(np.int16)),
            "ii": (cuda.add_ii, blocks.add_ii, blocks.vector_source_i, blocks.vector_sink_i,
                   lambda n: self.rng.integers(-2**31, 2**31, n).astype(np.int32)),
            "cc": (cuda.add_cc, blocks.add_cc, blocks.vector_source_c, blocks.vector_sink_c,
                   lambda n: (self.rng.standard_normal(n) + 1j * self.rng.standard_normal(n)).astype(np.complex64)),
        }
        for suffix, (gpu, cpu, source, sink, random) in cases.items():
            for inputs in (1, 3, 17):
                n = 10_007
                data = [random(n) for _ in range(inputs)]
                results = []
                # GNU Radio's add takes its input count from the connections; ours as an argument.
                for adder in (gpu(inputs), cpu()):
                    tb = gr.top_block()
                    snk = sink()
                    for port, values in enumerate(data):
                        # Each GPU input gets its own CPU source (one CPU output per GPU block).
                        tb.connect(source(values), (adder, port))
                    tb.connect(adder, snk)
                    tb.run()
                    results.append(np.array(snk.data()))
                if suffix in ("ff", "cc"):
                    np.testing.assert_allclose(results[0], results[1], rtol=1e-5, atol=1e-5, err_msg=f"{suffix} x{inputs}")
                else:
                    np.testing.assert_array_equal(results[0], results[1], err_msg=f"{suffix} x{inputs}")

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

    def test_fft_shift_matches_numpy(self):
        for size in (8, 1024, 1025):
            data = (self.rng.standard_normal(size * 33) + 1j * self.rng.standard_normal(size * 33)).astype(np.complex64)
            tb = gr.top_block()
            sink = blocks.vector_sink_c(size)
            tb.connect(blocks.vector_source_c(data, False, size), cuda.fft_shift(size), sink)
            tb.run()
            want = np.fft.fftshift(data.reshape(-1, size), axes=1).ravel()
            np.testing.assert_array_equal(np.array(sink.data(), dtype=np.complex64), want)

    def test_streams_to_vector_and_back_against_gnuradio(self):
        streams, n = 5, 20_011
        data = [self.rng.standard_normal(n).astype(np.float32) for _ in range(streams)]
        tb = gr.top_block()
        gpu_vectors, cpu_vectors = cuda.streams_to_vector(4, streams), blocks.streams_to_vector(4, streams)
        split = cuda.vector_to_streams(4, streams)
        vector_sinks = [blocks.vector_sink_f(streams) for _ in range(2)]
        stream_sinks = [blocks.vector_sink_f() for _ in range(streams)]
        tee = cuda.tee(4 * streams)
        for port, values in enumerate(data):
            tb.connect(blocks.vector_source_f(values), (gpu_vectors, port))
            tb.connect(blocks.vector_source_f(values), (cpu_vectors, port))
        tb.connect(gpu_vectors, tee)
        tb.connect((tee, 0), vector_sinks[0])
        tb.connect((tee, 1), split)
        for port, sink in enumerate(stream_sinks):
            tb.connect((split, port), sink)
        tb.connect(cpu_vectors, vector_sinks[1])
        tb.run()
        np.testing.assert_array_equal(np.array(vector_sinks[0].data()), np.array(vector_sinks[1].data()))
        for values, sink in zip(data, stream_sinks):
            np.testing.assert_array_equal(np.array(sink.data(), dtype=np.float32), values)


if __name__ == "__main__":
    gr_unittest.run(qa_routing_blocks)
