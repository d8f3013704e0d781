#!/usr/bin/env python3
#
# SPDX-License-Identifier: GPL-3.0-or-later
#
"""cuda.fft_filter_ccc/ccf/fff against filter.fft_filter_xxx and an exact (float64)
convolution on random data: every type, odd tap counts, decimations 1 to 7, tags, outputs
that are the same bit for bit however the input arrives, new taps while running (of another
length too, with the output kept aligned as GNU Radio's), restart.

Both blocks write whole segments of their FFT (their output multiple), so each holds back
the outputs of its last, incomplete segment; GNU Radio's segments are shorter (an FFT of
twice the taps, rounded up to a power of two), gr-cuda's four times the taps (256 to 4096
points, two segments per transform for fff) up to 2049 taps and at least 8192 points beyond.
Outputs are compared where both have written them."""

import time

import numpy as np
from gnuradio import blocks, filter, gr

from gnuradio import cuda
from qa_support import change_while_running, convolve, flowgraph_test, relative_error, tag, tag_list

TOLERANCE = 1e-5  # relative to the output's norm
TYPES = {
    "ccc": (cuda.fft_filter_ccc, filter.fft_filter_ccc, blocks.vector_source_c, blocks.vector_sink_c, True, True),
    "ccf": (cuda.fft_filter_ccf, filter.fft_filter_ccf, blocks.vector_source_c, blocks.vector_sink_c, True, False),
    "fff": (cuda.fft_filter_fff, filter.fft_filter_fff, blocks.vector_source_f, blocks.vector_sink_f, False, False),
}


class qa_fft_filter(flowgraph_test):
    def samples(self, complex_values, n):
        return self.random(np.complex64 if complex_values else np.float32, n)

    def run_filter(self, block, suffix, data, tags=(), chunk=None):
        """data through block; chunk, when given, makes the input arrive in pieces of that
        many items (a CPU copy limited to them in front of the block)."""
        _, _, source_of, sink_of, _, _ = TYPES[suffix]
        sink = sink_of()
        chain = [source_of(data, False, 1, list(tags))]
        if chunk:
            pacer = blocks.copy(gr.sizeof_gr_complex if suffix != "fff" else gr.sizeof_float)
            pacer.set_max_noutput_items(chunk)
            chain.append(pacer)
        tb = gr.top_block()
        tb.connect(*chain, block, sink)
        tb.run()
        return np.array(sink.data()), sink

    def test_every_type_against_gnuradio_and_the_exact_output(self):
        for suffix, (gpu, cpu, _, _, complex_input, complex_taps) in TYPES.items():
            for taps_count in (1, 8, 127, 1025):
                for decimation in (1, 2, 7):
                    with self.subTest(type=suffix, taps=taps_count, decimation=decimation):
                        data = self.samples(complex_input, 70_001)
                        taps = list(self.samples(complex_taps, taps_count))
                        block = gpu(decimation, taps)
                        got, _ = self.run_filter(block, suffix, data)
                        want, _ = self.run_filter(cpu(decimation, taps), suffix, data)
                        exact = convolve(data, taps)[::decimation]
                        segment = block.output_multiple()
                        self.assertEqual(len(got) % segment, 0, "whole segments only")
                        self.assertGreater(len(got), len(exact) - segment, "at most one segment held back")
                        common = min(len(got), len(want))
                        self.assertLess(relative_error(got[:common], want[:common]), TOLERANCE)
                        self.assertLess(relative_error(got, exact[: len(got)]), TOLERANCE)

    def test_a_million_samples(self):
        data = self.samples(True, 1_000_000)
        taps = list(self.samples(True, 1024))
        got, _ = self.run_filter(cuda.fft_filter_ccc(1, taps), "ccc", data)
        want, _ = self.run_filter(filter.fft_filter_ccc(1, taps), "ccc", data)
        common = min(len(got), len(want))
        self.assertGreater(common, 990_000)
        self.assertLess(relative_error(got[:common], want[:common]), TOLERANCE)

    def test_output_is_the_same_however_the_input_arrives(self):
        data = self.samples(True, 100_003)
        taps = list(self.samples(False, 301))
        whole, _ = self.run_filter(cuda.fft_filter_ccf(3, taps), "ccf", data)
        for chunk in (1, 999, 8191):
            with self.subTest(chunk=chunk):
                split, _ = self.run_filter(cuda.fft_filter_ccf(3, taps), "ccf", data, chunk=chunk)
                np.testing.assert_array_equal(split, whole)

    def test_tags_move_as_gnuradio_moves_them(self):
        data = self.samples(True, 80_000)
        tags = [tag(int(offset), number) for number, offset in enumerate(self.rng.integers(0, 60_000, 30))]
        for decimation in (1, 3):
            taps = list(self.samples(True, 65))
            block = cuda.fft_filter_ccc(decimation, taps)
            got, gpu_sink = self.run_filter(block, "ccc", data, tags)
            want, cpu_sink = self.run_filter(filter.fft_filter_ccc(decimation, taps), "ccc", data, tags)
            written = min(len(got), len(want))
            gpu_tags = [t for t in tag_list(gpu_sink) if t[0] < written]
            cpu_tags = [t for t in tag_list(cpu_sink) if t[0] < written]
            self.assertEqual(gpu_tags, cpu_tags)
            self.assertGreater(len(gpu_tags), 20)

    def test_new_taps_while_running(self):
        # Long enough that the new taps apply well before the end, even when the block's
        # first call (which makes its cuFFT plans) lets the throttle run several hundred
        # thousand samples ahead and the sink's first output is that large a batch.
        data = self.samples(True, 2_000_000)
        old, new = list(self.samples(True, 257)), list(self.samples(True, 257))
        block = cuda.fft_filter_ccc(1, old)
        sink = blocks.vector_sink_c()
        tb = gr.top_block()
        tb.connect(blocks.vector_source_c(data), blocks.throttle(gr.sizeof_gr_complex, 3e6), block, sink)
        tb.start()
        while len(sink.data()) < 100_000:
            time.sleep(0.01)
        block.set_taps(new)
        tb.wait()
        got = np.array(sink.data())
        np.testing.assert_allclose(block.taps(), np.complex64(new))
        with_old, with_new = convolve(data, old)[: len(got)], convolve(data, new)[: len(got)]
        mismatched = np.flatnonzero(np.abs(got - with_new) > 1e-4 * (1 + np.abs(with_new)))
        switch = int(mismatched[-1]) + 1 if len(mismatched) else 0
        self.assertGreater(switch, 90_000, "the new taps applied before set_taps")
        self.assertLess(switch, len(got) - 100_000, "the new taps never applied")
        self.assertLess(relative_error(got[:switch], with_old[:switch]), TOLERANCE)
        self.assertLess(relative_error(got[switch:], with_new[switch:]), TOLERANCE)

    def test_taps_of_another_length_while_running_keep_the_stream_aligned(self):
        # GNU Radio's fft_filter keeps its own tail, so new taps of another length leave
        # the output aligned with the input: nothing skipped or repeated. It restarts from
        # zeros (new_count - 1 outputs that match neither filter); the GPU block reads the
        # past input it still holds and zeros before that, so at most as many. GNU Radio's
        # block runs the same check.
        data = self.samples(True, 2_000_000)
        for old_count, new_count in ((257, 1025), (1025, 63)):
            old, new = list(self.samples(True, old_count)), list(self.samples(True, new_count))
            with_old, with_new = convolve(data, old), convolve(data, new)
            for make in (cuda.fft_filter_ccc, filter.fft_filter_ccc):
                with self.subTest(taps=(old_count, new_count), block=make.__module__):
                    got = change_while_running(
                        make(1, old), data, lambda block, new=new: block.set_taps(new), 100_000, 3e6
                    )
                    # Whole segments: each block holds back at most its last one.
                    self.assertGreater(len(got), len(data) - 8192)
                    old_mismatched = np.flatnonzero(np.abs(got - with_old[: len(got)]) > 1e-4 * (1 + np.abs(got)))
                    new_mismatched = np.flatnonzero(np.abs(got - with_new[: len(got)]) > 1e-4 * (1 + np.abs(got)))
                    self.assertGreater(len(old_mismatched), 0, "the new taps never applied")
                    old_end = int(old_mismatched[0])
                    new_start = int(new_mismatched[-1]) + 1 if len(new_mismatched) else 0
                    self.assertGreater(old_end, 90_000, "the new taps applied before set_taps")
                    self.assertLess(new_start, len(got) - 100_000, "the output after the new taps is shifted")
                    self.assertLessEqual(new_start - old_end, new_count - 1)
                    self.assertLess(relative_error(got[:old_end], with_old[:old_end]), TOLERANCE)
                    self.assertLess(relative_error(got[new_start:], with_new[new_start : len(got)]), TOLERANCE)

    def test_output_multiple_the_user_sets(self):
        # The block writes whole segments: a multiple the user sets joins the segment's
        # (their least common multiple), and the stream still ends.
        data = self.samples(True, 100_000)
        taps = list(self.samples(False, 31))
        want = convolve(data, taps)
        for multiple in (1, 7, 10):
            with self.subTest(multiple=multiple):
                block = cuda.fft_filter_ccf(1, taps)
                block.set_output_multiple(multiple)
                got, _ = self.run_filter(block, "ccf", data)
                both = block.output_multiple()
                self.assertEqual(both % multiple, 0)
                self.assertEqual(len(got), len(data) // both * both)
                self.assertGreater(len(got), 0)
                self.assertLess(relative_error(got, want[: len(got)]), TOLERANCE)

    def test_changes_between_runs_apply_before_the_next_run(self):
        # New taps of another length and a new decimation, set while the flowgraph is
        # stopped, apply before the next run makes its buffers: its output is a new block's
        # (GNU Radio's fft_filter, which keeps no history, also stays aligned).
        data = self.samples(False, 60_000)
        taps, new_taps = list(self.samples(False, 65)), list(self.samples(False, 301))
        source, sink = blocks.vector_source_f(data), blocks.vector_sink_f()
        block = cuda.fft_filter_fff(1, taps)
        tb = gr.top_block()
        tb.connect(source, block, sink)
        tb.run()
        for decimation, next_taps in ((4, taps), (4, new_taps), (1, taps)):
            block.set_decimation(decimation)
            block.set_taps(next_taps)
            source.rewind()
            sink.reset()
            tb.run()
            want, _ = self.run_filter(cuda.fft_filter_fff(decimation, next_taps), "fff", data)
            np.testing.assert_array_equal(np.array(sink.data()), want)

    def test_restart_runs_the_filter_again(self):
        data = self.samples(False, 50_000)
        taps = list(self.samples(False, 99))
        block = cuda.fft_filter_fff(1, taps)
        source = blocks.vector_source_f(data)
        sink = blocks.vector_sink_f()
        tb = gr.top_block()
        tb.connect(source, block, sink)
        tb.run()
        first = np.array(sink.data())
        source.rewind()
        sink.reset()
        tb.run()
        np.testing.assert_array_equal(np.array(sink.data())[: len(first)], first)

    def test_nthreads_is_kept(self):
        block = cuda.fft_filter_ccc(1, [1, 2, 3], 4)
        self.assertEqual(block.nthreads(), 4)
        block.set_nthreads(2)
        self.assertEqual(block.nthreads(), 2)
        with self.assertRaisesRegex(ValueError, "nthreads must be at least 1, got 0"):
            block.set_nthreads(0)


if __name__ == "__main__":
    from gnuradio import gr_unittest

    gr_unittest.run(qa_fft_filter)
