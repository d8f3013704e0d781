#!/usr/bin/env python3
#
# SPDX-License-Identifier: GPL-3.0-or-later
#
"""vector_to_streams against blocks.vector_to_streams on random data."""

import numpy as np
from gnuradio import blocks, gr, gr_unittest

from gnuradio import cuda


class qa_vector_to_streams(gr_unittest.TestCase):
    def setUp(self):
        self.rng = np.random.default_rng(6)

    def test_vector_to_streams_against_gnuradio(self):
        for streams, vectors in ((1, 1000), (3, 20_011), (8, 4097)):
            data = (
                self.rng.standard_normal(streams * vectors) + 1j * self.rng.standard_normal(streams * vectors)
            ).astype(np.complex64)
            results = []
            for split in (cuda.vector_to_streams(8, streams), blocks.vector_to_streams(8, streams)):
                tb = gr.top_block()
                sinks = [blocks.vector_sink_c() for _ in range(streams)]
                tb.connect(blocks.vector_source_c(data, False, streams), split)
                for port, sink in enumerate(sinks):
                    tb.connect((split, port), sink)
                tb.run()
                results.append([np.array(sink.data(), dtype=np.complex64) for sink in sinks])
            for port in range(streams):
                np.testing.assert_array_equal(results[0][port], results[1][port], err_msg=f"{streams} streams")
                np.testing.assert_array_equal(results[0][port], data[port::streams])


if __name__ == "__main__":
    gr_unittest.run(qa_vector_to_streams)
