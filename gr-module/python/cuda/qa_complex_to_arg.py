#!/usr/bin/env python3
#
# SPDX-License-Identifier: GPL-3.0-or-later
#
"""cuda.complex_to_arg against blocks.complex_to_arg (GNU Radio fast_atan2f), with the
axes, zero and every octant among the random data."""

import numpy as np
from gnuradio import blocks, gr_unittest
from gnuradio import cuda
from qa_support import flowgraph_test, run_ports


class qa_complex_to_arg(flowgraph_test):
    def test_against_gnuradio(self):
        edges = np.array([0, 1, -1, 1j, -1j, 1 + 1j, -1 - 1j, 1e-3 + 1j, 1 + 1e-3j], dtype=np.complex64)
        for vlen in (1, 3):
            data = np.concatenate([edges] * vlen + [self.random(np.complex64, 100_000 * vlen)])
            results = [
                run_ports([blocks.vector_source_c(data, False, vlen)], make(vlen), [blocks.vector_sink_f(vlen)])[0]
                for make in (cuda.complex_to_arg, blocks.complex_to_arg)
            ]
            np.testing.assert_allclose(results[0], results[1], rtol=0, atol=1e-6, err_msg=f"vlen {vlen}")


if __name__ == "__main__":
    gr_unittest.run(qa_complex_to_arg)
