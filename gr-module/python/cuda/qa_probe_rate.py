#!/usr/bin/env python3
#
# SPDX-License-Identifier: GPL-3.0-or-later
#
"""probe_rate reports the rate of a GPU stream as messages."""

import pmt
from gnuradio import blocks, gr, gr_unittest

from gnuradio import cuda


class qa_probe_rate(gr_unittest.TestCase):
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
    gr_unittest.run(qa_probe_rate)
