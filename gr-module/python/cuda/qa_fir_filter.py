#!/usr/bin/env python3
#
# SPDX-License-Identifier: GPL-3.0-or-later
#
"""cuda.fir_filter_ccc/ccf/fff against filter.fir_filter_xxx and an exact (float64)
convolution on random data: every type, odd tap counts on both sides of the switch from dot
products to overlap-save, decimations 1 to 16, lengths that are multiples of nothing, tags,
call splits, new taps while running (of another length: shifted as GNU Radio shifts), and a
restart."""

import time

import numpy as np
from gnuradio import blocks, filter, gr

from gnuradio import cuda
from qa_support import (
    check_new_taps_shift_as_gnuradio,
    convolve,
    flowgraph_test,
    relative_error,
    tag,
    tag_list,
)

TOLERANCE = 1e-5  # relative to the output's norm
# GPU block, CPU block, source, sink, whether input and taps are complex
TYPES = {
    "ccc": (cuda.fir_filter_ccc, filter.fir_filter_ccc, blocks.vector_source_c, blocks.vector_sink_c, True, True),
    "ccf": (cuda.fir_filter_ccf, filter.fir_filter_ccf, blocks.vector_source_c, blocks.vector_sink_c, True, False),
    "fff": (cuda.fir_filter_fff, filter.fir_filter_fff, blocks.vector_source_f, blocks.vector_sink_f, False, False),
}
# The block computes dot products up to grcuda_fir_filter_direct_tap_limit(types, decimation)
# taps (at decimation 1: 48 for ccc, 128 for ccf and fff; 256 to 768 when decimating), with one
# of three kernels (the rows kernel for decimating filters of few taps per phase), overlap-save
# beyond: these counts and DECIMATIONS fall on every side.
TAP_COUNTS = (1, 7, 47, 97, 129, 301, 1025)
DECIMATIONS = (1, 2, 3, 7, 8, 16, 33)


class qa_fir_filter(flowgraph_test):
    def samples(self, complex_values, n):
        return self.random(np.complex64 if complex_values else np.float32, n)

    def run_filter(self, make_filter, suffix, data, tags=(), max_noutput_items=None):
        _, _, source_of, sink_of, _, _ = TYPES[suffix]
        block = make_filter()
        if max_noutput_items:
            block.set_max_noutput_items(max_noutput_items)
        sink = sink_of()
        tb = gr.top_block()
        tb.connect(source_of(data, False, 1, list(tags)), block, sink)
        tb.run()
        return np.array(sink.data()), sink

    def test_every_type_against_gnuradio_and_the_exact_output(self):
        for suffix, (gpu, cpu, _, _, complex_input, complex_taps) in TYPES.items():
            for taps_count in TAP_COUNTS:
                for decimation in DECIMATIONS:
                    with self.subTest(type=suffix, taps=taps_count, decimation=decimation):
                        data = self.samples(complex_input, 20_011)
                        taps = list(self.samples(complex_taps, taps_count))
                        got, _ = self.run_filter(lambda: gpu(decimation, taps), suffix, data)
                        want, _ = self.run_filter(lambda: cpu(decimation, taps), suffix, data)
                        exact = convolve(data, taps)[::decimation][: len(want)]
                        self.assertEqual(len(got), len(want))
                        self.assertLess(relative_error(got, want), TOLERANCE)
                        self.assertLess(relative_error(got, exact), TOLERANCE)

    def test_a_million_samples(self):
        for taps_count in (31, 1025):
            with self.subTest(taps=taps_count):
                data = self.samples(True, 1_000_000)
                taps = list(self.samples(False, taps_count))
                got, _ = self.run_filter(lambda: cuda.fir_filter_ccf(1, taps), "ccf", data)
                want, _ = self.run_filter(lambda: filter.fir_filter_ccf(1, taps), "ccf", data)
                self.assertEqual(len(got), len(want))
                self.assertLess(relative_error(got, want), TOLERANCE)

    def test_tags_move_as_gnuradio_moves_them(self):
        tags = [tag(int(offset), number) for number, offset in enumerate(self.rng.integers(0, 50_000, 40))]
        data = self.samples(True, 50_000)
        for taps_count in (5, 301):
            for decimation in (1, 4):
                taps = list(self.samples(True, taps_count))
                _, gpu_sink = self.run_filter(lambda: cuda.fir_filter_ccc(decimation, taps), "ccc", data, tags)
                _, cpu_sink = self.run_filter(lambda: filter.fir_filter_ccc(decimation, taps), "ccc", data, tags)
                self.assertEqual(tag_list(gpu_sink), tag_list(cpu_sink))

    def test_output_does_not_depend_on_the_call_sizes(self):
        # Dot products give the same bits; overlap-save the same values to within rounding
        # (a call that ends inside a segment transforms it with zeros for the input to come).
        data = self.samples(True, 60_001)
        for taps_count, tolerance in ((45, 0), (501, 1e-6)):
            taps = list(self.samples(True, taps_count))
            whole, _ = self.run_filter(lambda: cuda.fir_filter_ccc(3, taps), "ccc", data)
            for max_noutput_items in (1, 100, 4099):
                with self.subTest(taps=taps_count, max_noutput_items=max_noutput_items):
                    split, _ = self.run_filter(
                        lambda: cuda.fir_filter_ccc(3, taps), "ccc", data, max_noutput_items=max_noutput_items
                    )
                    if tolerance:
                        self.assertLess(relative_error(split, whole), tolerance)
                    else:
                        np.testing.assert_array_equal(split, whole)

    def test_new_taps_while_running(self):
        # New taps of the same length switch the output from one filter to the other at one
        # output, with nothing lost or repeated; before it the old filter, after it the new.
        for taps_count in (21, 401):
            with self.subTest(taps=taps_count):
                data = self.samples(True, 400_000)
                old, new = list(self.samples(False, taps_count)), list(self.samples(False, taps_count))
                block = cuda.fir_filter_ccf(1, old)
                block.set_max_noutput_items(2000)
                sink = blocks.vector_sink_c()
                tb = gr.top_block()
                tb.connect(blocks.vector_source_c(data), blocks.throttle(gr.sizeof_gr_complex, 2e6), block, sink)
                tb.start()
                while len(sink.data()) < 50_000:
                    time.sleep(0.01)
                block.set_taps(new)
                tb.wait()
                got = np.array(sink.data())
                self.assertEqual(len(got), len(data))
                np.testing.assert_array_equal(block.taps(), np.float32(new))
                with_old, with_new = convolve(data, old), convolve(data, new)
                # The switch: the first output from which every output is the new filter's.
                mismatched = np.flatnonzero(np.abs(got - with_new) > 1e-4 * (1 + np.abs(with_new)))
                switch = int(mismatched[-1]) + 1 if len(mismatched) else 0
                self.assertGreater(switch, 40_000, "the new taps applied before set_taps")
                self.assertLess(relative_error(got[:switch], with_old[:switch]), TOLERANCE)
                self.assertLess(relative_error(got[switch:], with_new[switch:]), TOLERANCE)

    def test_taps_of_another_length_while_running_shift_as_gnuradio(self):
        # The GPU block skips what GNU Radio's skips, whatever history its own method needs
        # (301 taps run overlap-save, 31 the direct form); GNU Radio's block runs the same
        # check.
        data = self.random(np.complex64, 400_000)
        for make in (cuda.fir_filter_ccf, filter.fir_filter_ccf):
            with self.subTest(block=make.__module__):
                check_new_taps_shift_as_gnuradio(
                    self, lambda taps: make(1, taps), np.float32, data, ((31, 301), (301, 31)), TOLERANCE
                )

    def test_set_decimation_while_running(self):
        # GNU Radio's filters take set_decimation() between any two calls: the outputs after
        # it continue from the input where the last output before it stopped.
        data = self.samples(True, 400_000)
        taps = list(self.samples(False, 31))
        block = cuda.fir_filter_ccf(2, taps)
        block.set_max_noutput_items(2000)
        sink = blocks.vector_sink_c()
        tb = gr.top_block()
        tb.connect(blocks.vector_source_c(data), blocks.throttle(gr.sizeof_gr_complex, 2e6), block, sink)
        tb.start()
        while len(sink.data()) < 20_000:
            time.sleep(0.01)
        block.set_decimation(3)
        # GNU Radio refuses 0 but keeps it as the block's decimation (its own filters then
        # divide by it); the filter goes on at 3.
        written = len(sink.data())
        while len(sink.data()) < written + 20_000:
            time.sleep(0.01)
        with self.assertRaises(ValueError):
            block.set_decimation(0)
        tb.wait()
        got, full_rate = np.array(sink.data()), convolve(data, taps)
        mismatched = np.flatnonzero(np.abs(got[: len(data) // 2] - full_rate[::2][: len(got)]) > 1e-4)
        self.assertTrue(len(mismatched), "the new decimation never applied")
        # The first output at the new decimation reads up to the same item as the one it
        # replaces (so it matches both), as with GNU Radio's fir_filter.
        switch = int(mismatched[0]) - 1
        self.assertGreater(switch, 15_000, "the new decimation applied before set_decimation")
        self.assertEqual(len(got), switch + (len(data) - 2 * switch) // 3)
        self.assertLess(relative_error(got[:switch], full_rate[: 2 * switch : 2]), TOLERANCE)
        self.assertLess(relative_error(got[switch:], full_rate[2 * switch :: 3][: len(got) - switch]), TOLERANCE)

    def test_input_needed_for_a_large_decimation_saturates(self):
        # GNU Radio ends a block asking for more input than a buffer holds; the count must
        # not overflow into a negative number on the way.
        block = cuda.fir_filter_fff(100_000, [0.5] * 8)
        self.assertEqual(block.fixed_rate_noutput_to_ninput(100_000), 2**31 - 1)
        self.assertEqual(block.fixed_rate_noutput_to_ninput(3), 300_007)

    def test_changes_between_runs_apply_before_the_next_run(self):
        # A new decimation or taps of another length (which may change the method and the
        # history), set while the flowgraph is stopped, apply before the next run makes its
        # buffers: its output is a new block's, where GNU Radio's fir_filter shifts it by the
        # change of history.
        data = self.samples(True, 50_003)
        short, long = list(self.samples(True, 31)), list(self.samples(True, 301))
        source, sink = blocks.vector_source_c(data), blocks.vector_sink_c()
        block = cuda.fir_filter_ccc(1, short)
        tb = gr.top_block()
        tb.connect(source, block, sink)
        tb.run()
        for decimation, taps in ((5, short), (1, long), (5, long), (1, short)):
            with self.subTest(decimation=decimation, taps=len(taps)):
                block.set_decimation(decimation)
                block.set_taps(taps)
                source.rewind()
                sink.reset()
                tb.run()
                want, _ = self.run_filter(lambda d=decimation, t=taps: cuda.fir_filter_ccc(d, t), "ccc", data)
                got = np.array(sink.data())
                # Overlap-save (301 taps at decimation 1) rounds a call's last outputs
                # differently where a call ends inside a segment.
                self.assertEqual(len(got), len(want))
                self.assertLess(relative_error(got, want), 1e-6)

    def test_restart_runs_the_filter_again(self):
        data = self.samples(False, 30_007)
        taps = list(self.samples(False, 131))
        source = blocks.vector_source_f(data)
        sink = blocks.vector_sink_f()
        tb = gr.top_block()
        tb.connect(source, cuda.fir_filter_fff(2, taps), sink)
        tb.run()
        first = np.array(sink.data())
        source.rewind()
        sink.reset()
        tb.run()
        want, _ = self.run_filter(lambda: filter.fir_filter_fff(2, taps), "fff", data)
        self.assertLess(relative_error(first, want), TOLERANCE)
        self.assertEqual(len(sink.data()), len(want))

    def test_the_blocks_tell_their_taps(self):
        block = cuda.fir_filter_ccc(2, [1 + 1j, 2, 3j])
        np.testing.assert_allclose(block.taps(), [1 + 1j, 2, 3j])
        self.assertEqual(block.decimation(), 2)
        self.assertEqual(cuda.fir_filter_fff(1, [0.5] * 5).history(), 5)
        self.assertGreater(cuda.fir_filter_fff(1, [0.5] * 1000).history(), 1000, "overlap-save keeps a segment")
        with self.assertRaisesRegex(ValueError, "taps must hold at least one tap"):
            block.set_taps([])


if __name__ == "__main__":
    from gnuradio import gr_unittest

    gr_unittest.run(qa_fir_filter)
