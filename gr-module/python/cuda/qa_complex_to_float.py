#!/usr/bin/env python3
#
# SPDX-License-Identifier: GPL-3.0-or-later
#
"""cuda.complex_to_float against blocks.complex_to_float, with one and two outputs."""

import numpy as np
from gnuradio import blocks, gr_unittest
from gnuradio import cuda
from qa_support import flowgraph_test, run_ports


class qa_complex_to_float(flowgraph_test):
    def test_against_gnuradio(self):
        for vlen in (1, 5):
            data = self.random(np.complex64, 20_011 * vlen)
            for outputs in (1, 2):
                results = [
                    run_ports(
                        [blocks.vector_source_c(data, False, vlen)],
                        make(vlen),
                        [blocks.vector_sink_f(vlen) for _ in range(outputs)],
                    )
                    for make in (cuda.complex_to_float, blocks.complex_to_float)
                ]
                for got, want in zip(*results):
                    np.testing.assert_array_equal(got, want, f"vlen {vlen}, {outputs} outputs")


if __name__ == "__main__":
    gr_unittest.run(qa_complex_to_float)
