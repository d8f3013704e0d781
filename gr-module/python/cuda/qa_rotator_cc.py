#!/usr/bin/env python3
#
# SPDX-License-Identifier: GPL-3.0-or-later
#
"""cuda.rotator_cc against blocks.rotator_cc over 10^6 random samples: the exact rotation to
1e-5 of the RMS and never further from GNU Radio's output than GNU Radio's own float drift,
the same output however the stream is split, set_phase_inc, and the cmd port's scheduled
updates with their rot_phase_inc tags, and malformed cmd messages warned of and ignored."""

import threading
import time

import numpy as np
import pmt
from gnuradio import blocks, gr, gr_unittest
from gnuradio import cuda
from qa_support import assert_relative, captured_log, flowgraph_test


def cmd(**entries):
    """A cmd message: a dict of the given keys and PMT values."""
    message = pmt.make_dict()
    for key, value in entries.items():
        message = pmt.dict_add(message, pmt.intern(key), value)
    return message


# Messages GNU Radio's block throws on (ending its thread), or that would turn the output to
# NaN: each is warned of and ignored.
BAD_MESSAGES = {
    "nan inc": (cmd(inc=pmt.from_double(float("nan"))), '"inc" must be finite, got nan'),
    "inf inc": (cmd(inc=pmt.from_double(float("inf"))), '"inc" must be finite, got inf'),
    "-inf inc": (cmd(inc=pmt.from_double(float("-inf"))), '"inc" must be finite, got -inf'),
    "inc beyond a float": (cmd(inc=pmt.from_double(1e300)), '"inc" must be finite, got 1e+300'),
    "not a dict": (pmt.from_double(0.1), "not a PMT dict (0.1)"),
    "pair": (pmt.cons(pmt.intern("inc"), pmt.from_double(0.1)), "not a PMT dict ((inc . 0.1))"),
    "no inc": (cmd(freq=pmt.from_double(0.1)), 'no "inc"'),
    "string inc": (cmd(inc=pmt.intern("x")), '"inc" is x, not a number'),
    "negative offset": (
        cmd(inc=pmt.from_double(0.1), offset=pmt.from_long(-5)),
        '"offset" is -5, not a non-negative integer',
    ),
    "string offset": (
        cmd(inc=pmt.from_double(0.1), offset=pmt.intern("x")),
        '"offset" is x, not a non-negative integer',
    ),
}


def float32_angle(phase_inc):
    """The angle of GNU Radio's float phasor exp(j phase_inc): what its samples turn by."""
    return np.angle(np.exp(1j * np.float32(phase_inc)).astype(np.complex64).astype(np.complex128))


class qa_rotator_cc(flowgraph_test):
    def rotate(self, block, data, max_output=None, messages=()):
        if max_output:
            block.set_max_noutput_items(max_output)
        tb = gr.top_block()
        source, sink = blocks.vector_source_c(data), blocks.vector_sink_c()
        tb.connect(source, block, sink)
        for message in messages:
            block._post(pmt.intern("cmd"), message)
        tb.run()
        return np.array(sink.data()), [(t.offset, pmt.to_double(t.value)) for t in sink.tags()]

    def test_against_gnuradio(self):
        # GNU Radio multiplies float phasors: its own output strays from the exact rotation
        # (by its float increment's angle) by rounding that grows with the sample index, to
        # about 2e-3 of the RMS after 10^6 samples. cuda.rotator_cc must be the exact rotation
        # to 1e-5, and as close to GNU Radio's as GNU Radio is to the exact one.
        data = self.random(np.complex64, 1_000_000)
        for phase_inc in (0.01, -1.3, 3.0):
            got, _ = self.rotate(cuda.rotator_cc(phase_inc), data)
            want, _ = self.rotate(blocks.rotator_cc(phase_inc), data)
            exact = data * np.exp(1j * float32_angle(phase_inc) * np.arange(len(data)))
            assert_relative(self, got, exact, f"phase_inc {phase_inc}")
            scale = np.sqrt(np.mean(np.abs(exact) ** 2))
            gnuradio_error = np.abs(want - exact) / scale
            self.assertTrue(np.all(np.abs(got - want) / scale <= gnuradio_error + 1e-5), f"phase_inc {phase_inc}")
            split, _ = self.rotate(cuda.rotator_cc(phase_inc), data, 4099)
            np.testing.assert_allclose(split, got, rtol=0, atol=1e-6, err_msg="output depends on the call split")

    def test_set_phase_inc_and_scheduled_updates(self):
        data = self.random(np.complex64, 200_000)
        block = cuda.rotator_cc(0.5, True)
        block.set_phase_inc(0.2)
        updates = [
            pmt.dict_add(
                pmt.dict_add(pmt.make_dict(), pmt.intern("inc"), pmt.from_double(-0.7)),
                pmt.intern("offset"),
                pmt.from_uint64(123_456),
            )
        ]
        got, tags = self.rotate(block, data, 1000, updates)
        want, want_tags = self.rotate(blocks.rotator_cc(0.2, True), data, 1000, updates)
        increments = np.where(np.arange(len(data)) < 123_456, float32_angle(0.2), float32_angle(-0.7))
        exact = data * np.exp(1j * np.concatenate([[0.0], np.cumsum(increments)[:-1]]))
        assert_relative(self, got, exact)
        scale = np.sqrt(np.mean(np.abs(exact) ** 2))
        self.assertTrue(np.all(np.abs(got - want) / scale <= np.abs(want - exact) / scale + 1e-5))
        self.assertEqual(len(tags), 1)
        self.assertEqual(tags[0][0], want_tags[0][0])
        self.assertAlmostEqual(tags[0][1], want_tags[0][1], places=6)

    def run_posting(self, data, message):
        """cuda.rotator_cc(0.01) over \\p data behind a throttle, \\p message posted to cmd
        while it runs: the output, and whether the flowgraph finished within 30 s."""
        block = cuda.rotator_cc(0.01)
        tb = gr.top_block()
        sink = blocks.vector_sink_c()
        tb.connect(blocks.vector_source_c(data), blocks.throttle(gr.sizeof_gr_complex, 2e6), block, sink)
        tb.start()
        time.sleep(0.02)
        block._post(pmt.intern("cmd"), message)
        waiter = threading.Thread(target=tb.wait, daemon=True)
        waiter.start()
        waiter.join(30)
        return np.array(sink.data()), not waiter.is_alive()

    def test_bad_messages_are_warned_of_and_ignored(self):
        data = self.random(np.complex64, 400_000)
        clean, _ = self.rotate(cuda.rotator_cc(0.01), data)
        for name, (message, warning) in BAD_MESSAGES.items():
            with self.subTest(name), captured_log() as log:
                got, finished = self.run_posting(data, message)
            self.assertTrue(finished, f"{name}: the flowgraph did not finish")
            self.assertIn("cmd message ignored: " + warning, log.text, name)
            self.assertIn('expected a PMT dict with "inc"', log.text, name)
            self.assertEqual(len(got), len(data), name)
            np.testing.assert_allclose(got, clean, rtol=0, atol=1e-6, err_msg=name)

    def test_valid_update_after_bad_messages(self):
        # The bad messages change nothing: a valid scheduled update after them acts as alone.
        data = self.random(np.complex64, 100_000)
        update = cmd(inc=pmt.from_double(-0.7), offset=pmt.from_long(54_321))
        bad = [message for message, _ in BAD_MESSAGES.values()]
        with captured_log():
            got, tags = self.rotate(cuda.rotator_cc(0.2, True), data, 1000, bad + [update])
        want, want_tags = self.rotate(cuda.rotator_cc(0.2, True), data, 1000, [update])
        np.testing.assert_allclose(got, want, rtol=0, atol=1e-6)
        self.assertEqual(len(tags), 1)
        self.assertEqual(tags, want_tags)


if __name__ == "__main__":
    gr_unittest.run(qa_rotator_cc)
