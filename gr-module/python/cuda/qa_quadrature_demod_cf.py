#!/usr/bin/env python3
#
# SPDX-License-Identifier: GPL-3.0-or-later
#
"""cuda.quadrature_demod_cf against analog.quadrature_demod_cf on random data (history
2: the first output looks at the zero before the stream), over call splits, and set_gain."""

import numpy as np
from gnuradio import analog, blocks, gr_unittest
from gnuradio import cuda
from qa_support import assert_relative, flowgraph_test, run_ports


class qa_quadrature_demod_cf(flowgraph_test):
    def demod(self, make, data, gain, max_output=None):
        block = make(gain)
        if max_output:
            block.set_max_noutput_items(max_output)
        return run_ports([blocks.vector_source_c(data)], block, [blocks.vector_sink_f()])[0]

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
