#!/usr/bin/env python3
#
# SPDX-License-Identifier: GPL-3.0-or-later
#
"""cuda.multiply_ff/cc against blocks.multiply_ff/cc on random data, 1 to 3 inputs."""

import numpy as np
from gnuradio import blocks, gr, gr_unittest
from gnuradio import cuda
from qa_support import flowgraph_test


def run(sources, block, sinks):
    """Connects sources[i] to input i of block and output j to sinks[j], runs, returns the
    sinks' data as arrays."""
    tb = gr.top_block()
    for port, source in enumerate(sources):
        tb.connect(source, (block, port))
    for port, sink in enumerate(sinks):
        tb.connect((block, port), sink)
    tb.run()
    return [np.array(sink.data()) for sink in sinks]


def assert_relative(test, got, want, message=""):
    """Agreement to 1e-5 of the output's RMS, as the CPU block gives it."""
    test.assertEqual(len(got), len(want), message)
    scale = max(float(np.sqrt(np.mean(np.abs(want) ** 2))), 1e-30)
    test.assertLess(float(np.max(np.abs(got - want), initial=0.0)) / scale, 1e-5, message)


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
                        run(
                            [source(values, False, vlen) for values in data],
                            make(vlen),
                            [sink(vlen)],
                        )[0]
                        for make in (getattr(cuda, "multiply_" + suffix), getattr(blocks, "multiply_" + suffix))
                    ]
                    assert_relative(self, results[0], results[1], f"{suffix} x{inputs} vlen {vlen}")


if __name__ == "__main__":
    gr_unittest.run(qa_multiply)
