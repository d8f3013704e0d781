#!/usr/bin/env python3
#
# SPDX-License-Identifier: GPL-3.0-or-later
#
"""load, the synthetic GPU load: its output is its input, with GPU ports between GPU blocks
and with host ports (explicit copies through its staging memory) between CPU blocks, for
lengths that fill the staging memory several times over and calls of every size."""

import numpy as np
from gnuradio import blocks, gr, gr_unittest

from gnuradio import cuda
from qa_support import LENGTHS, flowgraph_test

# Over the block's 512 KiB of staging memory, in 16-byte items, and not a multiple of it.
STAGING_LAPS = 3 * 65536 * 8 // 16 + 7


class qa_load(flowgraph_test):
    def run_chain(self, data, chain, vlen=1):
        tb = gr.top_block()
        sink = blocks.vector_sink_c(vlen)
        tb.connect(blocks.vector_source_c(data, False, vlen), *chain, sink)
        tb.run()
        return np.array(sink.data(), dtype=np.complex64)

    def test_gpu_ports_pass_the_input_through(self):
        for n in LENGTHS:
            for iterations in (1, 3):
                data = self.random(np.complex64, n)
                load = cuda.load(iterations, 8)
                got = self.run_chain(data, [cuda.copy(8), load, cuda.multiply_const_cc(1j)])
                np.testing.assert_array_equal(got, data * 1j, err_msg=f"{n} items, {iterations} iterations")

    def test_host_ports_pass_the_input_through(self):
        for n in LENGTHS + (STAGING_LAPS,):
            data = self.random(np.complex64, 2 * n)
            load = cuda.load(2, 16, False)
            got = self.run_chain(data, [load], vlen=2)
            np.testing.assert_array_equal(got, data, err_msg=f"{n} items")

    def test_chains_of_loads_with_small_calls(self):
        data = self.random(np.complex64, 100_003)
        chain = [cuda.load(1, 8, False), cuda.copy(8), cuda.load(2, 8), cuda.load(1, 8)]
        for block in chain:
            block.set_max_noutput_items(1021)
        np.testing.assert_array_equal(self.run_chain(data, chain), data)

    def test_restart(self):
        data = self.random(np.complex64, 10_007)
        load = cuda.load(1, 8, False)
        for _ in range(2):
            np.testing.assert_array_equal(self.run_chain(data, [load]), data)


if __name__ == "__main__":
    gr_unittest.run(qa_load)
