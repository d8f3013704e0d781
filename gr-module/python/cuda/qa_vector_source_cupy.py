#!/usr/bin/env python3
#
# SPDX-License-Identifier: GPL-3.0-or-later
#
"""vector_source_cupy against blocks.vector_source: data once and repeated, tags, rewind and
new data, and the data it refuses."""

import numpy as np
import pmt
from gnuradio import blocks, gr, gr_unittest

from gnuradio import cuda
from qa_support import SINKS, SOURCES, as_array, collect, flowgraph_test, tag, tag_list


class qa_vector_source_cupy(flowgraph_test):
    seed = 77

    def test_vector_source_once_against_vector_source(self):
        for dtype in SOURCES:
            for vlen in (1, 4):
                for vectors in (1, 1023, 25_001):
                    data = self.random(dtype, vectors * vlen)
                    ours = cuda.vector_source_cupy(data, False, vlen, None, dtype)
                    sink = SINKS[dtype](vlen)
                    tb = gr.top_block()
                    tb.connect(ours, sink)
                    tb.run()  # ends by itself: WORK_DONE once the data is played
                    got = as_array(sink.data(), dtype)
                    np.testing.assert_array_equal(got, data)

    def test_vector_source_repeat_against_vector_source(self):
        for dtype in (np.complex64, np.int16):
            for vlen, vectors, total in ((1, 7, 100_003), (3, 1000, 50_001), (1, 12_345, 99_999)):
                data = self.random(dtype, vectors * vlen)
                ours = cuda.vector_source_cupy(data, True, vlen, dtype=dtype)
                got, _ = collect(ours, total, dtype, vlen, max_noutput_items=4099)
                host = data.tolist() if dtype == np.int16 else data
                want, _ = collect(SOURCES[dtype](host, True, vlen), total, dtype, vlen)
                np.testing.assert_array_equal(got, want)
                np.testing.assert_array_equal(got, np.resize(data, total * vlen))

    def test_vector_source_tags_against_vector_source(self):
        for repeat in (True, False):
            for vlen, vectors in ((1, 1000), (4, 250), (2, 3)):
                data = self.random(np.float32, vectors * vlen)
                offsets = (0, 1, vectors // 2, vectors - 1, vectors + 2, 3 * vectors)
                tags = [tag(offset, number) for number, offset in enumerate(offsets)]
                total = 20_011 if repeat else vectors
                ours = cuda.vector_source_cupy(data, repeat, vlen, tags, np.float32)
                got, our_sink = collect(ours, total, np.float32, vlen)
                theirs = blocks.vector_source_f(data, repeat, vlen, tags)
                want, their_sink = collect(theirs, total, np.float32, vlen)
                np.testing.assert_array_equal(got, want)
                self.assertEqual(tag_list(our_sink), tag_list(their_sink), f"repeat {repeat} vlen {vlen}")
                self.assertTrue(tag_list(our_sink))

    def test_vector_source_rewind_and_set_data(self):
        data = np.arange(10, dtype=np.float32)
        block = cuda.vector_source_cupy(data, False, 1, None, np.float32)
        sink = blocks.vector_sink_f()
        tb = gr.top_block()
        tb.connect(block, sink)
        tb.run()
        block.rewind()
        tb.run()
        np.testing.assert_array_equal(sink.data(), np.concatenate([data, data]))
        block.set_data([5.0, 6.0], [tag(1, 9)])
        sink.reset()
        tb.run()
        np.testing.assert_array_equal(sink.data(), [5.0, 6.0])
        self.assertEqual([(t.offset, pmt.to_long(t.value)) for t in sink.tags()], [(1, 9)])

    def test_vector_source_checks(self):
        checks = (
            (
                ValueError,
                r"data length \(5\) must be a multiple of vlen \(2\)",
                lambda: cuda.vector_source_cupy(np.zeros(5, np.float32), True, 2, dtype=np.float32),
            ),
            (
                TypeError,
                "data of complex128 cannot become float32",
                lambda: cuda.vector_source_cupy([1j], dtype=np.float32),
            ),
            (TypeError, "data of float64 cannot become int16", lambda: cuda.vector_source_cupy([1.5], dtype=np.int16)),
            (ValueError, "outside the int8 range", lambda: cuda.vector_source_cupy([300], dtype=np.int8)),
            (ValueError, "outside the uint8 range", lambda: cuda.vector_source_cupy([-1, 2], dtype=np.uint8)),
            (TypeError, "tags must be gr.tag_t", lambda: cuda.vector_source_cupy([1], tags=[(0, "k", 1)])),
            (
                TypeError,
                "vector_source_cupy supports complex64, float32, int32, int16, int8 and uint8, not float64",
                lambda: cuda.vector_source_cupy([1.0], dtype=np.float64),
            ),
        )
        for error, message, make in checks:
            with self.assertRaisesRegex(error, message):
                make()
        cuda.vector_source_cupy([0, 255], False, 1, None, np.uint8)  # Python ints into bytes


if __name__ == "__main__":
    gr_unittest.run(qa_vector_source_cupy)
