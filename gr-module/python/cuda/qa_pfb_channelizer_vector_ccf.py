#!/usr/bin/env python3
#
# SPDX-License-Identifier: GPL-3.0-or-later
#
"""cuda.pfb_channelizer_vector_ccf against GNU Radio's hier block filter.pfb.channelizer_ccf
on random data: vector entry o must equal the hier block's output o, with designed and given
taps, oversample rates 1, 2, 4 and 4/3, the identity map (the transform writes the output) and
others (a gather), call splits, tags, set_taps and set_channel_map between runs."""

import numpy as np
import pmt
from gnuradio import blocks, gr, gr_unittest
from gnuradio.filter import pfb

from gnuradio import cuda
from qa_support import assert_channels_close, flowgraph_test, run_channels


class qa_pfb_channelizer_vector_ccf(flowgraph_test):
    seed = 13

    def values(self, n):
        return (self.rng.standard_normal(n) + 1j * self.rng.standard_normal(n)).astype(np.complex64)

    def run_vector(self, block, numchans, data, tags=(), runs=1, between=None):
        """The block's vectors as one array per entry, and the tags of its output."""
        tb = gr.top_block()
        src = blocks.vector_source_c(data, False, 1, list(tags))
        sink = blocks.vector_sink_c(numchans)
        tb.connect(src, block, sink)
        for run in range(runs):
            if run > 0:
                between(block)
                src.set_data(data, list(tags))
            tb.run()
        vectors = np.array(sink.data()).reshape(-1, numchans)
        return list(vectors.T), [(t.offset, pmt.to_python(t.value)) for t in sink.tags()]

    def test_against_gnuradio(self):
        for numchans, oversample_rate, ntaps, n in (
            (64, 1, 0, 1_000_000),
            # 512 channels: the one kernel's groups of 8 steps, plain and oversampled by 2
            # (GNU Radio's CPU channelizer needs a buffer per channel twice over, and 1024
            # channels exceed the shared-memory segments a machine gives by default).
            (512, 1, 16 * 512 - 5, 512 * 60 + 7),
            (512, 2, 8 * 512 + 3, 512 * 30 + 1),
            (32, 2, 100, 100_003),
            (16, 2, 77, 100_003),
            (32, 4, 96, 100_001),
            (16, 4, 61, 100_001),
            (16, 4 / 3, 50, 99_991),
            (5, 1, 11, 20_001),
        ):
            taps = list(self.rng.standard_normal(ntaps).astype(np.float32)) if ntaps else None
            data = self.values(n)
            what = f"{numchans} channels, oversample {oversample_rate}, taps {ntaps or 'designed'}"
            gpu_block = cuda.pfb_channelizer_vector_ccf(numchans, taps, oversample_rate)
            cpu_block = pfb.channelizer_ccf(numchans, taps, oversample_rate)
            self.assertEqual([list(b) for b in gpu_block.taps()], [list(np.float32(b)) for b in cpu_block.taps()], what)
            gpu, _ = self.run_vector(gpu_block, numchans, data)
            cpu, _ = run_channels(cpu_block, numchans, data)
            assert_channels_close(self, gpu, cpu, what)

    def test_channel_map(self):
        data = self.values(40_000)
        taps = list(self.rng.standard_normal(40).astype(np.float32))
        channel_map = [7, 0, 3, 3, 5, 1, 2, 6]
        block = cuda.pfb_channelizer_vector_ccf(8, taps, 2)
        block.set_channel_map(channel_map)
        self.assertEqual(list(block.channel_map()), channel_map)
        gpu, _ = self.run_vector(block, 8, data)
        hier = pfb.channelizer_ccf(8, taps, 2)
        hier.set_channel_map(channel_map)
        cpu, _ = run_channels(hier, 8, data)
        assert_channels_close(self, gpu, cpu, "channel map")
        self.assertEqual(list(cuda.pfb_channelizer_vector_ccf(8, taps).channel_map()), list(range(8)))
        # An empty map changes nothing, as in GNU Radio.
        block.set_channel_map([])
        self.assertEqual(list(block.channel_map()), channel_map)

    def test_output_does_not_depend_on_the_call_split(self):
        data = self.values(64_011)
        taps = list(self.rng.standard_normal(61).astype(np.float32))
        reference, _ = self.run_vector(cuda.pfb_channelizer_vector_ccf(16, taps, 16 / 12), 16, data)
        for max_noutput in (4, 12, 300, 2048):
            for channel_map in (list(range(16)), list(range(15, -1, -1))):
                block = cuda.pfb_channelizer_vector_ccf(16, taps, 16 / 12)
                block.set_channel_map(channel_map)
                block.set_max_noutput_items(max_noutput)
                split, _ = self.run_vector(block, 16, data)
                for entry, channel in enumerate(channel_map):
                    np.testing.assert_array_equal(
                        split[entry], reference[channel], err_msg=f"max {max_noutput}, map {channel_map[:2]}..."
                    )

    def test_tags_at_the_hier_blocks_offsets(self):
        data = self.values(16_000)
        offsets = (0, 3, 8, 12, 1001, 7777, 15_000)
        tags = [gr.tag_utils.python_to_tag((o, pmt.intern("k"), pmt.from_long(i))) for i, o in enumerate(offsets)]
        taps = list(self.rng.standard_normal(33).astype(np.float32))
        for oversample_rate in (1, 2):
            _, gpu_tags = self.run_vector(cuda.pfb_channelizer_vector_ccf(8, taps, oversample_rate), 8, data, tags)
            _, cpu_tags = run_channels(pfb.channelizer_ccf(8, taps, oversample_rate), 8, data, tags)
            self.assertEqual(sorted(gpu_tags), sorted(cpu_tags[0]), f"oversample {oversample_rate}")

    def test_setters_between_runs(self):
        data = self.values(30_000)
        first = list(self.rng.standard_normal(24).astype(np.float32))
        second = list(self.rng.standard_normal(45).astype(np.float32))
        new_map = [5, 4, 3, 2, 1, 0]

        def change_gpu(block):
            block.set_taps(second)
            block.set_channel_map(new_map)

        gpu, _ = self.run_vector(cuda.pfb_channelizer_vector_ccf(6, first, 2), 6, data, runs=2, between=change_gpu)
        cpu_first, _ = run_channels(pfb.channelizer_ccf(6, first, 2), 6, data)
        hier = pfb.channelizer_ccf(6, first, 2)
        cpu, _ = run_channels(hier, 6, data, runs=2, between=lambda b: b.set_taps(second))
        # The second run's vectors follow the new map; the first run's kept the identity.
        steps = len(cpu_first[0])
        assert_channels_close(self, [g[:steps] for g in gpu], cpu_first, "first run")
        assert_channels_close(
            self, [g[steps:] for g in gpu], [cpu[c][steps:] for c in new_map], "after set_taps and set_channel_map"
        )

    def test_bad_channel_map(self):
        block = cuda.pfb_channelizer_vector_ccf(4, [1.0])
        with self.assertRaisesRegex(
            ValueError, "cuda.pfb_channelizer_vector_ccf.*one entry per vector entry, 4, got 2"
        ):
            block.set_channel_map([0, 1])
        with self.assertRaisesRegex(ValueError, "between 0 and 3, got 4 at entry 1"):
            block.set_channel_map([0, 4, 1, 2])


if __name__ == "__main__":
    gr_unittest.run(qa_pfb_channelizer_vector_ccf)
