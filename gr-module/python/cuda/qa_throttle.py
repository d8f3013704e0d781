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

    def test_a_tiny_rate_holds_the_items_and_stop_interrupts_the_wait(self):
        # The next item of rate 1e-30 is 10^30 s away (more nanoseconds than a clock
        # holds); the block waits, as GNU Radio's does, in a sleep that stop() ends.
        for rate in (1e-30, 1e-12, 0.05):
            with self.subTest(rate=rate):
                tb = gr.top_block()
                head = blocks.head(gr.sizeof_float, 10**12)
                tb.connect(blocks.null_source(gr.sizeof_float), cuda.throttle(4, rate), head)
                tb.connect(head, blocks.null_sink(gr.sizeof_float))
                tb.start()
                time.sleep(0.5)
                self.assertLessEqual(head.nitems_written(0), 1)
                stopping = time.monotonic()
                tb.stop()
                tb.wait()
                self.assertLess(time.monotonic() - stopping, 2.0)


if __name__ == "__main__":
    gr_unittest.run(qa_throttle)
