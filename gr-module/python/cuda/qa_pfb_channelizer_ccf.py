#!/usr/bin/env python3
#
# SPDX-License-Identifier: GPL-3.0-or-later
#
"""cuda.pfb_channelizer_ccf against GNU Radio's hier block filter.pfb.channelizer_ccf on
random data: designed and given taps, oversample rates 1, 2, 4 and 4/3, 10^6 input samples,
channel maps, call splits, tags, set_taps between runs and restart."""

import numpy as np
import pmt
from gnuradio import blocks, gr, gr_unittest
from gnuradio.filter import pfb

from gnuradio import cuda
from qa_support import assert_channels_close, flowgraph_test, run_channels


class qa_pfb_channelizer_ccf(flowgraph_test):
    seed = 12

    def values(self, n):
        return (self.rng.standard_normal(n) + 1j * self.rng.standard_normal(n)).astype(np.complex64)

    def test_against_gnuradio(self):
        for numchans, oversample_rate, ntaps, n in (
            (64, 1, 0, 1_000_000),
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
            gpu_block = cuda.pfb_channelizer_ccf(numchans, taps, oversample_rate)
            cpu_block = pfb.channelizer_ccf(numchans, taps, oversample_rate)
            self.assertEqual([list(b) for b in gpu_block.taps()], [list(np.float32(b)) for b in cpu_block.taps()], what)
            gpu, _ = run_channels(gpu_block, numchans, data)
            cpu, _ = run_channels(cpu_block, numchans, data)
            assert_channels_close(self, gpu, cpu, what)

    def test_channel_map_and_fewer_outputs(self):
        data = self.values(40_000)
        taps = list(self.rng.standard_normal(40).astype(np.float32))
        channel_map = [7, 0, 3, 3, 5, 1, 2, 6]
        results = []
        for make in (cuda.pfb_channelizer_ccf, pfb.channelizer_ccf):
            block = make(8, taps, 2)
            block.set_channel_map(channel_map)
            results.append(run_channels(block, 8, data)[0])
        assert_channels_close(self, results[0], results[1], "channel map")
        self.assertEqual(list(cuda.pfb_channelizer_ccf(8, taps).channel_map()), list(range(8)))
        # Three outputs connected: they carry the map's first three channels.
        block = cuda.pfb_channelizer_ccf(8, taps, 2)
        block.set_channel_map(channel_map)
        partial, _ = run_channels(block, 3, data)
        assert_channels_close(self, partial, results[1][:3], "three outputs")

    def test_a_map_shorter_than_the_connected_outputs_is_refused(self):
        # GNU Radio's channelizer reads past the end of such a map; here the run refuses to
        # start, and a running block refuses the map (it ran on with its old one).
        taps = list(self.rng.standard_normal(16).astype(np.float32))
        block = cuda.pfb_channelizer_ccf(4, taps, 1)
        source = blocks.vector_source_c(self.values(400_000))
        throttle = blocks.throttle(gr.sizeof_gr_complex, 2e6)
        sinks = [blocks.vector_sink_c() for _ in range(3)]
        tb = gr.top_block()
        tb.connect(source, throttle, block)
        for port, sink in enumerate(sinks):
            tb.connect((block, port), sink)
        block.set_channel_map([1, 2])
        with self.assertRaisesRegex(ValueError, "channel map has 2 entries for 3 connected outputs"):
            tb.run()
        block.set_channel_map([3, 2, 1])
        tb.start()
        with self.assertRaisesRegex(ValueError, "channel map has 2 entries for 3 connected outputs"):
            block.set_channel_map([0, 1])
        tb.wait()
        self.assertEqual(list(block.channel_map()), [3, 2, 1])
        self.assertEqual(len(sinks[2].data()), 100_000)

    def test_output_does_not_depend_on_the_call_split(self):
        data = self.values(64_011)
        taps = list(self.rng.standard_normal(61).astype(np.float32))
        reference, _ = run_channels(cuda.pfb_channelizer_ccf(16, taps, 16 / 12), 16, data)
        for max_noutput in (4, 12, 300, 2048):
            block = cuda.pfb_channelizer_ccf(16, taps, 16 / 12)
            block.set_max_noutput_items(max_noutput)
            split, _ = run_channels(block, 16, data)
            for channel in range(16):
                np.testing.assert_array_equal(split[channel], reference[channel], err_msg=f"max {max_noutput}")

    def test_tags_at_the_hier_blocks_offsets(self):
        data = self.values(16_000)
        offsets = (0, 3, 8, 12, 1001, 7777, 15_000)
        tags = [gr.tag_utils.python_to_tag((o, pmt.intern("k"), pmt.from_long(i))) for i, o in enumerate(offsets)]
        taps = list(self.rng.standard_normal(33).astype(np.float32))
        for oversample_rate in (1, 2):
            _, gpu_tags = run_channels(cuda.pfb_channelizer_ccf(8, taps, oversample_rate), 8, data, tags)
            _, cpu_tags = run_channels(pfb.channelizer_ccf(8, taps, oversample_rate), 8, data, tags)
            for channel in range(8):
                self.assertEqual(sorted(gpu_tags[channel]), sorted(cpu_tags[channel]), f"oversample {oversample_rate}")

    def test_tag_policies_the_user_sets(self):
        # TPP_DONT drops the tags; TPP_ALL_TO_ALL and TPP_ONE_TO_ONE mean the hier block's
        # movement for this block, each tag once, not the scheduler's on top of it.
        data = self.values(8_000)
        tags = [
            gr.tag_utils.python_to_tag((o, pmt.intern("k"), pmt.from_long(i)))
            for i, o in enumerate((0, 12, 1001, 7777))
        ]
        taps = list(self.rng.standard_normal(33).astype(np.float32))
        _, cpu_tags = run_channels(pfb.channelizer_ccf(8, taps, 2), 8, data, tags)
        for policy, expected in ((gr.TPP_DONT, [[]] * 8), (gr.TPP_ALL_TO_ALL, cpu_tags), (gr.TPP_ONE_TO_ONE, cpu_tags)):
            block = cuda.pfb_channelizer_ccf(8, taps, 2)
            block.set_tag_propagation_policy(policy)
            _, gpu_tags = run_channels(block, 8, data, tags)
            self.assertEqual([sorted(t) for t in gpu_tags], [sorted(t) for t in expected], policy)
        self.assertGreater(len(cpu_tags[0]), 0)

    def test_set_taps_and_restart(self):
        data = self.values(30_000)
        first = list(self.rng.standard_normal(24).astype(np.float32))
        second = list(self.rng.standard_normal(45).astype(np.float32))
        results = []
        for make in (cuda.pfb_channelizer_ccf, pfb.channelizer_ccf):
            results.append(run_channels(make(6, first, 2), 6, data, runs=2, between=lambda b: b.set_taps(second))[0])
        assert_channels_close(self, results[0], results[1], "set_taps between runs")


if __name__ == "__main__":
    gr_unittest.run(qa_pfb_channelizer_ccf)
