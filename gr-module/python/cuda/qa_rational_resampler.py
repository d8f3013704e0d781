#!/usr/bin/env python3
#
# SPDX-License-Identifier: GPL-3.0-or-later
#
"""cuda.rational_resampler_XXX against filter.rational_resampler_XXX on random data: designed
and given taps (odd lengths), interpolations and decimations 1..7, lengths that are not
multiples, call splits, tags, set_taps between runs and restart.

GNU Radio's block runs one output per call here (max_noutput_items 1): its length is then
the same every run. In larger calls its length depends on how the scheduler splits the
stream, by the last output or so, whose window then runs past the end of the stream;
cuda.rational_resampler_XXX makes the one-output-per-call length whatever the split."""

import numpy as np
import pmt
from gnuradio import blocks, filter, gr, gr_unittest

from gnuradio import cuda
from qa_support import flowgraph_test

# suffix: (GPU block, CPU block, source, sink, sample type, tap type)
TYPES = {
    "ccc": (cuda.rational_resampler_ccc, filter.rational_resampler_ccc, blocks.vector_source_c,
            blocks.vector_sink_c, np.complex64, np.complex64),
    "ccf": (cuda.rational_resampler_ccf, filter.rational_resampler_ccf, blocks.vector_source_c,
            blocks.vector_sink_c, np.complex64, np.float32),
    "fff": (cuda.rational_resampler_fff, filter.rational_resampler_fff, blocks.vector_source_f,
            blocks.vector_sink_f, np.float32, np.float32),
}  # fmt: skip


class qa_rational_resampler(flowgraph_test):
    seed = 11

    def values(self, dtype, n):
        if dtype == np.complex64:
            return (self.rng.standard_normal(n) + 1j * self.rng.standard_normal(n)).astype(np.complex64)
        return self.rng.standard_normal(n).astype(np.float32)

    def run_block(self, suffix, block, data, tags=(), max_noutput=None, runs=1, between=None):
        """Runs data through block; with runs > 1 the flowgraph runs again on the same data
        after between(block) (set_taps), as a restart."""
        _, _, source, sink, _, _ = TYPES[suffix]
        tb = gr.top_block()
        src, snk = source(data, False, 1, list(tags)), sink()
        if max_noutput is not None:
            block.set_max_noutput_items(max_noutput)
        tb.connect(src, block, snk)
        for run in range(runs):
            if run > 0:
                between(block)
                src.set_data(data, list(tags))
            tb.run()
        return np.array(snk.data()), [(t.offset, pmt.to_python(t.value)) for t in snk.tags()]

    def assert_close(self, gpu, cpu, what):
        self.assertEqual(len(gpu), len(cpu), what)
        rms = np.sqrt(np.mean(np.abs(cpu.astype(np.complex128)) ** 2))
        error = np.max(np.abs(gpu.astype(np.complex128) - cpu)) if len(cpu) else 0.0
        self.assertLessEqual(error, 1e-5 * rms, f"{what}: max error {error}, rms {rms}")

    def test_against_gnuradio(self):
        for suffix, (gpu_make, cpu_make, _, _, dtype, tap_type) in TYPES.items():
            for interpolation, decimation, ntaps in (
                (1, 1, 7),
                (3, 2, 0),
                (2, 3, 31),
                (7, 5, 0),
                (4, 6, 0),
                (1, 7, 13),
            ):
                taps = list(self.values(tap_type, ntaps)) if ntaps else []
                data = self.values(dtype, 1_000_003 if (interpolation, decimation) == (3, 2) else 100_003)
                what = f"{suffix} {interpolation}/{decimation} taps {ntaps or 'designed'}"
                gpu_block = gpu_make(interpolation, decimation, taps)
                cpu_block = cpu_make(interpolation, decimation, taps)
                self.assertEqual(list(gpu_block.taps()), list(cpu_block.taps()), what)
                gpu, _ = self.run_block(suffix, gpu_block, data)
                cpu, _ = self.run_block(suffix, cpu_block, data, max_noutput=1)
                self.assert_close(gpu, cpu, what)

    def test_interpolation_above_twice_the_decimation(self):
        """There GNU Radio's forecast for one output is a window of taps less one item, so
        its last outputs' windows end one item past the stream (what its buffer holds there):
        the GPU block makes the outputs whose windows lie in the stream, equal to GNU Radio's."""
        for interpolation, decimation, ntaps in ((7, 3, 0), (4, 1, 13), (9, 4, 0)):
            data = self.values(np.float32, 10_007)
            taps = list(self.values(np.float32, ntaps)) if ntaps else []
            gpu_block = cuda.rational_resampler_fff(interpolation, decimation, taps)
            gpu, _ = self.run_block("fff", gpu_block, data)
            cpu, _ = self.run_block(
                "fff", filter.rational_resampler_fff(interpolation, decimation, taps), data, max_noutput=1
            )
            taps_per_phase = len(gpu_block.taps()) // interpolation
            inside = sum(1 for i in range(len(cpu)) if i * decimation // interpolation + taps_per_phase <= len(data))
            what = f"{interpolation}/{decimation}"
            self.assertEqual(len(gpu), inside, what)
            self.assertLess(inside, len(cpu), what)
            self.assert_close(gpu, cpu[:inside], what)

    def test_output_does_not_depend_on_the_call_split(self):
        data = self.values(np.complex64, 50_001)
        taps = list(self.values(np.float32, 23))
        reference, _ = self.run_block("ccf", cuda.rational_resampler_ccf(5, 3, taps), data)
        for max_noutput in (1, 7, 333, 4096):
            split, _ = self.run_block("ccf", cuda.rational_resampler_ccf(5, 3, taps), data, max_noutput=max_noutput)
            np.testing.assert_array_equal(split, reference, err_msg=f"max_noutput_items {max_noutput}")

    def test_tags_at_gnuradio_offsets(self):
        data = self.values(np.float32, 20_011)
        tags = [
            gr.tag_utils.python_to_tag((int(o), pmt.intern("k"), pmt.from_long(i)))
            for i, o in enumerate((0, 1, 2, 999, 5_000, 12_345, 20_000))
        ]
        for interpolation, decimation in ((3, 2), (2, 5), (1, 1)):
            _, gpu_tags = self.run_block("fff", cuda.rational_resampler_fff(interpolation, decimation), data, tags)
            # GNU Radio's block in its usual calls: at one output per call it drops some of
            # these tags (its scheduler maps tags call by call).
            cpu_block = filter.rational_resampler_fff(interpolation, decimation)
            _, cpu_tags = self.run_block("fff", cpu_block, data, tags)
            self.assertEqual(gpu_tags, cpu_tags, f"{interpolation}/{decimation}")

    def test_set_taps_and_restart(self):
        data = self.values(np.complex64, 30_007)
        first = list(self.values(np.complex64, 9))
        second = list(self.values(np.complex64, 17))
        results = []
        for make, max_noutput in ((cuda.rational_resampler_ccc, None), (filter.rational_resampler_ccc, 1)):
            output, _ = self.run_block(
                "ccc", make(3, 4, first), data, max_noutput=max_noutput, runs=2, between=lambda b: b.set_taps(second)
            )
            results.append(output)
        self.assert_close(results[0], results[1], "set_taps between runs")

    def test_set_taps_while_running(self):
        """New taps apply from a later call on, and the block keeps its phase: output stays
        a resampling of the input by the old taps, then the new ones."""
        data = self.values(np.float32, 200_003)
        taps = list(self.values(np.float32, 12))
        block = cuda.rational_resampler_fff(4, 3, taps)
        block.set_max_noutput_items(1000)
        tb = gr.top_block()
        snk = blocks.vector_sink_f()
        tb.connect(blocks.vector_source_f(data), block, snk)
        tb.start()
        block.set_taps(taps[::-1])
        tb.wait()
        self.assertEqual(list(block.taps()), [np.float32(t) for t in taps[::-1]])
        self.assertGreater(len(snk.data()), 200_003 * 4 // 3 - 100)


if __name__ == "__main__":
    gr_unittest.run(qa_rational_resampler)
