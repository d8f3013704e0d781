#!/usr/bin/env python3
#
# SPDX-License-Identifier: GPL-3.0-or-later
#
"""cuda.moving_average_ff/cc against blocks.moving_average_ff/cc on 10^6 random samples:
lengths 1 to 10^5 (the chunked sums of long windows), vectors, small max_iter, a DC offset (where a running sum loses most),
the same bits however the stream is split into calls, and set_length_and_scale."""

import numpy as np
from gnuradio import blocks, gr_unittest
from gnuradio import cuda
from qa_support import assert_relative, check_change_shifts_as_gnuradio, flowgraph_test, run_ports


class qa_moving_average(flowgraph_test):
    def average(self, make, dtype, data, length, scale, max_iter, vlen, max_output=None):
        source_of, sink_of = (
            (blocks.vector_source_f, blocks.vector_sink_f)
            if dtype == np.float32
            else (blocks.vector_source_c, blocks.vector_sink_c)
        )
        block = make(length, scale, max_iter, vlen)
        if max_output:
            block.set_max_noutput_items(max_output)
        return run_ports([source_of(data, False, vlen)], block, [sink_of(vlen)])[0]

    @staticmethod
    def exact_average(data, length, scale, vlen):
        """The moving average in float64, from zeros before the stream as GNU Radio's
        history starts, by differences of prefix sums per lane."""
        lanes = data.astype(np.complex128).reshape(-1, vlen)
        padded = np.concatenate([np.zeros((length - 1, vlen)), lanes])
        sums = np.concatenate([np.zeros((1, vlen)), np.cumsum(padded, axis=0)])
        window_sums = sums[length:] - sums[: len(lanes)]
        averaged = (window_sums * scale).reshape(-1)
        return averaged.real if np.isrealobj(data) else averaged

    def test_against_gnuradio(self):
        # Windows from 1024 items start their sums from chunk sums (vectors of one lane), and
        # restart every 64 outputs (a smaller max_iter keeps the item-by-item start).
        cases = [
            (1, 1, 4096),
            (2, 1, 4096),
            (31, 1, 4096),
            (1000, 1, 4096),
            (17, 4, 4096),
            (64, 1, 100),
            (5, 3, 7),
            (1024, 1, 4096),
            (5000, 1, 4096),
            (5000, 1, 40),
            (3000, 2, 4096),
            (100_000, 1, 4096),
        ]
        for suffix, dtype, scale in (("ff", np.float32, 0.125), ("cc", np.complex64, 0.5 - 0.25j)):
            for length, vlen, max_iter in cases:
                n = (1_000_000 // vlen) * vlen if length < 1000 else 300_000
                data = self.random(dtype, n) + np.asarray(3, dtype)
                got = self.average(
                    getattr(cuda, "moving_average_" + suffix), dtype, data, length, scale, max_iter, vlen
                )
                want = self.average(
                    getattr(blocks, "moving_average_" + suffix), dtype, data, length, scale, max_iter, vlen
                )
                what = f"{suffix} length {length} vlen {vlen} max_iter {max_iter}"
                exact = self.exact_average(data, length, scale, vlen)
                assert_relative(self, got, exact, what + ", against the exact sums")
                # GNU Radio's own running sums drift from the exact ones by up to 1.4e-5 of the
                # output's RMS at length 10^5: agreement to 1e-5 beyond that.
                rms = np.sqrt(np.mean(np.abs(exact) ** 2))
                drift = np.max(np.abs(want - exact)) / rms
                self.assertLess(np.max(np.abs(got - want)) / rms, drift + 1e-5, what + ", against GNU Radio")
                # The running sum restarts at points aligned to the stream: calls of any size
                # give the same bits.
                split = self.average(
                    getattr(cuda, "moving_average_" + suffix), dtype, data, length, scale, max_iter, vlen, 777
                )
                np.testing.assert_array_equal(split, got, f"{suffix} length {length}, calls of 777 items")

    def test_calls_of_one_item_give_the_same_bits(self):
        data = self.random(np.complex64, 20_000) + np.complex64(3)
        for length, max_iter in ((7, 4096), (40, 5)):
            whole = self.average(cuda.moving_average_cc, np.complex64, data, length, 0.25, max_iter, 1)
            single = self.average(cuda.moving_average_cc, np.complex64, data, length, 0.25, max_iter, 1, 1)
            np.testing.assert_array_equal(single, whole, f"length {length} max_iter {max_iter}")

    def test_length_one_vectors_are_the_scaled_input(self):
        # GNU Radio's vlen > 1 path starts its sum with an item too many for length 1.
        data = self.random(np.float32, 3000)
        got = self.average(cuda.moving_average_ff, np.float32, data, 1, 2.0, 4096, 3)
        np.testing.assert_array_equal(got, data * np.float32(2.0))

    def test_setters(self):
        block = cuda.moving_average_cc(10, 1.0)
        block.set_length_and_scale(20, 0.5j)
        self.assertEqual((block.length(), block.scale()), (20, 0.5j))
        block.set_length(30)
        block.set_scale(2.0)
        self.assertEqual((block.length(), block.scale()), (30, 2.0))
        data = self.random(np.complex64, 50_000)
        got = run_ports([blocks.vector_source_c(data)], block, [blocks.vector_sink_c()])[0]
        # GNU Radio's block takes the new length at its first work(), which returns 0 items
        # with the new history: the same number of outputs.
        reference = blocks.moving_average_cc(10, 1.0)
        reference.set_length_and_scale(30, 2.0)
        want = run_ports([blocks.vector_source_c(data)], reference, [blocks.vector_sink_c()])[0]
        assert_relative(self, got, want)

    def test_new_length_while_running_moves_the_stream_as_gnuradio(self):
        # GNU Radio's history is the length: outputs after set_length() while running skip (or
        # repeat) the change of length. So here, across 1024 too, where the kernel's restart
        # segments grow.
        data = self.random(np.complex64, 200_000)
        for old, new in ((100, 2000), (2000, 100), (1000, 1030), (7, 8)):
            with self.subTest(lengths=(old, new)):
                check_change_shifts_as_gnuradio(
                    self,
                    cuda.moving_average_cc(old, 1.0, 4000, 1),
                    lambda block, new=new: block.set_length(new),
                    data,
                    self.exact_average(data, old, 1.0, 1),
                    self.exact_average(data, new, 1.0, 1),
                    new - old,
                    1e-5,
                )


if __name__ == "__main__":
    gr_unittest.run(qa_moving_average)
