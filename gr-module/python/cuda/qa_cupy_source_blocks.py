#!/usr/bin/env python3
#
# SPDX-License-Identifier: GPL-3.0-or-later
#
"""The CuPy sources and repeat (const_source_cupy, vector_source_cupy, noise_source_cupy,
random_uniform_source_cupy, repeat_cupy) against GNU Radio's CPU blocks: data and tags
exactly, random sources by their moments, ranges and seeds."""

import math

import numpy as np
import pmt
from gnuradio import analog, blocks, gr, gr_unittest

from gnuradio import cuda
from qa_support import flowgraph_test

SINKS = {np.complex64: blocks.vector_sink_c, np.float32: blocks.vector_sink_f,
         np.int32: blocks.vector_sink_i, np.int16: blocks.vector_sink_s,
         np.int8: blocks.vector_sink_b, np.uint8: blocks.vector_sink_b}
SOURCES = {np.complex64: blocks.vector_source_c, np.float32: blocks.vector_source_f,
           np.int32: blocks.vector_source_i, np.int16: blocks.vector_source_s,
           np.uint8: blocks.vector_source_b}
ITEMSIZES = {np.complex64: gr.sizeof_gr_complex, np.float32: gr.sizeof_float,
             np.int32: gr.sizeof_int, np.int16: gr.sizeof_short, np.uint8: gr.sizeof_char}
INTERPOLATION = pmt.intern("interpolation")


def tag(offset, number):
    return gr.tag_utils.python_to_tag((offset, pmt.intern(f"key{number % 3}"), pmt.from_long(number),
                                       pmt.intern("qa")))


def tag_list(sink):
    return sorted((t.offset, pmt.symbol_to_string(t.key), pmt.to_long(t.value), pmt.symbol_to_string(t.srcid))
                  for t in sink.tags())


def collect(source, nitems, dtype, vlen=1, max_noutput_items=None):
    """nitems items of source (kept alive by the caller) through a CPU head and sink."""
    sink = SINKS[dtype](vlen)
    if max_noutput_items:
        source.set_max_noutput_items(max_noutput_items)
    tb = gr.top_block()
    tb.connect(source, blocks.head(np.dtype(dtype).itemsize * vlen, nitems), sink)
    tb.run()
    return as_array(sink.data(), dtype), sink


def as_array(items, dtype):
    """A sink's data as dtype (byte sinks hold int8 data as unsigned values)."""
    if np.dtype(dtype).itemsize == 1:
        return np.array(items, np.uint8).view(dtype)
    return np.array(items, dtype)


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


class qa_cupy_source_blocks(flowgraph_test):
    seed = 77

    # const_source_cupy

    def test_const_source_against_analog_const_wave(self):
        cpu = {np.complex64: analog.sig_source_c, np.float32: analog.sig_source_f,
               np.int32: analog.sig_source_i, np.int16: analog.sig_source_s}
        values = {np.complex64: 1.5 - 0.25j, np.float32: -2.75, np.int32: -123_456, np.int16: 321}
        for dtype, value in values.items():
            for length in (1, 4097, 100_003):
                ours = cuda.const_source_cupy(value, dtype)
                got, _ = collect(ours, length, dtype)
                theirs = cpu[dtype](0, analog.GR_CONST_WAVE, 0, 0, value)
                want, _ = collect(theirs, length, dtype)
                np.testing.assert_array_equal(got, want)
                np.testing.assert_array_equal(got, np.full(length, value, dtype))
        ours = cuda.const_source_cupy(-5, np.int8)
        got, _ = collect(ours, 10_001, np.int8)
        np.testing.assert_array_equal(got, np.full(10_001, -5, np.int8))

    def test_const_source_setter(self):
        block = cuda.const_source_cupy(1.0, np.float32)
        self.assertEqual(block.const(), 1.0)
        block.set_const(-0.5)
        self.assertEqual(block.const(), -0.5)
        got, _ = collect(block, 5000, np.float32)
        np.testing.assert_array_equal(got, np.full(5000, -0.5, np.float32))

    # vector_source_cupy

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
            (ValueError, r"data length \(5\) must be a multiple of vlen \(2\)",
             lambda: cuda.vector_source_cupy(np.zeros(5, np.float32), True, 2, dtype=np.float32)),
            (TypeError, "data of complex128 cannot become float32",
             lambda: cuda.vector_source_cupy([1j], dtype=np.float32)),
            (TypeError, "data of float64 cannot become int16", lambda: cuda.vector_source_cupy([1.5], dtype=np.int16)),
            (ValueError, "outside the int8 range", lambda: cuda.vector_source_cupy([300], dtype=np.int8)),
            (ValueError, "outside the uint8 range", lambda: cuda.vector_source_cupy([-1, 2], dtype=np.uint8)),
            (TypeError, "tags must be gr.tag_t", lambda: cuda.vector_source_cupy([1], tags=[(0, "k", 1)])),
            (TypeError, "vector_source_cupy supports complex64, float32, int32, int16, int8 and uint8, not float64",
             lambda: cuda.vector_source_cupy([1.0], dtype=np.float64)),
        )
        for error, message, make in checks:
            with self.assertRaisesRegex(error, message):
                make()
        cuda.vector_source_cupy([0, 255], False, 1, None, np.uint8)  # Python ints into bytes

    # noise_source_cupy

    def noise(self, noise_type, amplitude, dtype, n=1_000_003, seed=0):
        block = cuda.noise_source_cupy(noise_type, amplitude, seed, dtype)
        got, _ = collect(block, n, dtype)
        return got

    def test_noise_float_moments(self):
        a = 2.5
        uniform = self.noise(analog.GR_UNIFORM, a, np.float32)
        self.assertGreaterEqual(uniform.min(), -a)
        self.assertLess(uniform.max(), a)
        self.assertAlmostEqual(uniform.mean(), 0, delta=0.01)
        self.assertAlmostEqual(uniform.var(), a * a / 3, delta=0.01 * a * a)

        gaussian = self.noise(analog.GR_GAUSSIAN, a, np.float32)
        self.assertAlmostEqual(gaussian.mean(), 0, delta=0.01)
        self.assertAlmostEqual(gaussian.std(), a, delta=0.01 * a)
        self.assertAlmostEqual(np.mean(np.abs(gaussian) < a), 0.6827, delta=0.003)

        laplacian = self.noise(analog.GR_LAPLACIAN, a, np.float32)
        self.assertAlmostEqual(laplacian.mean(), 0, delta=0.02)
        self.assertAlmostEqual(np.mean(np.abs(laplacian)), a, delta=0.01 * a)
        self.assertAlmostEqual(laplacian.var(), 2 * a * a, delta=0.03 * a * a)

        impulse = self.noise(analog.GR_IMPULSE, a, np.float32, n=3_000_017)
        hits = impulse[impulse != 0]
        self.assertAlmostEqual(len(hits) / len(impulse), math.exp(-9 / math.sqrt(2)), delta=1.5e-4)
        self.assertGreater(hits.min(), 9 * a)
        self.assertAlmostEqual(hits.mean(), a * (9 + math.sqrt(2)), delta=0.1 * a)

    def test_noise_complex_moments(self):
        a = 3.0
        gaussian = self.noise(analog.GR_GAUSSIAN, a, np.complex64)
        for component in (gaussian.real, gaussian.imag):
            self.assertAlmostEqual(component.mean(), 0, delta=0.01)
            self.assertAlmostEqual(component.std(), a / math.sqrt(2), delta=0.01 * a)
        self.assertAlmostEqual(np.mean(gaussian.real * gaussian.imag), 0, delta=0.01 * a * a)
        self.assertAlmostEqual(np.mean(np.abs(gaussian) ** 2), a * a, delta=0.01 * a * a)
        uniform = self.noise(analog.GR_UNIFORM, a, np.complex64)
        for component in (uniform.real, uniform.imag):
            self.assertGreaterEqual(component.min(), -a / math.sqrt(2) * (1 + 1e-6))
            self.assertLess(component.max(), a / math.sqrt(2))
            self.assertAlmostEqual(component.var(), a * a / 6, delta=0.01 * a * a)

    def test_noise_spread_equals_cpu_blocks(self):
        cpu = {np.complex64: analog.noise_source_c, np.float32: analog.noise_source_f,
               np.int32: analog.noise_source_i, np.int16: analog.noise_source_s}
        types = {np.complex64: (analog.GR_UNIFORM, analog.GR_GAUSSIAN),
                 np.float32: (analog.GR_UNIFORM, analog.GR_GAUSSIAN, analog.GR_LAPLACIAN),
                 np.int32: (analog.GR_UNIFORM, analog.GR_GAUSSIAN, analog.GR_LAPLACIAN),
                 np.int16: (analog.GR_GAUSSIAN,)}
        for dtype, noise_types in types.items():
            amplitude = 1000.0 if np.dtype(dtype).kind == "i" else 1.5
            for noise_type in noise_types:
                ours = self.noise(noise_type, amplitude, dtype, n=500_009)
                theirs, _ = collect(cpu[dtype](noise_type, amplitude, 3), 500_009, dtype)
                label = f"{np.dtype(dtype).name} {noise_type}"
                self.assertAlmostEqual(np.std(ours) / np.std(theirs), 1, delta=0.01, msg=label)
                self.assertAlmostEqual(np.mean(np.abs(ours)) / np.mean(np.abs(theirs)), 1, delta=0.01, msg=label)
                if np.dtype(dtype).kind == "i":
                    np.testing.assert_array_equal(ours, np.trunc(ours))

    def test_noise_seeds(self):
        for dtype, noise_type in ((np.float32, analog.GR_LAPLACIAN), (np.complex64, analog.GR_GAUSSIAN),
                                  (np.int16, analog.GR_UNIFORM), (np.float32, analog.GR_IMPULSE)):
            runs = []
            for seed, max_noutput_items in ((42, None), (42, 997), (43, None), (0, None), (0, None)):
                block = cuda.noise_source_cupy(noise_type, 1000.0, seed, dtype)
                runs.append(collect(block, 1_500_007, dtype, max_noutput_items=max_noutput_items)[0])
            label = f"{np.dtype(dtype).name} {noise_type}"
            np.testing.assert_array_equal(runs[0], runs[1], err_msg=label)  # whatever the call sizes
            for other in (runs[2], runs[3]):
                self.assertFalse(np.array_equal(runs[0], other), label)
            self.assertFalse(np.array_equal(runs[3], runs[4]), label)

    def test_noise_setters_and_getters(self):
        block = cuda.noise_source_cupy(analog.GR_UNIFORM, 1.0, 5, np.float32)
        self.assertEqual(block.type(), analog.GR_UNIFORM)
        self.assertEqual(block.amplitude(), 1.0)
        block.set_type(analog.GR_GAUSSIAN)
        block.set_amplitude(4.0)
        self.assertEqual(block.type(), analog.GR_GAUSSIAN)
        self.assertEqual(block.amplitude(), 4.0)
        got, _ = collect(block, 400_000, np.float32)
        self.assertGreater(np.abs(got).max(), 4.0)
        self.assertAlmostEqual(got.std(), 4.0, delta=0.05)
        with self.assertRaisesRegex(ValueError, "complex64 noise is GR_UNIFORM or GR_GAUSSIAN, not GR_LAPLACIAN"):
            cuda.noise_source_cupy(analog.GR_LAPLACIAN, 1.0, 0, np.complex64)
        with self.assertRaisesRegex(ValueError, "not GR_IMPULSE"):
            cuda.noise_source_cupy(dtype=np.complex64).set_type(analog.GR_IMPULSE)
        with self.assertRaisesRegex(ValueError, "noise_type must be one of"):
            cuda.noise_source_cupy(104)
        with self.assertRaisesRegex(TypeError, "noise_source_cupy supports complex64, float32, int32 and int16, not int8"):
            cuda.noise_source_cupy(analog.GR_GAUSSIAN, 1.0, 0, np.int8)
        with self.assertRaisesRegex(ValueError, "seed must be at least 0"):
            cuda.noise_source_cupy(analog.GR_GAUSSIAN, 1.0, -1)

    # random_uniform_source_cupy

    def test_random_uniform_range_and_moments(self):
        cpu = {np.int32: analog.random_uniform_source_i, np.int16: analog.random_uniform_source_s,
               np.uint8: analog.random_uniform_source_b}
        for dtype, (minimum, maximum) in ((np.int32, (-5, 11)), (np.int16, (-1000, 1000)),
                                          (np.uint8, (0, 256)), (np.int8, (-128, 128))):
            block = cuda.random_uniform_source_cupy(minimum, maximum, 0, dtype)
            got, _ = collect(block, 1_000_003, dtype)
            self.assertEqual(got.min(), minimum)
            self.assertEqual(got.max(), maximum - 1)
            self.assertEqual(len(np.unique(got)), maximum - minimum)
            mean, spread = (minimum + maximum - 1) / 2, math.sqrt(((maximum - minimum) ** 2 - 1) / 12)
            self.assertAlmostEqual(got.astype(float).mean(), mean, delta=0.01 * spread)
            self.assertAlmostEqual(got.astype(float).std(), spread, delta=0.01 * spread)
            if dtype in cpu:
                theirs, _ = collect(cpu[dtype](minimum, maximum, 1), 1_000_003, dtype)
                self.assertAlmostEqual(got.astype(float).std() / theirs.astype(float).std(), 1, delta=0.01)

    def test_random_uniform_seeds_and_checks(self):
        runs = []
        for seed, max_noutput_items in ((7, None), (7, 1234), (8, None), (0, None), (0, None)):
            block = cuda.random_uniform_source_cupy(0, 1000, seed, np.int32)
            runs.append(collect(block, 1_200_001, np.int32, max_noutput_items=max_noutput_items)[0])
        np.testing.assert_array_equal(runs[0], runs[1])
        self.assertFalse(np.array_equal(runs[0], runs[2]))
        self.assertFalse(np.array_equal(runs[3], runs[4]))
        checks = (
            (ValueError, r"\[5, 5\) must hold a value", lambda: cuda.random_uniform_source_cupy(5, 5)),
            (ValueError, "fit in uint8", lambda: cuda.random_uniform_source_cupy(-1, 10, 0, np.uint8)),
            (ValueError, "fit in int16", lambda: cuda.random_uniform_source_cupy(0, 40_000, 0, np.int16)),
            (TypeError, "maximum must be an integer", lambda: cuda.random_uniform_source_cupy(0, 2.5)),
            (TypeError, "random_uniform_source_cupy supports int32, int16, int8 and uint8, not float32",
             lambda: cuda.random_uniform_source_cupy(0, 2, 0, np.float32)),
        )
        for error, message, make in checks:
            with self.assertRaisesRegex(error, message):
                make()

    # repeat_cupy

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
                        np.testing.assert_array_equal(got.reshape(items, interp * vlen),
                                                      np.tile(data.reshape(items, vlen), interp), err_msg=label)
                        self.assertEqual(got_tags, want_tags, label)
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
            self.assertEqual(got_tags, want_tags)
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
        tb.connect(blocks.vector_source_f(data, False, 1, tags), blocks.throttle(gr.sizeof_float, 100_000),
                   ours, sink)
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
            (TypeError, "interp must be an integer", lambda: cuda.repeat_cupy(2.5)),
            (ValueError, "output_multiple must be between 1 and 2\\^31 - 1, got 0", lambda: cuda.repeat_cupy(2, 1, np.float32, 0)),
            (TypeError, "repeat_cupy supports complex64, float32, int32, int16, int8 and uint8, not float64",
             lambda: cuda.repeat_cupy(2, 1, np.float64)),
        )
        for error, message, make in checks:
            with self.assertRaisesRegex(error, message):
                make()


if __name__ == "__main__":
    gr_unittest.run(qa_cupy_source_blocks)
