#!/usr/bin/env python3
#
# SPDX-License-Identifier: GPL-3.0-or-later
#
"""cuda.freq_xlating_fir_filter_ccc/ccf against filter.freq_xlating_fir_filter_xxx and an
exact (float64) reference on random data: decimations 1 to 5, retuning while running by
setter and by message, with the "freq" tag and the phase kept continuous as GNU Radio keeps
it.

The exact reference is GNU Radio's arithmetic without its rotator's rounding: the band-pass
taps as GNU Radio computes them, an exact convolution, and the rotation e^(i(phase0 + j
increment)) with GNU Radio's start phase and increment. GNU Radio's own rotator multiplies
a float phase by a float increment every output and drifts from that by up to about 1e-7
radians per output, so the comparison with GNU Radio's block takes the magnitudes over the
whole run (the rotation does not change them) and the complex values over the first
outputs only."""

import math
import time

import numpy as np
import pmt
from gnuradio import blocks, filter, gr

from gnuradio import cuda
from qa_support import (
    captured_log,
    check_new_taps_shift_as_gnuradio,
    convolve,
    flowgraph_test,
    relative_error,
    tag,
    tag_list,
)

TOLERANCE = 1e-5
SAMPLE_RATE = 1e6


def band_pass_taps(taps, center_freq):
    """GNU Radio's composite taps, in float32 as it computes them."""
    omega = np.float32(2 * math.pi * center_freq / SAMPLE_RATE)
    angles = np.arange(len(taps), dtype=np.float32) * omega
    return np.asarray(taps, np.complex64) * np.exp(1j * angles.astype(np.float64)).astype(np.complex64)


def exact(data, taps, decimation, center_freq, start_phase=None, first=0, count=None):
    """Outputs first .. first + count of the translated, filtered, decimated data."""
    omega = 2 * math.pi * center_freq / SAMPLE_RATE
    if start_phase is None:
        start_phase = -omega * (len(taps) - 1) / 2
    filtered = convolve(data, band_pass_taps(taps, center_freq))[::decimation][first:]
    if count is not None:
        filtered = filtered[:count]
    return filtered * np.exp(1j * (start_phase - omega * decimation * np.arange(len(filtered))))


class qa_freq_xlating_fir_filter(flowgraph_test):
    def run_block(self, block, data, tags=()):
        sink = blocks.vector_sink_c()
        tb = gr.top_block()
        tb.connect(blocks.vector_source_c(data, False, 1, list(tags)), block, sink)
        tb.run()
        return np.array(sink.data()), sink

    def test_against_gnuradio_and_the_exact_output(self):
        data = self.random(np.complex64, 1_000_000)
        for suffix, complex_taps in (("ccf", False), ("ccc", True)):
            for decimation in (1, 2, 5):
                with self.subTest(type=suffix, decimation=decimation):
                    taps = list(filter.firdes.low_pass(1, SAMPLE_RATE, 40e3, 20e3))
                    if complex_taps:
                        taps = list(np.complex64(taps) * np.exp(0.3j))
                    center = -123_456.7 if complex_taps else 201_003.1
                    gpu = getattr(cuda, f"freq_xlating_fir_filter_{suffix}")(decimation, taps, center, SAMPLE_RATE)
                    cpu = getattr(filter, f"freq_xlating_fir_filter_{suffix}")(decimation, taps, center, SAMPLE_RATE)
                    got, _ = self.run_block(gpu, data)
                    want, _ = self.run_block(cpu, data)
                    self.assertEqual(len(got), len(want))
                    self.assertLess(relative_error(got, exact(data, taps, decimation, center)), TOLERANCE)
                    self.assertLess(relative_error(np.abs(got), np.abs(want)), TOLERANCE)
                    # GNU Radio's rotator drifts by less than 1e-4 radians over its first 200 outputs.
                    self.assertLess(relative_error(got[:200], want[:200]), 1e-4)

    def test_tags_move_as_gnuradio_moves_them(self):
        data = self.random(np.complex64, 40_000)
        tags = [tag(int(offset), number) for number, offset in enumerate(self.rng.integers(0, 40_000, 25))]
        taps = list(self.rng.standard_normal(33).astype(np.float32))
        for decimation in (1, 3):
            _, gpu_sink = self.run_block(
                cuda.freq_xlating_fir_filter_ccf(decimation, taps, 1e5, SAMPLE_RATE), data, tags
            )
            _, cpu_sink = self.run_block(
                filter.freq_xlating_fir_filter_ccf(decimation, taps, 1e5, SAMPLE_RATE), data, tags
            )
            self.assertEqual(tag_list(gpu_sink), tag_list(cpu_sink))

    def retune_while_running(self, retune, new_center):
        """Runs 400k samples, retunes with retune(block) after 50k outputs, and checks the
        "freq" tag and the output on both sides of it. The throttle stretches the run to a
        second, so that the retune comes before the end on a busy machine too."""
        data = self.random(np.complex64, 400_000)
        taps = list(filter.firdes.low_pass(1, SAMPLE_RATE, 40e3, 20e3))
        block = cuda.freq_xlating_fir_filter_ccf(2, taps, 100e3, SAMPLE_RATE)
        block.set_max_noutput_items(1000)
        sink = blocks.vector_sink_c()
        tb = gr.top_block()
        tb.connect(blocks.vector_source_c(data), blocks.throttle(gr.sizeof_gr_complex, 4e5), block, sink)
        tb.start()
        while len(sink.data()) < 50_000:
            time.sleep(0.01)
        retune(block)
        tb.wait()
        got = np.array(sink.data())
        self.assertEqual(len(got), len(data) // 2)
        freq_tags = [t for t in sink.tags() if pmt.symbol_to_string(t.key) == "freq"]
        self.assertEqual(len(freq_tags), 1, "one freq tag where the new frequency applies")
        self.assertAlmostEqual(pmt.to_double(freq_tags[0].value), new_center)
        switch = freq_tags[0].offset
        self.assertGreater(switch, 45_000)
        # Before the switch the old frequency; after it the new one, with the phase turned
        # back by the filter's delay times the change, as GNU Radio turns it.
        before = exact(data, taps, 2, 100e3, count=switch)
        self.assertLess(relative_error(got[:switch], before), TOLERANCE)
        old_omega, new_omega = (2 * math.pi * f / SAMPLE_RATE for f in (100e3, new_center))
        phase = -old_omega * (len(taps) - 1) / 2 - old_omega * 2 * switch
        phase -= (new_omega - old_omega) * (len(taps) - 1) / 2
        after = exact(data, taps, 2, new_center, start_phase=phase, first=switch)
        self.assertLess(relative_error(got[switch:], after), TOLERANCE)
        self.assertAlmostEqual(block.center_freq(), new_center)

    def test_set_center_freq_while_running(self):
        self.retune_while_running(lambda block: block.set_center_freq(-250e3), -250e3)

    def test_freq_message_retunes(self):
        message = pmt.dict_add(pmt.make_dict(), pmt.intern("freq"), pmt.from_double(30e3))
        self.retune_while_running(lambda block: block._post(pmt.intern("freq"), message), 30e3)

    def test_pair_message_retunes_and_other_messages_are_ignored(self):
        block = cuda.freq_xlating_fir_filter_ccc(1, [1, 1j], 0, SAMPLE_RATE)
        tb = gr.top_block()
        tb.connect(blocks.null_source(gr.sizeof_gr_complex), block, blocks.null_sink(gr.sizeof_gr_complex))
        tb.start()
        ignored = (pmt.intern("not a frequency"), pmt.cons(pmt.intern("freq"), pmt.intern("fast")), pmt.PMT_NIL)
        huge = pmt.init_u8vector(1 << 20, [7] * (1 << 20))
        with captured_log() as log:
            block._post(pmt.intern("freq"), huge)
            for message in ignored:
                block._post(pmt.intern("freq"), message)
            block._post(pmt.intern("freq"), pmt.cons(pmt.intern("freq"), pmt.from_double(12e3)))
            deadline = time.monotonic() + 30
            while block.center_freq() != 12e3 and time.monotonic() < deadline:
                time.sleep(0.01)
            tb.stop()
            tb.wait()
        self.assertAlmostEqual(block.center_freq(), 12e3)
        # Each is warned of with what was expected (GNU Radio's block ignores them in silence).
        for message in ignored:
            self.assertIn(
                'freq message ignored: expected a PMT dict with "freq" or a pair whose cdr is the frequency in Hz, '
                "got " + pmt.write_string(message),
                log.text,
            )
        # A megabyte of a message is quoted in 120 characters and its length.
        self.assertIn(pmt.write_string(huge)[:120] + "... (", log.text)
        self.assertLess(len(log.text), 5000)

    def test_set_decimation_turns_the_rotation_with_it(self):
        # The outputs' rotation advances by the decimation's worth of input per output: after
        # set_decimation() as for a block built with that decimation.
        data = self.random(np.complex64, 200_000)
        taps = list(filter.firdes.low_pass(1, SAMPLE_RATE, 40e3, 20e3))
        block = cuda.freq_xlating_fir_filter_ccf(1, taps, 201_003.1, SAMPLE_RATE)
        block.set_decimation(4)
        got, _ = self.run_block(block, data)
        self.assertEqual(len(got), len(data) // 4)
        self.assertLess(relative_error(got, exact(data, taps, 4, 201_003.1)), TOLERANCE)

    def test_taps_of_another_length_while_running_shift_as_gnuradio(self):
        # The GPU block skips what GNU Radio's skips, whatever history its own method needs;
        # GNU Radio's block runs the same check. At 0 Hz the filter is the taps alone.
        data = self.random(np.complex64, 400_000)
        for make in (cuda.freq_xlating_fir_filter_ccf, filter.freq_xlating_fir_filter_ccf):
            with self.subTest(block=make.__module__):
                check_new_taps_shift_as_gnuradio(
                    self,
                    lambda taps: make(1, taps, 0.0, SAMPLE_RATE),
                    np.float32,
                    data,
                    ((31, 301), (301, 31)),
                    TOLERANCE,
                )

    def test_set_taps_keeps_the_frequency(self):
        block = cuda.freq_xlating_fir_filter_ccf(1, [1.0, 2.0], 5e3, SAMPLE_RATE)
        block.set_taps([3.0, 4.0, 5.0])
        np.testing.assert_array_equal(block.taps(), [3.0, 4.0, 5.0])
        self.assertEqual(block.center_freq(), 5e3)
        with self.assertRaisesRegex(ValueError, "center_freq must be finite"):
            block.set_center_freq(math.nan)


if __name__ == "__main__":
    from gnuradio import gr_unittest

    gr_unittest.run(qa_freq_xlating_fir_filter)
