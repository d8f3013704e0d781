#!/usr/bin/env python3
#
# SPDX-License-Identifier: GPL-3.0-or-later
#
"""Readers with history and sample delays on both sides of every GPU edge.

GNU Radio preloads history - 1 zeros in front of a reader's first item, and some readers
read through them (blocks.delay consumes its history), others keep them (FIR filters);
a sample delay only moves tags. Every case runs the same flowgraph with cuda.copy and with
blocks.copy in the middle, and the outputs (and tags) must be identical; random call sizes
and a small ring make the writer wrap many times.
"""

import numpy as np
from gnuradio import blocks, filter as gr_filter, gr, gr_unittest

from gnuradio import cuda
from qa_support import flowgraph_test


class history_reader(gr.sync_block):
    """A CPU reader with any history and sample delay: out[i] = in[i] - in[i - (history - 1)]."""

    def __init__(self, history, delay):
        gr.sync_block.__init__(self, "history_reader", [np.float32], [np.float32])
        self.set_history(history)
        self.declare_sample_delay(delay)

    def work(self, input_items, output_items):
        n, h = len(output_items[0]), self.history()
        output_items[0][:] = input_items[0][h - 1 : h - 1 + n] - input_items[0][:n]
        return n


class consuming_delay(gr.basic_block):
    """A general CPU reader that consumes through its history, as blocks.delay does, but with
    a sample delay of its own choosing."""

    def __init__(self, history, delay):
        gr.basic_block.__init__(self, "consuming_delay", [np.float32], [np.float32])
        self.set_history(history)
        self.declare_sample_delay(delay)

    def forecast(self, noutput_items, ninputs):
        return [noutput_items] * ninputs

    def general_work(self, input_items, output_items):
        n = min(len(input_items[0]), len(output_items[0]))
        output_items[0][:n] = input_items[0][:n]
        self.consume_each(n)
        return n


class gpu_history_reader(cuda.sync_block):
    """The GPU twin of history_reader, on device arrays (the same work())."""

    def __init__(self, history, delay):
        cuda.sync_block.__init__(self, "gpu_history_reader", [np.float32], [np.float32])
        self.set_history(history)
        self.declare_sample_delay(delay)

    work = history_reader.work


def moving_difference(data, history):
    """history_reader's output from NumPy: GNU Radio's history starts as zeros."""
    padded = np.concatenate([np.zeros(history - 1, data.dtype), data])
    return padded[history - 1 :] - padded[: len(data)]


class qa_history_readers(flowgraph_test):
    n = 60_000

    def setUp(self):
        super().setUp()
        self.data = self.random(np.float32, self.n)

    def run_both(self, make_reader, itemsize=4, vlen=1, tags=()):
        """Runs source -> {cuda.copy | blocks.copy} -> reader -> sink; returns both outputs,
        each as (items, tags as (offset, key) pairs)."""
        results = []
        for middle in (cuda.copy(itemsize), blocks.copy(itemsize)):
            middle.set_max_noutput_items(int(self.rng.integers(100, 3000)))
            data = self.data[: self.n - self.n % vlen]
            source = blocks.vector_source_f(data, False, vlen, list(tags))
            sink = blocks.vector_sink_f(vlen)
            tb = gr.top_block()
            reader = make_reader()  # a Python block lives only as long as its Python object
            tb.connect(source, middle, reader, sink)
            tb.run()
            results.append(
                (np.array(sink.data(), dtype=np.float32), sorted((tag.offset, str(tag.key)) for tag in sink.tags()))
            )
        return results

    def assert_same_as_cpu(self, make_reader, **kwargs):
        (gpu, gpu_tags), (cpu, cpu_tags) = self.run_both(make_reader, **kwargs)
        self.assertGreater(len(cpu), 0)
        np.testing.assert_array_equal(gpu, cpu)
        self.assertEqual(gpu_tags, cpu_tags)

    def tags(self, count):
        offsets = sorted(self.rng.choice(self.n // 2, count, replace=False))
        return [
            gr.tag_utils.python_to_tag(
                (int(offset), gr.pmt.intern(f"t{index}"), gr.pmt.from_long(index), gr.pmt.PMT_NIL)
            )
            for index, offset in enumerate(offsets)
        ]

    def test_delay_after_a_gpu_block(self):
        for delay in (1, 10, 1000, 5000):
            with self.subTest(delay=delay):
                self.assert_same_as_cpu(lambda: blocks.delay(4, delay), tags=self.tags(20))

    def test_delay_of_vector_items_after_a_gpu_block(self):
        for delay in (1, 37, 1000):
            with self.subTest(delay=delay):
                self.assert_same_as_cpu(lambda: blocks.delay(64, delay), itemsize=64, vlen=16)

    def test_delay_output_is_zeros_then_the_input(self):
        for delay in (1, 10, 5000):
            with self.subTest(delay=delay):
                (gpu, _), _ = self.run_both(lambda: blocks.delay(4, delay))
                self.assertEqual(len(gpu), self.n + delay)
                np.testing.assert_array_equal(gpu[:delay], 0)
                np.testing.assert_array_equal(gpu[delay:], self.data)

    def test_fir_filters_with_history_and_decimation(self):
        for ntaps, decimation in ((1, 1), (2, 1), (17, 1), (64, 3), (301, 7)):
            taps = self.random(np.float32, ntaps)
            with self.subTest(ntaps=ntaps, decimation=decimation):
                self.assert_same_as_cpu(lambda: gr_filter.fir_filter_fff(decimation, taps), tags=self.tags(10))

    def test_moving_average(self):
        # Its running sum is rounded differently for different call sizes: compare closely,
        # not bit for bit.
        for length in (2, 100, 4000):
            with self.subTest(length=length):
                (gpu, _), (cpu, _) = self.run_both(lambda: blocks.moving_average_ff(length, 1.0 / length, 4000))
                self.assertEqual(len(gpu), self.n)
                np.testing.assert_allclose(gpu, cpu, rtol=0, atol=1e-4)
                expected = np.convolve(self.data, np.full(length, 1.0 / length))[: self.n]
                np.testing.assert_allclose(gpu, expected, rtol=0, atol=1e-3)

    def test_keep_m_in_n(self):
        for m, n, offset in ((1, 2, 0), (3, 7, 2), (100, 1000, 999)):
            with self.subTest(m=m, n=n, offset=offset):
                self.assert_same_as_cpu(lambda: blocks.keep_m_in_n(4, m, n, offset))

    def test_history_and_sample_delay_in_every_combination(self):
        # (2, 1) is every QT GUI sink's; (1, d > 0) made GNU Radio's single-mapped reader see
        # an empty ring as full and read items never written.
        for history, delay in ((2, 1), (1, 1), (1, 3), (3, 1), (4, 3), (5, 2), (11, 10), (1, 0)):
            with self.subTest(history=history, delay=delay):
                self.assert_same_as_cpu(lambda: history_reader(history, delay), tags=self.tags(10))
                (gpu, _), _ = self.run_both(lambda: history_reader(history, delay))
                np.testing.assert_array_equal(gpu, moving_difference(self.data, history))

    def test_general_readers_consuming_through_their_history(self):
        for history, delay in ((11, 10), (11, 0), (11, 3), (1, 5)):
            with self.subTest(history=history, delay=delay):
                self.assert_same_as_cpu(lambda: consuming_delay(history, delay))

    def test_gpu_readers_with_history_after_cpu_and_gpu_writers(self):
        for history, delay in ((2, 1), (1, 3), (7, 0), (300, 299), (4096, 10)):
            for gpu_writer in (False, True):
                with self.subTest(history=history, delay=delay, gpu_writer=gpu_writer):
                    tb = gr.top_block()
                    source, sink = blocks.vector_source_f(self.data), blocks.vector_sink_f()
                    reader = gpu_history_reader(history, delay)
                    writer = cuda.copy(4) if gpu_writer else blocks.copy(4)
                    writer.set_max_noutput_items(int(self.rng.integers(100, 3000)))
                    tb.connect(source, writer, reader, cuda.copy(4), sink)
                    tb.run()
                    np.testing.assert_array_equal(
                        np.array(sink.data(), dtype=np.float32), moving_difference(self.data, history)
                    )

    def test_delay_before_a_gpu_block_and_between_gpu_blocks(self):
        for delay in (1, 1000):
            with self.subTest(delay=delay):
                tb = gr.top_block()
                sink = blocks.vector_sink_f()
                tb.connect(
                    blocks.vector_source_f(self.data),
                    blocks.delay(4, delay),
                    cuda.copy(4),
                    cuda.copy(4),
                    blocks.delay(4, delay),
                    cuda.copy(4),
                    sink,
                )
                tb.run()
                out = np.array(sink.data(), dtype=np.float32)
                np.testing.assert_array_equal(out, np.concatenate([np.zeros(2 * delay, np.float32), self.data]))


if __name__ == "__main__":
    gr_unittest.run(qa_history_readers)
