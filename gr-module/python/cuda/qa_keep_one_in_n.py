#!/usr/bin/env python3
#
# SPDX-License-Identifier: GPL-3.0-or-later
#
"""cuda.keep_one_in_n against blocks.keep_one_in_n: the items kept, the tags moved
(offsets scaled by the float 1/n), any item size, n from 1 to larger than a call, output
items limited per call, and set_n."""

import numpy as np
import pmt
from gnuradio import blocks, gr, gr_unittest
from gnuradio import cuda
from qa_support import flowgraph_test


def tag(offset):
    made = gr.tag_t()
    made.offset, made.key, made.value = offset, pmt.intern(f"t{offset}"), pmt.PMT_T
    return made


class qa_keep_one_in_n(flowgraph_test):
    def flowgraph(self, make, data, itemsize, n, tags, max_output=None):
        tb = gr.top_block()
        source = blocks.vector_source_b(data, False, itemsize, tags)
        block = make(itemsize, n)
        if max_output:
            block.set_max_noutput_items(max_output)
        sink = blocks.vector_sink_b(itemsize)
        tb.connect(source, block, sink)
        tb.run()
        return np.array(sink.data()), sorted((t.offset, pmt.symbol_to_string(t.key)) for t in sink.tags())

    def test_against_gnuradio(self):
        for itemsize in (1, 4, 8, 12):
            for n in (1, 2, 7, 1000, 20_000):
                items = 50_003
                data = self.rng.integers(0, 256, items * itemsize, dtype=np.uint8).tolist()
                tags = [
                    gr.tag_utils.python_to_tag((int(o), pmt.intern(f"t{o}"), pmt.PMT_T)) for o in (0, 5, 6999, 40_000)
                ]
                for max_output in (None, 3):
                    got = self.flowgraph(cuda.keep_one_in_n, data, itemsize, n, tags, max_output)
                    want = self.flowgraph(blocks.keep_one_in_n, data, itemsize, n, tags, max_output)
                    np.testing.assert_array_equal(got[0], want[0], f"itemsize {itemsize}, n {n}")
                    self.assertEqual(got[1], want[1], f"tags, itemsize {itemsize}, n {n}")

    def test_set_n_restarts_the_count(self):
        block = cuda.keep_one_in_n(4, 3)
        block.set_n(5)
        data = np.arange(1000, dtype=np.int32)
        tb = gr.top_block()
        sink = blocks.vector_sink_i()
        tb.connect(blocks.vector_source_i(data.tolist()), block, sink)
        tb.run()
        np.testing.assert_array_equal(sink.data(), data[4::5])


if __name__ == "__main__":
    gr_unittest.run(qa_keep_one_in_n)
