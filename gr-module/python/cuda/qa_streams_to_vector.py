#!/usr/bin/env python3
#
# SPDX-License-Identifier: GPL-3.0-or-later
#
"""streams_to_vector against blocks.streams_to_vector, and back through vector_to_streams."""

import numpy as np
from gnuradio import blocks, gr, gr_unittest

from gnuradio import cuda


class qa_streams_to_vector(gr_unittest.TestCase):
    def setUp(self):
        self.rng = np.random.default_rng(5)

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
    gr_unittest.run(qa_streams_to_vector)
