#!/usr/bin/env python3
#
# SPDX-License-Identifier: GPL-3.0-or-later
#
"""throttle limits the rate and passes the data; probe_rate reports the rate as messages."""

import time

import numpy as np
import pmt
from gnuradio import blocks, gr, gr_unittest

from gnuradio import cuda


class qa_rate_blocks(gr_unittest.TestCase):
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

    def test_probe_rate_publishes_the_rate(self):
        tb = gr.top_block()
        probe = cuda.probe_rate(4, 50.0, 0.5, "gpu")
        messages = blocks.message_debug()
        tb.connect(cuda.null_source(4), cuda.head(4, 60_000), cuda.throttle(4, 200_000), probe)
        tb.msg_connect(probe, "rate", messages, "store")
        tb.run()
        self.assertGreater(messages.num_messages(), 0)
        rates = pmt.car(messages.get_message(messages.num_messages() - 1))
        now = pmt.to_double(pmt.dict_ref(rates, pmt.intern("rate_now"), pmt.PMT_NIL))
        self.assertGreater(now, 50_000)
        self.assertLess(now, 400_000)
        self.assertEqual(pmt.symbol_to_string(pmt.dict_ref(rates, pmt.intern("name"), pmt.PMT_NIL)), "gpu")
        self.assertGreater(probe.rate(), 0)


if __name__ == "__main__":
    gr_unittest.run(qa_rate_blocks)
