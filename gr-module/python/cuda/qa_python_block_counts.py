#!/usr/bin/env python3
#
# SPDX-License-Identifier: GPL-3.0-or-later
#
"""Python GPU blocks that produce, consume or return wrong counts, or name ports they lack in
produce, consume or tag calls: each ends the flowgraph with an error naming the block, the
call and the limit, instead of hanging or crashing it, overflowing a ring later with an
unrelated message, or sending garbage downstream."""

import numpy as np
import pmt
from gnuradio import blocks, gr, gr_unittest

from gnuradio import cuda
from qa_support import flowgraph_test


class miscounting(cuda.basic_block):
    """general_work() copies its input, then makes one wrong call chosen by \\p how."""

    def __init__(self, how):
        cuda.basic_block.__init__(self, "miscounting", [np.float32], [np.float32])
        self.how = how

    def general_work(self, input_items, output_items):
        n = min(len(input_items[0]), len(output_items[0]))
        output_items[0][:n] = input_items[0][:n]
        how, room, available = self.how, len(output_items[0]), len(input_items[0])
        if how == "consume too many":
            self.consume(0, available + 1)
        elif how == "consume in two calls too many":
            self.consume(0, available)
            self.consume(0, 1)
        elif how == "consume negative":
            self.consume(0, -10)
        elif how == "consume_each negative":
            self.consume_each(-1)
        elif how == "consume no such port":
            self.consume(1, n)
        elif how == "consume port -1":
            self.consume(-1, n)
        elif how == "tag no such output":
            self.add_item_tag(1, self.nitems_written(0), pmt.intern("key"), pmt.PMT_T)
        elif how == "tags of no such input":
            self.get_tags_in_range(2, 0, self.nitems_read(0) + n)
        elif how == "tags in a window of no such input":
            self.get_tags_in_window(1, 0, n)
        elif how == "consume a float":
            self.consume(0, 2.5)
        elif how == "produce too many":
            self.consume(0, n)
            self.produce(0, room + 100)
            return gr.WORK_CALLED_PRODUCE
        elif how == "produce negative":
            self.produce(0, -5)
            return gr.WORK_CALLED_PRODUCE
        elif how == "produce then return too many":
            self.consume(0, n)
            self.produce(0, n)
            return room - n + 1
        elif how == "return a float":
            self.consume(0, n)
            return 3.7
        elif how == "return a string":
            self.consume(0, n)
            return "1000"
        elif how == "return None":
            self.consume(0, n)
            return None
        elif how == "return True":
            self.consume(0, n)
            return True
        elif how == "return -3":
            self.consume(0, n)
            return -3
        return n


class well_counted(cuda.basic_block):
    """Right counts in every form GNU Radio allows: NumPy integers, produce() plus a return
    of 0, and produce() in several calls."""

    def __init__(self):
        cuda.basic_block.__init__(self, "well_counted", [np.float32], [np.float32])
        self.calls = 0

    def general_work(self, input_items, output_items):
        n = min(len(input_items[0]), len(output_items[0]))
        output_items[0][:n] = input_items[0][:n]
        self.calls += 1
        form = self.calls % 3
        self.consume(0, np.int64(n))
        if form == 0:
            return np.int32(n)
        half = n // 2
        self.produce(0, np.uint16(half) if half < 2**16 else half)
        self.produce(0, n - half)
        return 0 if form == 1 else gr.WORK_CALLED_PRODUCE


class short_interpolator(cuda.interp_block):
    """Repeats each input 3 times but returns one item short of a whole input's outputs."""

    def __init__(self):
        cuda.interp_block.__init__(self, "short_interpolator", [np.float32], [np.float32], 3)

    def work(self, input_items, output_items):
        output_items[0][:] = self.xp.repeat(input_items[0], 3)
        return len(output_items[0]) - 1


class qa_python_block_counts(flowgraph_test):
    time_limit = 60

    def run_block(self, block):
        data = self.random(np.float32, 50_000)
        tb = gr.top_block()
        sink = blocks.vector_sink_f()
        tb.connect(blocks.vector_source_f(data), block, sink)
        tb.run()  # the time limit fails the test if this hangs
        tb.wait()
        return data, np.array(sink.data(), dtype=np.float32)

    def test_wrong_counts_end_the_flowgraph_with_a_clear_error(self):
        cases = (
            ("consume too many", ValueError, r"consume\(0, \d+\) brings input 0 to \d+ items .* given \d+"),
            ("consume in two calls too many", ValueError, r"consume\(0, 1\) brings input 0 to \d+ items"),
            ("consume negative", ValueError, r"consume\(0, -10\): the count must not be negative"),
            ("consume_each negative", ValueError, r"consume\(0, -1\): the count must not be negative"),
            ("consume no such port", IndexError, r"consume\(1, \.\.\.\) names no input port"),
            ("consume port -1", IndexError, r"consume\(-1, \.\.\.\) names no input port"),
            ("tag no such output", IndexError, r"add_item_tag\(1, \.\.\.\) names no output port; the block has 1"),
            ("tags of no such input", IndexError, r"get_tags_in_range\(2, \.\.\.\) names no input port"),
            ("tags in a window of no such input", IndexError, r"get_tags_in_window\(1, \.\.\.\) names no input port"),
            ("consume a float", TypeError, r"consume\(0, 2.5\): the count must be a whole number"),
            ("produce too many", ValueError, r"produce\(0, \d+\) brings output 0 to \d+ items .* room for \d+"),
            ("produce negative", ValueError, r"produce\(0, -5\): the count must not be negative"),
            (
                "produce then return too many",
                ValueError,
                r"general_work\(\) called produce\(0, \.\.\.\) for \d+ items and returned \d+, \d+ in all, "
                r"but there is room for \d+; after produce\(\), return WORK_CALLED_PRODUCE",
            ),
            ("return a float", TypeError, r"general_work\(\) must return a number of items .* got 3.7"),
            ("return a string", TypeError, r"general_work\(\) must return a number of items .* got '1000'"),
            ("return None", TypeError, r"general_work\(\) must return a number of items .* got None"),
            ("return True", TypeError, r"general_work\(\) must return a number of items .* got True"),
            ("return -3", ValueError, r"general_work\(\) returned -3; return a number of items"),
        )
        for how, error, message in cases:
            with self.subTest(how=how):
                block = miscounting(how)
                _, out = self.run_block(block)
                self.assertIsInstance(block.error, error)
                self.assertRegex(str(block.error), "^miscounting: " + message)
                # Nothing of the failing call reaches the sink: at most the items of the
                # calls before it, none invented.
                self.assertEqual(len(out), 0)

    def test_an_interpolator_returning_part_of_an_input_ends_the_flowgraph(self):
        # The gateway consumes returned / interp input items: a remainder would lose its
        # input's other outputs.
        block = short_interpolator()
        _, out = self.run_block(block)
        self.assertIsInstance(block.error, ValueError)
        self.assertRegex(
            str(block.error), r"^short_interpolator: work\(\) returned \d+ items, not a multiple of interp 3"
        )
        self.assertEqual(len(out), 0)

    def test_right_counts_in_every_allowed_form_run(self):
        block = well_counted()
        data, out = self.run_block(block)
        self.assertIsNone(block.error)
        np.testing.assert_array_equal(out, data)

    def test_a_failing_block_can_be_stopped_and_run_again(self):
        block = miscounting("consume negative")
        tb = gr.top_block()
        source, sink = blocks.vector_source_f(self.random(np.float32, 10_000)), blocks.vector_sink_f()
        tb.connect(source, block, sink)
        for _ in range(3):
            block.error = None
            source.rewind()
            tb.run()
            self.assertIsInstance(block.error, ValueError)
        tb.stop()
        tb.wait()


if __name__ == "__main__":
    gr_unittest.run(qa_python_block_counts)
