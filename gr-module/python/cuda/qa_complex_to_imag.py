#!/usr/bin/env python3
#
# SPDX-License-Identifier: GPL-3.0-or-later
#
"""cuda.complex_to_imag against blocks.complex_to_imag: the imaginary parts, exactly."""

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


class qa_complex_to_imag(flowgraph_test):
    def test_against_gnuradio(self):
        for vlen in (1, 3):
            data = self.random(np.complex64, 40_009 * vlen)
            results = [
                run([blocks.vector_source_c(data, False, vlen)], make(vlen), [blocks.vector_sink_f(vlen)])[0]
                for make in (cuda.complex_to_imag, blocks.complex_to_imag)
            ]
            np.testing.assert_array_equal(results[0], results[1], f"vlen {vlen}")


if __name__ == "__main__":
    gr_unittest.run(qa_complex_to_imag)
