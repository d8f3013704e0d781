#!/usr/bin/env python3
#
# SPDX-License-Identifier: GPL-3.0-or-later
#
"""cuda.complex_to_real against blocks.complex_to_real: the real parts, exactly."""

import numpy as np
from gnuradio import blocks, gr_unittest
from gnuradio import cuda
from qa_support import flowgraph_test, run_ports


class qa_complex_to_real(flowgraph_test):
    def test_against_gnuradio(self):
        for vlen in (1, 3):
            data = self.random(np.complex64, 40_009 * vlen)
            results = [
                run_ports([blocks.vector_source_c(data, False, vlen)], make(vlen), [blocks.vector_sink_f(vlen)])[0]
                for make in (cuda.complex_to_real, blocks.complex_to_real)
            ]
            np.testing.assert_array_equal(results[0], results[1], f"vlen {vlen}")


if __name__ == "__main__":
    gr_unittest.run(qa_complex_to_real)
