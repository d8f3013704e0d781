#!/usr/bin/env python3
#
# SPDX-License-Identifier: GPL-3.0-or-later
#
"""null_source gives zeros, to GPU and CPU blocks."""

import numpy as np
from gnuradio import blocks, gr, gr_unittest

from gnuradio import cuda


class qa_null_source(gr_unittest.TestCase):
    def test_null_source_gives_zeros_to_the_cpu(self):
        tb = gr.top_block()
        sink = blocks.vector_sink_f()
        tb.connect(cuda.null_source(4), cuda.head(4, 123_457), sink)
        tb.run()
        np.testing.assert_array_equal(np.array(sink.data(), dtype=np.float32), np.zeros(123_457, np.float32))


if __name__ == "__main__":
    gr_unittest.run(qa_null_source)
