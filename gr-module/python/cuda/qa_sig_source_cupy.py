#!/usr/bin/env python3
#
# SPDX-License-Identifier: GPL-3.0-or-later
#
"""sig_source_cupy against analog.sig_source_c/f: the same float32 bits, through the GPU
buffers and back to the CPU, across calls of every size."""

import numpy as np
import pmt
from gnuradio import analog, blocks, gr, gr_unittest

from gnuradio import cuda
from qa_support import flowgraph_test

WAVEFORMS = (
    analog.GR_SIN_WAVE,
    analog.GR_COS_WAVE,
    analog.GR_CONST_WAVE,
    analog.GR_SQR_WAVE,
    analog.GR_TRI_WAVE,
    analog.GR_SAW_WAVE,
)


def samples(source, n, dtype, max_call=None):
    tb = gr.top_block()
    if max_call:
        source.set_max_noutput_items(max_call)
    sink = blocks.vector_sink_c() if dtype == np.complex64 else blocks.vector_sink_f()
    tb.connect(source, blocks.head(np.dtype(dtype).itemsize, n), sink)
    tb.run()
    return np.array(sink.data(), dtype)


class qa_sig_source_cupy(flowgraph_test):
    def assert_bits_equal(self, ours, theirs):
        self.assertEqual(len(ours), len(theirs))
        np.testing.assert_array_equal(ours.view(np.uint32), theirs.view(np.uint32))

    def test_every_waveform_bit_exact(self):
        n = 100_003
        for dtype, reference in ((np.complex64, analog.sig_source_c), (np.float32, analog.sig_source_f)):
            for waveform in WAVEFORMS:
                for fs, f, ampl, offset, phase in (
                    (32000, 1234.5, 1.0, 0.0, 0.0),
                    (1e6, -77_777.7, 0.3, 0.25, 1.0),
                    (44100.7, 30_000.0, 2.5, -1.0, -2.0),
                ):
                    ours = cuda.sig_source_cupy(fs, waveform, f, ampl, offset, phase, dtype)
                    theirs = reference(fs, waveform, f, ampl, offset, phase)
                    with self.subTest(dtype=np.dtype(dtype).name, waveform=waveform, f=f):
                        self.assert_bits_equal(samples(ours, n, dtype, max_call=4093), samples(theirs, n, dtype))

    def test_setters_and_command_port(self):
        ours = cuda.sig_source_cupy(48000, analog.GR_COS_WAVE, 1000, 1.0, 0, 0, np.complex64)
        theirs = analog.sig_source_c(48000, analog.GR_COS_WAVE, 1000, 1.0, 0, 0)
        for block in (ours, theirs):
            block.set_frequency(3210.5)
            block.set_amplitude(0.5)
            block.set_phase(0.75)
        self.assertEqual(ours.frequency(), 3210.5)
        self.assert_bits_equal(samples(ours, 50_000, np.complex64), samples(theirs, 50_000, np.complex64))
        ours._handle_command(pmt.to_pmt({"freq": 100.0, "ampl": 2.0}))
        self.assertEqual((ours.frequency(), ours.amplitude()), (100.0, 2.0))
        # Messages that are not dicts of known keys are warned of and ignored; PMT_NIL (an
        # empty dict to pmt.is_dict()) ended GNU Radio's block's thread.
        unconvertible = pmt.dict_add(pmt.make_dict(), pmt.intern("freq"), pmt.init_u64vector(2, [1, 2]))
        for ignored in (
            pmt.PMT_NIL,
            pmt.from_double(5.0),
            pmt.to_pmt({"freq": "fast"}),
            pmt.to_pmt({"bogus": 1}),
            unconvertible,
            pmt.cons(pmt.intern("freq"), pmt.intern("fast")),
            pmt.cons(pmt.from_long(3), pmt.from_double(1.0)),
        ):
            ours._handle_command(ignored)
        self.assertEqual((ours.frequency(), ours.amplitude()), (100.0, 2.0))
        self.assertIsNone(ours.error)

    def test_command_pairs_as_gnu_radio(self):
        # GNU Radio's sig_source takes one (key . value) pair as well as a dict.
        ours = cuda.sig_source_cupy(48000, analog.GR_COS_WAVE, 1000, 1.0, 0, 0, np.complex64)
        theirs = analog.sig_source_c(48000, analog.GR_COS_WAVE, 1000, 1.0, 0, 0)
        for key, value in (
            ("freq", pmt.from_double(2000.0)),
            ("ampl", pmt.from_long(2)),
            ("phase", pmt.from_double(0.5)),
        ):
            command = pmt.cons(pmt.intern(key), value)
            ours._handle_command(command)
            theirs._post(pmt.intern("cmd"), command)
        self.assertEqual((ours.frequency(), ours.amplitude()), (2000.0, 2.0))
        self.assert_bits_equal(samples(ours, 20_000, np.complex64), samples(theirs, 20_000, np.complex64))

    def test_unsupported_type_is_refused(self):
        with self.assertRaisesRegex(ValueError, "complex64 or float32"):
            cuda.sig_source_cupy(1.0, analog.GR_COS_WAVE, 0.1, 1.0, 0.0, 0.0, np.int16)


if __name__ == "__main__":
    gr_unittest.run(qa_sig_source_cupy)
