#!/usr/bin/env python3
#
# SPDX-License-Identifier: GPL-3.0-or-later
#
"""cuda.multiply_conjugate_cc against blocks.multiply_conjugate_cc on random data."""

import numpy as np
from gnuradio import blocks, gr_unittest
from gnuradio import cuda
from qa_support import assert_relative, flowgraph_test, run_ports


class qa_multiply_conjugate_cc(flowgraph_test):
    def test_against_gnuradio(self):
        for vlen in (1, 4):
            first, second = self.random(np.complex64, 30_011 * vlen), self.random(np.complex64, 30_011 * vlen)
            results = [
                run_ports(
                    [blocks.vector_source_c(first, False, vlen), blocks.vector_source_c(second, False, vlen)],
                    make(vlen),
                    [blocks.vector_sink_c(vlen)],
                )[0]
                for make in (cuda.multiply_conjugate_cc, blocks.multiply_conjugate_cc)
            ]
            assert_relative(self, results[0], results[1], f"vlen {vlen}")


if __name__ == "__main__":
    gr_unittest.run(qa_multiply_conjugate_cc)
