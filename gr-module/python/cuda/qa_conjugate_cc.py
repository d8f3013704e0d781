#!/usr/bin/env python3
#
# SPDX-License-Identifier: GPL-3.0-or-later
#
"""cuda.conjugate_cc against blocks.conjugate_cc on random data."""

import numpy as np
from gnuradio import blocks, gr_unittest
from gnuradio import cuda
from qa_support import flowgraph_test, run_ports


class qa_conjugate_cc(flowgraph_test):
    def test_against_gnuradio(self):
        data = self.random(np.complex64, 100_003)
        results = [
            run_ports([blocks.vector_source_c(data)], make(), [blocks.vector_sink_c()])[0]
            for make in (cuda.conjugate_cc, blocks.conjugate_cc)
        ]
        np.testing.assert_array_equal(results[0], results[1])


if __name__ == "__main__":
    gr_unittest.run(qa_conjugate_cc)
