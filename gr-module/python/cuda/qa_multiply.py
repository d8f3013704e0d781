#!/usr/bin/env python3
#
# SPDX-License-Identifier: GPL-3.0-or-later
#
"""cuda.multiply_ff/cc against blocks.multiply_ff/cc on random data, 1 to 3 inputs."""

import numpy as np
from gnuradio import blocks, gr_unittest
from gnuradio import cuda
from qa_support import assert_relative, flowgraph_test, run_ports


class qa_multiply(flowgraph_test):
    def test_against_gnuradio(self):
        for suffix, source, sink, dtype in (
            ("ff", blocks.vector_source_f, blocks.vector_sink_f, np.float32),
            ("cc", blocks.vector_source_c, blocks.vector_sink_c, np.complex64),
        ):
            for inputs in (1, 2, 3):
                for vlen in (1, 3):
                    n = 10_007 * vlen
                    data = [self.random(dtype, n) for _ in range(inputs)]
                    results = [
                        run_ports(
                            [source(values, False, vlen) for values in data],
                            make(vlen),
                            [sink(vlen)],
                        )[0]
                        for make in (getattr(cuda, "multiply_" + suffix), getattr(blocks, "multiply_" + suffix))
                    ]
                    assert_relative(self, results[0], results[1], f"{suffix} x{inputs} vlen {vlen}")


if __name__ == "__main__":
    gr_unittest.run(qa_multiply)
