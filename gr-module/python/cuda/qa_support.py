#
# SPDX-License-Identifier: GPL-3.0-or-later
#
"""What the QA files of the Python blocks share (not a test itself; CMake skips it).

flowgraph_test: a time limit per test, so that a flowgraph that hangs fails its test instead
of stalling the whole run, and a seeded random generator with the data types blocks take.
cpu_comparison_test adds running data through a block and GNU Radio's CPU counterpart.
The rest: GNU Radio's vector sources and sinks by data type, collecting a source's output,
and tags written and read as plain tuples, and the process's console output captured
(captured_log, for what GNU Radio's logger writes).
"""

import os
import signal
import sys
import tempfile
import time

import numpy as np
import pmt
from gnuradio import blocks, gr, gr_unittest

LENGTHS = (1, 4095, 100_003)

# (GNU Radio vector source, sink and block-name suffix) by data type
CPU_TYPES = {
    np.complex64: (blocks.vector_source_c, blocks.vector_sink_c, "cc"),
    np.float32: (blocks.vector_source_f, blocks.vector_sink_f, "ff"),
    np.int32: (blocks.vector_source_i, blocks.vector_sink_i, "ii"),
    np.int16: (blocks.vector_source_s, blocks.vector_sink_s, "ss"),
}

SINKS = {
    np.complex64: blocks.vector_sink_c,
    np.float32: blocks.vector_sink_f,
    np.int32: blocks.vector_sink_i,
    np.int16: blocks.vector_sink_s,
    np.int8: blocks.vector_sink_b,
    np.uint8: blocks.vector_sink_b,
}
SOURCES = {
    np.complex64: blocks.vector_source_c,
    np.float32: blocks.vector_source_f,
    np.int32: blocks.vector_source_i,
    np.int16: blocks.vector_source_s,
    np.uint8: blocks.vector_source_b,
}


class flowgraph_test(gr_unittest.TestCase):
    time_limit = 300  # seconds per test
    seed = 0

    def setUp(self):
        signal.signal(signal.SIGALRM, lambda *_: self.fail(f"the flowgraph hung (over {self.time_limit} s)"))
        signal.alarm(self.time_limit)
        self.rng = np.random.default_rng(self.seed)

    def tearDown(self):
        signal.alarm(0)

    def random(self, dtype, n):
        """\\p n random items of \\p dtype: normal for floats and complex, the full range for
        integers."""
        dtype = np.dtype(dtype)
        if dtype == np.complex64:
            return (self.rng.standard_normal(n) + 1j * self.rng.standard_normal(n)).astype(np.complex64)
        if dtype == np.float32:
            return self.rng.standard_normal(n).astype(np.float32)
        info = np.iinfo(dtype)
        return self.rng.integers(info.min, info.max, n, endpoint=True).astype(dtype)


class cpu_comparison_test(flowgraph_test):
    """A flowgraph_test whose blocks are compared with GNU Radio's CPU blocks."""

    def through(self, dtype, data, chain, vlen=1, sink_vlen=None, sink_dtype=None):
        source_of, _, _ = CPU_TYPES[dtype]
        _, sink_of, _ = CPU_TYPES[sink_dtype or dtype]
        source = source_of(data.tolist() if data.dtype.kind == "i" else data, False, vlen)
        return run(source, chain, sink_of(sink_vlen or vlen))

    def assert_matches(self, got, want, dtype, rtol=1e-6):
        if np.dtype(dtype).kind == "i":
            np.testing.assert_array_equal(got, want)
        else:
            np.testing.assert_allclose(got, want, rtol=rtol, atol=rtol)


def run(source, chain, sink):
    """Runs source -> chain -> sink; the caller keeps the Python blocks of chain alive."""
    tb = gr.top_block()
    tb.connect(source, *chain, sink)
    tb.run()
    return np.array(sink.data())


def change_while_running(block, data, change, after, rate):
    """Complex data through block behind a throttle at rate (samples/s); change(block) once the
    sink has after outputs. Returns the outputs."""
    sink = blocks.vector_sink_c()
    tb = gr.top_block()
    tb.connect(blocks.vector_source_c(data), blocks.throttle(gr.sizeof_gr_complex, rate), block, sink)
    tb.start()
    while len(sink.data()) < after:
        time.sleep(0.01)
    change(block)
    tb.wait()
    return np.array(sink.data())


def check_change_shifts_as_gnuradio(test, block, change, data, with_old, with_new, skipped, tolerance):
    """block, changed by change(block) after 50k of its outputs of data (complex) while running,
    moves the stream as GNU Radio's history does: the outputs from the change on skip (or
    repeat, where negative) skipped items, so output i is with_new[i + skipped] from the switch
    on and with_old[i] before it."""
    block.set_max_noutput_items(2000)
    got = change_while_running(block, data, change, 50_000, 2e6)
    test.assertEqual(len(got), len(data) - skipped)
    read = np.arange(len(got)) + skipped
    shifted = np.where((read >= 0) & (read < len(data)), with_new[np.clip(read, 0, len(data) - 1)], np.inf)
    mismatched = np.flatnonzero(~(np.abs(got - shifted) <= 1e-4 * (1 + np.abs(shifted))))
    switch = int(mismatched[-1]) + 1 if len(mismatched) else 0
    test.assertGreater(switch, 40_000, "the change applied before it was made")
    test.assertLess(relative_error(got[:switch], with_old[:switch]), tolerance)
    test.assertLess(relative_error(got[switch:], shifted[switch:]), tolerance)


def check_new_taps_shift_as_gnuradio(test, make, tap_dtype, data, tap_counts, tolerance):
    """GNU Radio's fir_filter and freq_xlating_fir_filter take the history of new taps while
    running: the outputs after them skip (or repeat, where negative) the change of tap count.
    Checks that for each (old, new) pair of tap_counts, with make(taps) making the block, set
    to new taps (of tap_dtype) after 50k of its outputs of data (complex)."""
    for old_count, new_count in tap_counts:
        old, new = (list(test.random(tap_dtype, count)) for count in (old_count, new_count))
        with test.subTest(taps=(old_count, new_count)):
            check_change_shifts_as_gnuradio(
                test,
                make(old),
                lambda block, new=new: block.set_taps(new),
                data,
                convolve(data, old),
                convolve(data, new),
                new_count - old_count,
                tolerance,
            )


def tag(offset, number):
    return gr.tag_utils.python_to_tag((offset, pmt.intern(f"key{number % 3}"), pmt.from_long(number), pmt.intern("qa")))


def tag_list(sink):
    """(offset, key, value, srcid) of each tag of sink; srcid written out, as "#f" when a block
    wrote the tag without one."""
    return sorted(
        (t.offset, pmt.symbol_to_string(t.key), pmt.to_long(t.value), pmt.write_string(t.srcid)) for t in sink.tags()
    )


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


def convolve(samples, taps):
    """The first len(samples) outputs of the convolution of samples with taps, in float64 or
    complex128 through NumPy's FFT: y[n] = sum_k taps[k] samples[n - k], zero before the
    start (GNU Radio's FIR filters, whose history starts zeroed)."""
    size = 1 << int(len(samples) + len(taps) - 1).bit_length()
    complex_result = np.iscomplexobj(samples) or np.iscomplexobj(taps)
    transform = np.fft.fft if complex_result else np.fft.rfft
    inverse = np.fft.ifft if complex_result else np.fft.irfft
    product = transform(np.asarray(samples, np.complex128 if complex_result else np.float64), size) * transform(
        np.asarray(taps, np.complex128 if complex_result else np.float64), size
    )
    return inverse(product, size)[: len(samples)]


def relative_error(got, want):
    """||got - want|| / ||want||, in float64."""
    got, want = np.asarray(got, np.complex128), np.asarray(want, np.complex128)
    return np.linalg.norm(got - want) / np.linalg.norm(want)


def run_ports(sources, block, sinks):
    """Connects sources[i] to input i of block and output j to sinks[j], runs, returns the
    sinks' data as arrays."""
    tb = gr.top_block()
    for port, source in enumerate(sources):
        tb.connect(source, (block, port))
    for port, sink in enumerate(sinks):
        tb.connect((block, port), sink)
    tb.run()
    return [np.array(sink.data()) for sink in sinks]


def run_channels(block, outputs, data, tags=(), runs=1, between=None):
    """A complex vector source of data (with tags) into block and a sink on each of its first
    outputs, run runs times (between(block) before each run after the first, the source
    rewound): each sink's data, and each sink's tags as (offset, value)."""
    tb = gr.top_block()
    source = blocks.vector_source_c(data, False, 1, list(tags))
    sinks = [blocks.vector_sink_c() for _ in range(outputs)]
    tb.connect(source, block)
    for port, sink in enumerate(sinks):
        tb.connect((block, port), sink)
    for run_index in range(runs):
        if run_index > 0:
            between(block)
            source.set_data(data, list(tags))
        tb.run()
    return (
        [np.array(sink.data()) for sink in sinks],
        [[(t.offset, pmt.to_python(t.value)) for t in sink.tags()] for sink in sinks],
    )


def assert_channels_close(test, got, want, what):
    """assert_relative for each of a block's outputs (or vector entries), as many as want."""
    test.assertEqual(len(got), len(want), what)
    for channel, (g, w) in enumerate(zip(got, want)):
        assert_relative(test, g, w, f"{what}, channel {channel}")


def assert_relative(test, got, want, message=""):
    """Agreement to 1e-5 of the output's RMS (got's largest error over want's RMS)."""
    test.assertEqual(len(got), len(want), message)
    scale = max(float(np.sqrt(np.mean(np.abs(want) ** 2))), 1e-30)
    test.assertLess(float(np.max(np.abs(got - want), initial=0.0)) / scale, 1e-5, message)


class captured_log:
    """What the process writes to file descriptors 1 and 2 meanwhile: GNU Radio's console log
    (stdout by default), shown again afterwards."""

    def __enter__(self):
        sys.stdout.flush()
        sys.stderr.flush()
        self.file = tempfile.TemporaryFile()
        self.saved = [os.dup(1), os.dup(2)]
        os.dup2(self.file.fileno(), 1)
        os.dup2(self.file.fileno(), 2)
        return self

    def __exit__(self, *_):
        sys.stdout.flush()
        sys.stderr.flush()
        for fd, saved in zip((1, 2), self.saved):
            os.dup2(saved, fd)
            os.close(saved)
        self.file.seek(0)
        self.text = self.file.read().decode(errors="replace")
        self.file.close()
        os.write(1, self.text.encode())
