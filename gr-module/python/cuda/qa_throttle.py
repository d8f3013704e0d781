#!/usr/bin/env python3
#
# SPDX-License-Identifier: GPL-3.0-or-later
#
"""throttle limits the rate and passes the data."""

import time

import numpy as np
from gnuradio import blocks, gr, gr_unittest

from gnuradio import cuda


class qa_throttle(gr_unittest.TestCase):
    def test_throttle_limits_the_rate_and_passes_the_data(self):
        data = np.random.default_rng(2).standard_normal(40_000).astype(np.float32)
        tb = gr.top_block()
        throttle = cuda.throttle(4, 100_000)
        self.assertEqual(throttle.sample_rate(), 100_000)
        sink = blocks.vector_sink_f()
        tb.connect(blocks.vector_source_f(data), throttle, sink)
        started = time.monotonic()
        tb.run()
        elapsed = time.monotonic() - started
        self.assertGreater(elapsed, 0.3)  # 40,000 items at 100,000/s take 0.4 s
        np.testing.assert_array_equal(np.array(sink.data(), dtype=np.float32), data)
        with self.assertRaises(ValueError):
            throttle.set_sample_rate(-1)


if __name__ == "__main__":
    gr_unittest.run(qa_throttle)
