#!/usr/bin/env python3
#
# SPDX-License-Identifier: GPL-3.0-or-later
#
"""cuda.logpwrfft_c and cuda.logpwrfft_f against GNU Radio's fft.logpwrfft on random data."""

import time

import numpy as np
from gnuradio import blocks, gr, gr_unittest
from gnuradio import fft as gr_fft
from gnuradio.fft import logpwrfft, window

from gnuradio import cuda
from qa_support import flowgraph_test, tag, tag_list

DECIBELS = 1e-4  # dB


def gnu_radio_shifts_real_input():
    """Whether the installed fft_vfc honours shift (GNU Radio 3.10.5 does not)."""
    tb, sink = gr.top_block(), blocks.vector_sink_c(4)
    tb.connect(blocks.vector_source_f([1.0] * 4, False, 4), gr_fft.fft_vfc(4, True, [], True), sink)
    tb.run()
    return abs(sink.data()[2]) > 1


class qa_logpwrfft(flowgraph_test):
    def data(self, kind, n):
        return self.random(np.complex64 if kind == "c" else np.float32, n)

    def source(self, kind, data, tags=()):
        make = blocks.vector_source_c if kind == "c" else blocks.vector_source_f
        return make(data, False, 1, list(tags))

    def spectra(self, block, kind, data, fft_size, tags=()):
        sink = blocks.vector_sink_f(fft_size)
        tb = gr.top_block()
        tb.connect(self.source(kind, data, tags), block, sink)
        tb.run()
        return np.array(sink.data()).reshape(-1, fft_size), sink

    def both(self, kind, data, fft_size, tags=(), **arguments):
        ours = getattr(cuda, f"logpwrfft_{kind}")(fft_size=fft_size, **arguments)
        theirs = getattr(logpwrfft, f"logpwrfft_{kind}")(fft_size=fft_size, **arguments)
        got, got_sink = self.spectra(ours, kind, data, fft_size, tags)
        want, want_sink = self.spectra(theirs, kind, data, fft_size, tags)
        if kind == "f" and arguments.get("shift") and not gnu_radio_shifts_real_input():
            want = np.fft.fftshift(want, axes=1)
        return got, want, got_sink, want_sink

    def assert_spectra(self, got, want, message):
        """Within DECIBELS for bins at most 20 dB below their frame's mean power; weaker bins,
        where FFTW's and cuFFT's rounding differ by more in dB, within 1e-6 of the mean in power."""
        self.assertEqual(got.shape, want.shape, message)
        self.assertGreater(len(want), 0, message)
        mean = 10 * np.log10(np.mean(10 ** (want / 10), axis=1, keepdims=True))
        strong = want >= mean - 20
        np.testing.assert_allclose(got[strong], want[strong], rtol=0, atol=DECIBELS, err_msg=message)
        power_error = np.abs(10 ** (got / 10) - 10 ** (want / 10)) / 10 ** (mean / 10)
        self.assertLessEqual(np.max(power_error[~strong], initial=0), 1e-6, message)

    def test_matches_gnu_radio(self):
        windows = {"default": None, "hann": window.hann, "rectangular": window.rectangular}
        for kind in ("c", "f"):
            for fft_size in (16, 32, 1024, 4096, 8192, 255):  # 32..4096: one kernel, 8192: two; 16, 255: cuFFT
                for frame_rate in (1e6 / fft_size, 1e6 / fft_size / 3.4):  # decimation 1 and 3
                    for average, avg_alpha in ((False, 1.0), (True, 0.25)):
                        for name, win in windows.items():
                            for shift in (False, True):
                                # Ends mid-vector, and mid-group.
                                data = self.data(kind, fft_size * 20 + fft_size // 2 + 1)
                                message = f"{kind} size {fft_size} rate {frame_rate} average {average} {name} {shift}"
                                got, want, _, _ = self.both(
                                    kind,
                                    data,
                                    fft_size,
                                    sample_rate=1e6,
                                    ref_scale=2.0,
                                    frame_rate=frame_rate,
                                    avg_alpha=avg_alpha,
                                    average=average,
                                    win=win,
                                    shift=shift,
                                )
                                self.assert_spectra(got, want, message)

    def test_frames_longer_than_the_buffer_before_the_block(self):
        # GNU Radio's chain drops vectors as they come (keep_one_in_n), so a frame's group
        # of fft_size * decimation items need not fit a buffer: a decimation raised while
        # running beyond the ring before the block (made for decimation 1: the floor of 1
        # MiB on the simulated backend, 128 MiB on a GPU) is read in parts. The input
        # repeats one vector, so every frame is its spectrum, however the change falls.
        fft_size = 64
        ring_items = ((1 << 20) if cuda.simulated() else (128 << 20)) // 8
        decimation = 4 * ring_items // fft_size
        vector = self.data("c", fft_size)
        total = 3 * fft_size * decimation
        block = cuda.logpwrfft_c(fft_size * 1000.0, fft_size, 1.0, 1000.0, 1.0, False)
        head = blocks.head(gr.sizeof_gr_complex, total)
        sink = blocks.vector_sink_f(fft_size)
        tb = gr.top_block()
        tb.connect(blocks.vector_source_c(vector, True), head, block, sink)
        tb.start()
        while len(sink.data()) < 100 * fft_size:
            time.sleep(0.001)
        block.set_decimation(decimation)
        tb.wait()
        self.assertEqual(head.nitems_written(0), total)
        got = np.array(sink.data()).reshape(-1, fft_size)
        self.assertGreaterEqual(len(got), 100 + 2)
        want, _ = self.spectra(logpwrfft.logpwrfft_c(1.0, fft_size, 1.0, 1.0, 1.0, False), "c", vector, fft_size)
        self.assert_spectra(got, np.repeat(want, len(got), axis=0), "groups in parts")

    def test_one_point_spectrum_with_the_default_window(self):
        # Blackman-Harris of one point is NaN (GNU Radio's output is NaN then); the block
        # takes one point unwindowed.
        data = self.data("c", 64)
        got, _ = self.spectra(cuda.logpwrfft_c(1e3, 1, 1, 1e3, 1, False), "c", data, 1)
        want = 10 * np.log10(np.maximum(np.abs(data) ** 2, np.finfo(np.float32).tiny)).reshape(-1, 1) + 6.0206
        np.testing.assert_allclose(got, want, rtol=1e-4, atol=1e-3)

    def test_reference_scale_and_decimation_rule(self):
        for sample_rate, fft_size, frame_rate in ((48e3, 512, 30), (1e6, 1000, 400), (2.5e3, 2, 1e3), (1, 4, 1)):
            ours = cuda.logpwrfft_c(sample_rate, fft_size, 0.5, frame_rate, 1.0, False)
            theirs = logpwrfft.logpwrfft_c(sample_rate, fft_size, 0.5, frame_rate, 1.0, False)
            self.assertEqual(ours.decimation(), theirs.decimation())
            self.assertAlmostEqual(ours.frame_rate(), theirs.frame_rate())
            for block in (ours, theirs):
                block.set_vec_rate(frame_rate / 2)
                block.set_sample_rate(sample_rate * 3)
                block.set_avg_alpha(0.5)
                block.set_average(True)
            for getter in ("decimation", "frame_rate", "sample_rate", "average", "avg_alpha"):
                self.assertAlmostEqual(getattr(ours, getter)(), getattr(theirs, getter)(), msg=getter)
            for decimation in (0.2, 2.5, 3.5, 7):  # Python's round: ties to even
                ours.set_decimation(decimation)
                theirs.set_decimation(decimation)
                self.assertEqual(ours.decimation(), theirs.decimation(), decimation)
        data = self.data("c", 64 * 8)
        got, want, _, _ = self.both(
            "c", data, 64, sample_rate=64.0, ref_scale=7.5, frame_rate=1.0, avg_alpha=1.0, average=False
        )
        self.assert_spectra(got, want, "ref_scale 7.5")

    def test_setters_between_runs_carry_the_state(self):
        for kind in ("c", "f"):
            fft_size = 128
            first, second = self.data(kind, fft_size * 12), self.data(kind, fft_size * 24)
            results = []
            for module in (cuda, logpwrfft):
                block = getattr(module, f"logpwrfft_{kind}")(1e6, fft_size, 2.0, 1e6 / fft_size, 0.1, True)
                source, sink = self.source(kind, first), blocks.vector_sink_f(fft_size)
                tb = gr.top_block()
                tb.connect(source, block, sink)
                tb.run()
                block.set_avg_alpha(0.6)
                block.set_decimation(2)
                source.set_data(second)
                tb.run()
                block.set_average(False)
                block.set_sample_rate(3e6)  # decimation 3
                source.set_data(second[: fft_size * 21])
                tb.run()
                results.append(np.array(sink.data()).reshape(-1, fft_size))
            self.assertEqual(len(results[0]), 12 + 12 + 7)
            self.assert_spectra(results[0], results[1], kind)

    def test_output_does_not_depend_on_how_calls_split_the_stream(self):
        fft_size, data = 64, self.data("c", 64 * 3 * 50)
        outputs = []
        for limit in (None, 1, 3, 7):
            block = cuda.logpwrfft_c(3e3, fft_size, 2.0, 3e3 / fft_size / 3, 0.3, True, shift=True)
            if limit:
                block.set_max_noutput_items(limit)
            outputs.append(self.spectra(block, "c", data, fft_size)[0])
        for output in outputs[1:]:
            np.testing.assert_array_equal(output, outputs[0])

    def test_tags_move_as_in_gnu_radio(self):
        fft_size, decimation = 32, 3
        data = self.data("c", fft_size * decimation * 10)
        tags = [tag(offset, number) for number, offset in enumerate((0, 15, 16, 17, 95, 96, 200, 511, 959))]
        _, _, got_sink, want_sink = self.both(
            "c",
            data,
            fft_size,
            tags=tags,
            sample_rate=1e3,
            ref_scale=2.0,
            frame_rate=1e3 / fft_size / decimation,
            avg_alpha=1.0,
            average=False,
        )
        self.assertGreaterEqual(len(tag_list(want_sink)), len(tags) - 1)
        self.assertEqual(tag_list(got_sink), tag_list(want_sink))

    def test_tag_policies_the_user_sets(self):
        # TPP_DONT drops the tags; TPP_ALL_TO_ALL and TPP_ONE_TO_ONE mean GNU Radio's chain's
        # movement for this block, each tag once, not the scheduler's on top of it.
        fft_size, decimation = 32, 3
        data = self.data("c", fft_size * decimation * 10)
        tags = [tag(offset, number) for number, offset in enumerate((0, 17, 96, 200, 959))]
        arguments = dict(
            sample_rate=1e3, ref_scale=2.0, frame_rate=1e3 / fft_size / decimation, avg_alpha=1.0, average=False
        )
        _, want_sink = self.spectra(logpwrfft.logpwrfft_c(fft_size=fft_size, **arguments), "c", data, fft_size, tags)
        for policy, expected in (
            (gr.TPP_DONT, []),
            (gr.TPP_ALL_TO_ALL, tag_list(want_sink)),
            (gr.TPP_ONE_TO_ONE, tag_list(want_sink)),
        ):
            block = cuda.logpwrfft_c(fft_size=fft_size, **arguments)
            block.set_tag_propagation_policy(policy)
            _, got_sink = self.spectra(block, "c", data, fft_size, tags)
            self.assertEqual(tag_list(got_sink), expected, policy)
        self.assertGreater(len(tag_list(want_sink)), 0)

    def test_setters_while_running(self):
        fft_size = 256
        block = cuda.logpwrfft_c(1e6, fft_size, 2.0, 1e6 / fft_size, 1.0, False)
        source = blocks.vector_source_c(self.data("c", fft_size * 64), True)
        sink = blocks.vector_sink_f(fft_size)
        tb = gr.top_block()
        tb.connect(source, blocks.head(gr.sizeof_gr_complex, fft_size * 4000), block, sink)
        tb.start()
        for decimation in (4, 1, 2):
            block.set_decimation(decimation)
            block.set_avg_alpha(0.5)
            block.set_average(decimation != 1)
        tb.wait()
        output = np.array(sink.data())
        self.assertEqual(block.decimation(), 2)
        # Which vectors each decimation saw depends on the scheduler: between every
        # fourth of the 4000 input vectors (all at 4) and all of them (all at 1).
        self.assertEqual(len(output) % fft_size, 0)
        self.assertGreaterEqual(len(output), fft_size * 4000 // 4)
        self.assertLessEqual(len(output), fft_size * 4000)
        self.assertTrue(np.all(np.isfinite(output)))


if __name__ == "__main__":
    gr_unittest.run(qa_logpwrfft)
