#!/usr/bin/env python3
#
# SPDX-License-Identifier: GPL-3.0-or-later
#
"""repeat_cupy against blocks.repeat: data and tags exactly, for every type, vector length,
interpolation and call size, and interpolation changes by message and while running."""

import numpy as np
import pmt
from gnuradio import blocks, gr, gr_unittest

from gnuradio import cuda
from qa_support import SINKS, SOURCES, as_array, flowgraph_test, tag, tag_list

ITEMSIZES = {
    np.complex64: gr.sizeof_gr_complex,
    np.float32: gr.sizeof_float,
    np.int32: gr.sizeof_int,
    np.int16: gr.sizeof_short,
    np.uint8: gr.sizeof_char,
}
INTERPOLATION = pmt.intern("interpolation")
RELEASE = tuple(int(part) for part in (gr.major_version(), gr.api_version(), gr.minor_version()))


def as_blocks_repeat_writes(tags):
    """tag_list() of repeat_cupy's output as blocks.repeat of the GNU Radio running writes it.
    The release difference: 3.10.5.1's blocks.repeat (a sync_interpolator whose tags the
    scheduler moves) keeps a tag's srcid; from 3.10.8 on (3.10.12 too) it copies tags itself
    (repeat_impl::copy_tags) without their srcid, "#f". repeat_cupy keeps the srcid on every
    release."""
    if RELEASE < (3, 10, 8):
        return tags
    return [(offset, key, value, "#f") for offset, key, value, _ in tags]


class trigger_sink(gr.sync_block):
    """A CPU float sink that keeps data and tags and calls action() once after `after` items."""

    def __init__(self, after, action):
        gr.sync_block.__init__(self, "trigger_sink", [np.float32], None)
        self.after, self.action, self.seen = after, action, 0
        self.data, self.tags = [], []

    def work(self, input_items, output_items):
        count = len(input_items[0])
        self.data.append(input_items[0].copy())
        self.tags += self.get_tags_in_range(0, self.seen, self.seen + count)
        before, self.seen = self.seen, self.seen + count
        if before < self.after <= self.seen:
            self.action()
        return count


class qa_repeat_cupy(flowgraph_test):
    seed = 77

    def run_repeat(self, block, data, tags, dtype, vlen, max_noutput_items=None):
        source = SOURCES[dtype](data.tolist() if np.dtype(dtype).kind in "iu" else data, False, vlen, tags)
        sink = SINKS[dtype](vlen)
        if max_noutput_items:
            block.set_max_noutput_items(max_noutput_items)
        tb = gr.top_block()
        tb.connect(source, block, sink)
        tb.run()
        return as_array(sink.data(), dtype), tag_list(sink)

    def test_repeat_against_blocks_repeat(self):
        for dtype in SOURCES:
            for vlen in (1, 3):
                for interp in (1, 3, 17):
                    for max_noutput_items in (None, 7, 100):
                        items = 2001
                        data = self.random(dtype, items * vlen)
                        tags = [tag(offset, offset) for offset in (0, 1, 2, 999, 1000, 2000)]
                        ours = cuda.repeat_cupy(interp, vlen, dtype)
                        got, got_tags = self.run_repeat(ours, data, tags, dtype, vlen, max_noutput_items)
                        theirs = blocks.repeat(ITEMSIZES[dtype] * vlen, interp)
                        want, want_tags = self.run_repeat(theirs, data, tags, dtype, vlen)
                        label = f"{np.dtype(dtype).name} vlen {vlen} interp {interp} calls {max_noutput_items}"
                        np.testing.assert_array_equal(got, want, err_msg=label)
                        np.testing.assert_array_equal(
                            got.reshape(items, interp * vlen), np.tile(data.reshape(items, vlen), interp), err_msg=label
                        )
                        self.assertEqual(as_blocks_repeat_writes(got_tags), want_tags, label)
                        self.assertEqual({t[3] for t in got_tags}, {"qa"}, label)
                        self.assertEqual([t[0] for t in got_tags], [interp * o for o in (0, 1, 2, 999, 1000, 2000)])

    def test_repeat_output_multiple(self):
        data = self.random(np.float32, 10_007)
        ours = cuda.repeat_cupy(5, 1, np.float32, 5)
        self.assertEqual(ours.output_multiple(), 5)
        got, _ = self.run_repeat(ours, data, [], np.float32, 1)
        np.testing.assert_array_equal(got, np.repeat(data, 5))

    def test_repeat_interpolation_messages_like_blocks_repeat(self):
        data = self.random(np.float32, 3001)
        tags = [tag(offset, offset) for offset in (0, 5, 3000)]
        theirs = blocks.repeat(gr.sizeof_float, 2)
        pair = pmt.cons(INTERPOLATION, pmt.from_long(5))
        theirs.to_basic_block()._post(INTERPOLATION, pair)
        want, want_tags = self.run_repeat(theirs, data, tags, np.float32, 1)
        for message in (pair, pmt.from_long(5)):
            ours = cuda.repeat_cupy(2, 1, np.float32)
            ours.to_basic_block()._post(INTERPOLATION, message)
            got, got_tags = self.run_repeat(ours, data, tags, np.float32, 1, max_noutput_items=333)
            np.testing.assert_array_equal(got, want)
            self.assertEqual(as_blocks_repeat_writes(got_tags), want_tags)
            self.assertEqual({t[3] for t in got_tags}, {"qa"})
            self.assertEqual(ours.interpolation(), 5)
        ours = cuda.repeat_cupy(2, 1, np.float32)
        for bad in (pmt.from_long(0), pmt.intern("five"), pmt.cons(INTERPOLATION, pmt.from_double(2.5))):
            ours.to_basic_block()._post(INTERPOLATION, bad)  # logged and ignored
        got, _ = self.run_repeat(ours, data, [], np.float32, 1)
        np.testing.assert_array_equal(got, np.repeat(data, 2))

    def test_repeat_interpolation_change_while_running(self):
        items = 100_000
        data = np.arange(items, dtype=np.float32)
        tags = [tag(offset, offset) for offset in range(0, items, 997)]
        ours = cuda.repeat_cupy(2, 1, np.float32)
        # The throttle keeps the repeat block near the sink, which changes the
        # interpolation after 40000 outputs (about 0.2 s in).
        sink = trigger_sink(40_000, lambda: ours.set_interpolation(5))
        tb = gr.top_block()
        tb.connect(blocks.vector_source_f(data, False, 1, tags), blocks.throttle(gr.sizeof_float, 100_000), ours, sink)
        tb.run()
        self.assertEqual(ours.interpolation(), 5)
        got = np.concatenate(sink.data)
        values, starts, counts = np.unique(got, return_index=True, return_counts=True)
        np.testing.assert_array_equal(values, data)  # every item, in order, each as one run
        np.testing.assert_array_equal(np.sort(starts), starts)
        switch = np.argmax(counts == 5)
        self.assertTrue(np.all(counts[:switch] == 2) and np.all(counts[switch:] == 5))
        self.assertGreater(switch, 1000)
        self.assertLess(switch, items - 1000)
        got_tags = {t.offset: pmt.to_long(t.value) for t in sink.tags}
        self.assertEqual(len(got_tags), len(tags))
        for offset, item in got_tags.items():  # each tag at its item's first repetition
            self.assertEqual(starts[item], offset)

    def test_repeat_setter_and_checks(self):
        block = cuda.repeat_cupy(3)
        self.assertEqual(block.interpolation(), 3)
        block.set_interpolation(4)
        self.assertEqual(block.interpolation(), 4)
        data = self.random(np.float32, 5003)
        got, _ = self.run_repeat(block, data, [], np.float32, 1, max_noutput_items=11)
        np.testing.assert_array_equal(got, np.repeat(data, 4))
        checks = (
            (ValueError, "interp must be between 1 and 2\\^31 - 1, got 0", lambda: cuda.repeat_cupy(0)),
            (ValueError, "interp must be between 1 and 2\\^31 - 1, got -2", lambda: block.set_interpolation(-2)),
            # ValueError for a wrong type too, as the reference module's repeat_cupy raises
            (ValueError, "interp must be an integer, not 2.5", lambda: cuda.repeat_cupy(2.5)),
            (ValueError, "vlen must be an integer", lambda: cuda.repeat_cupy(2, "4")),
            (ValueError, "interp must be an integer", lambda: block.set_interpolation(1.5)),
            (
                ValueError,
                "output_multiple must be between 1 and 2\\^31 - 1, got 0",
                lambda: cuda.repeat_cupy(2, 1, np.float32, 0),
            ),
            (
                ValueError,
                "repeat_cupy supports complex64, float32, int32, int16, int8 and uint8, not float64",
                lambda: cuda.repeat_cupy(2, 1, np.float64),
            ),
        )
        for error, message, make in checks:
            with self.assertRaisesRegex(error, message):
                make()


if __name__ == "__main__":
    gr_unittest.run(qa_repeat_cupy)
