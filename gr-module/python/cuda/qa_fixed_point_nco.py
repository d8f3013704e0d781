#!/usr/bin/env python3
#
# SPDX-License-Identifier: GPL-3.0-or-later
#
"""fixed_point_nco (numpy) against analog.sig_source_f/_c: float32 bits must be equal."""

import ctypes
import math
import os
import sys

import numpy as np
from gnuradio import analog, blocks, gr, gr_unittest

try:
    from gnuradio.cuda.fixed_point_nco import fixed_point_nco
except ImportError:  # module not built/installed: use the file next to this test
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    from fixed_point_nco import fixed_point_nco

N = 100_003

WAVEFORMS = {
    "const": analog.GR_CONST_WAVE,
    "sin": analog.GR_SIN_WAVE,
    "cos": analog.GR_COS_WAVE,
    "sqr": analog.GR_SQR_WAVE,
    "tri": analog.GR_TRI_WAVE,
    "saw": analog.GR_SAW_WAVE,
}

# (sampling_freq, frequency, amplitude, complex offset, initial phase); float
# sources take the real part of the offset.
PARAMETER_SETS = [
    (32000, 1000, 1.0, 0, 0.0),
    (1e6, -12345.678, 0.75, 0.25 - 0.5j, 1.0),
    (48000, 30000, -2.5, 0, 0.3),  # above fs/2, negative amplitude (-0.0 samples)
    (44100.7, 3.0, 1e3, -7.125 + 3.3j, -3.0),  # odd rate, slow wave
    (1e6, 250000, -1.0, 0, math.pi),  # phases land exactly on 0, +-pi/2, -pi: -0.0 sines
    (1.0, 0.1, 3.3, complex(-0.0, -0.0), 2 * math.pi + 0.1),  # -0.0 offset, phase to fold
    (1e6, 777.0, -0.0, 0, 0.0),  # -0.0 amplitude: signed zeros everywhere
    (1e6, 777.0, -0.0, complex(-0.0, -0.0), 0.0),  # -0.0 amplitude and offset
    (2.5e6, -1.7e6, 0.1, 1e-3 + 1e-3j, 10.0),  # far above fs/2 and negative
    (1e6, 5e5, 1.0, 0.5, -1.0),  # exactly fs/2: increment is -2**31
    (7919.0, 0.0, 0.0, -1.5 + 0j, 0.7),  # zero frequency, zero amplitude
    (96000, 12345.6789, 1.2345678901, 0.1 + 0.2j, -math.pi / 2),
    (3e9, 1.23456e9, 2.0**-20, 1.0j, 1e-7),
]


def bits(x):
    """The raw float32 bits, so -0.0 != +0.0 and NaNs compare by payload."""
    return np.ascontiguousarray(x).view(np.uint32)


def gnuradio_output(complex_output, fs, waveform, freq, ampl, offset, phase, n, setup=None):
    if complex_output:
        src = analog.sig_source_c(fs, waveform, freq, ampl, complex(offset), phase)
        sink, dtype = blocks.vector_sink_c(), np.complex64
    else:
        src = analog.sig_source_f(fs, waveform, freq, ampl, complex(offset).real, phase)
        sink, dtype = blocks.vector_sink_f(), np.float32
    if setup is not None:
        setup(src)
    tb = gr.top_block()
    item_size = gr.sizeof_gr_complex if complex_output else gr.sizeof_float
    tb.connect(src, blocks.head(item_size, n), sink)
    tb.run()
    return np.array(sink.data(), dtype=dtype)


def chunk_sizes(rng, n):
    """Random call sizes summing to n, including empty and single-sample calls."""
    sizes = []
    while sum(sizes) < n:
        sizes.append(int(rng.choice([0, 1, rng.integers(2, 100), rng.integers(100, 30000)])))
    sizes[-1] -= sum(sizes) - n
    return sizes


class qa_fixed_point_nco(gr_unittest.TestCase):
    def setUp(self):
        self.rng = np.random.default_rng(2024)

    def ours(self, nco, waveform, ampl, offset, complex_output, n):
        off = complex(offset) if complex_output else complex(offset).real
        chunks = [nco.generate(waveform, size, ampl, off, complex_output) for size in chunk_sizes(self.rng, n)]
        for c in chunks:
            self.assertEqual(c.dtype, np.complex64 if complex_output else np.float32)
        return np.concatenate(chunks)

    def assert_bit_exact(self, got, want, what):
        self.assertEqual(got.shape, want.shape, what)
        if not np.array_equal(bits(got), bits(want)):
            bad = np.flatnonzero(bits(got) != bits(want))
            i = bad[0] // (2 if np.iscomplexobj(want) else 1)
            self.fail(
                "%s: %d differing words, first at sample %d: got %r want %r" % (what, bad.size, i, got[i], want[i])
            )

    def test_every_waveform_and_parameter_set(self):
        for complex_output in (False, True):
            for fs, freq, ampl, offset, phase in PARAMETER_SETS:
                for name, waveform in WAVEFORMS.items():
                    what = "%s %s fs=%r f=%r ampl=%r off=%r phase=%r" % (
                        "complex" if complex_output else "float",
                        name,
                        fs,
                        freq,
                        ampl,
                        offset,
                        phase,
                    )
                    want = gnuradio_output(complex_output, fs, waveform, freq, ampl, offset, phase, N)
                    nco = fixed_point_nco(np, fs, freq, phase)
                    got = self.ours(nco, waveform, ampl, offset, complex_output, N)
                    self.assert_bit_exact(got, want, what)

    def test_random_parameters(self):
        # Odd rates, frequencies anywhere in (-2 fs, 2 fs), amplitudes and offsets
        # over several decades, any phase: catches rare rounding-order slips.
        rng = np.random.default_rng(99)
        for _ in range(12):
            fs = float(10 ** rng.uniform(0, 9))
            freq = float(rng.uniform(-2, 2) * fs)
            ampl = float(rng.choice([-1, 1]) * 10 ** rng.uniform(-4, 4))
            offset = complex(*(rng.choice([-1, 1], 2) * 10 ** rng.uniform(-4, 4, 2)))
            phase = float(rng.uniform(-20, 20))
            for complex_output in (False, True):
                for name, waveform in WAVEFORMS.items():
                    want = gnuradio_output(complex_output, fs, waveform, freq, ampl, offset, phase, 20_011)
                    nco = fixed_point_nco(np, fs, freq, phase)
                    got = self.ours(nco, waveform, ampl, offset, complex_output, 20_011)
                    self.assert_bit_exact(
                        got,
                        want,
                        "random %s complex=%s fs=%r f=%r ampl=%r off=%r phase=%r"
                        % (name, complex_output, fs, freq, ampl, offset, phase),
                    )

    def test_setters_after_construction(self):
        # GNU Radio's setters change the increment/phase but not the accumulator otherwise.
        def setup(src):
            src.set_sampling_freq(250e3)
            src.set_frequency(-31337.5)
            src.set_phase(2.5)

        for complex_output in (False, True):
            for name, waveform in WAVEFORMS.items():
                want = gnuradio_output(complex_output, 32000, waveform, 1000, 0.8, 0.1 - 0.1j, 0.0, N, setup)
                nco = fixed_point_nco(np, 32000, 1000, 0.0)
                nco.set_sampling_freq(250e3)
                nco.set_frequency(-31337.5)
                nco.set_phase(2.5)
                got = self.ours(nco, waveform, 0.8, 0.1 - 0.1j, complex_output, N)
                self.assert_bit_exact(got, want, "setters %s complex=%s" % (name, complex_output))

    def test_chunking_does_not_matter(self):
        for waveform in WAVEFORMS.values():
            whole = fixed_point_nco(np, 1e6, 123456.7, 0.5).generate(waveform, N, 0.9, 0.05, True)
            nco = fixed_point_nco(np, 1e6, 123456.7, 0.5)
            parts = np.concatenate([nco.generate(waveform, size, 0.9, 0.05, True) for size in chunk_sizes(self.rng, N)])
            self.assert_bit_exact(parts, whole, "chunked waveform %d" % int(waveform))
            # Writing into a caller's buffer (a block's output port) gives the same samples.
            nco = fixed_point_nco(np, 1e6, 123456.7, 0.5)
            buffer = np.empty(N, np.complex64)
            self.assertIs(nco.generate(waveform, N, 0.9, 0.05, True, out=buffer), buffer)
            self.assert_bit_exact(buffer, whole, "out= waveform %d" % int(waveform))

    def test_sine_table_matches_the_installed_library(self):
        # All 1024 (slope, value) pairs, against gr::fxpt::s_sine_table in the
        # libgnuradio-runtime this process uses; catches a table entry that the
        # sampled waveforms above happen not to expose.
        # The copy already mapped into this process (gnuradio.gr loads it), wherever it lives.
        with open("/proc/self/maps") as maps:
            paths = {line.split()[-1] for line in maps if "libgnuradio-runtime" in line}
        self.assertEqual(len(paths), 1, "libgnuradio-runtime is not loaded exactly once")
        table = (ctypes.c_float * 2048).in_dll(ctypes.CDLL(paths.pop()), "_ZN2gr4fxpt12s_sine_tableE")
        table = np.ctypeslib.as_array(table).reshape(1024, 2)
        module = sys.modules[fixed_point_nco.__module__]
        self.assert_bit_exact(module._SINE_SLOPE, table[:, 0], "table slopes")
        self.assert_bit_exact(module._SINE_VALUE, table[:, 1], "table values")

    def test_phase_accumulator(self):
        nco = fixed_point_nco(np, 1e6, 250000, math.pi)
        # pi folds to -2**31; a quarter of fs is exactly a quarter turn per sample.
        self.assertEqual(nco.phase, 2**31)
        self.assertEqual(nco.phase_increment, 2**30)
        nco.generate(analog.GR_SIN_WAVE, 3)
        self.assertEqual(nco.phase, (2**31 + 3 * 2**30) % 2**32)
        nco.generate(analog.GR_CONST_WAVE, 5)  # a constant wave does not step the phase
        self.assertEqual(nco.phase, (2**31 + 3 * 2**30) % 2**32)
        self.assertAlmostEqual(nco.get_freq(), math.pi / 2, places=6)
        self.assertAlmostEqual(nco.get_phase(), math.pi / 2, places=6)
        self.assertEqual(nco.generate("sin", 0).shape, (0,))
        with self.assertRaises(ValueError):
            nco.generate(42, 10)


if __name__ == "__main__":
    gr_unittest.run(qa_fixed_point_nco)
