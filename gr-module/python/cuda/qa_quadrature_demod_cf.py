#!/usr/bin/env python3
#
# SPDX-License-Identifier: GPL-3.0-or-later
#
"""cuda.quadrature_demod_cf against analog.quadrature_demod_cf on random data (history
2: the first output looks at the zero before the stream), over call splits, and set_gain."""

import numpy as np
from gnuradio import analog, blocks, gr, gr_unittest
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


class qa_quadrature_demod_cf(flowgraph_test):
    def demod(self, make, data, gain, max_output=None):
        block = make(gain)
        if max_output:
            block.set_max_noutput_items(max_output)
        return run([blocks.vector_source_c(data)], block, [blocks.vector_sink_f()])[0]

    def test_against_gnuradio(self):
        data = self.random(np.complex64, 1_000_003)
        for gain in (1.0, -2.5):
            got = self.demod(cuda.quadrature_demod_cf, data, gain)
            want = self.demod(analog.quadrature_demod_cf, data, gain)
            assert_relative(self, got, want, f"gain {gain}")
            np.testing.assert_array_equal(self.demod(cuda.quadrature_demod_cf, data, gain, 1000), got)

    def test_set_gain(self):
        block = cuda.quadrature_demod_cf(1.0)
        block.set_gain(3.0)
        self.assertEqual(block.gain(), 3.0)


if __name__ == "__main__":
    gr_unittest.run(qa_quadrature_demod_cf)
