#!/usr/bin/env python3
#
# SPDX-License-Identifier: GPL-3.0-or-later
#
"""cuda.float_to_complex against blocks.float_to_complex, with one and two inputs."""

import numpy as np
from gnuradio import blocks, gr_unittest
from gnuradio import cuda
from qa_support import flowgraph_test, run_ports


class qa_float_to_complex(flowgraph_test):
    def test_against_gnuradio(self):
        for vlen in (1, 2):
            real, imag = self.random(np.float32, 30_011 * vlen), self.random(np.float32, 30_011 * vlen)
            for inputs in ((real,), (real, imag)):
                results = [
                    run_ports(
                        [blocks.vector_source_f(values, False, vlen) for values in inputs],
                        make(vlen),
                        [blocks.vector_sink_c(vlen)],
                    )[0]
                    for make in (cuda.float_to_complex, blocks.float_to_complex)
                ]
                np.testing.assert_array_equal(results[0], results[1], f"vlen {vlen}, {len(inputs)} inputs")


if __name__ == "__main__":
    gr_unittest.run(qa_float_to_complex)
