#!/usr/bin/env python3
#
# SPDX-License-Identifier: GPL-3.0-or-later
#
"""Bit-exact, vectorised re-implementation of GNU Radio's signal source.

``fixed_point_nco`` produces the same float32 bits as GNU Radio 3.10's CPU
blocks ``analog.sig_source_f`` and ``analog.sig_source_c`` for every waveform
(``GR_CONST_WAVE``, ``GR_SIN_WAVE``, ``GR_COS_WAVE``, ``GR_SQR_WAVE``,
``GR_TRI_WAVE``, ``GR_SAW_WAVE``), any sampling rate, frequency, amplitude,
offset and initial phase, and across any split of the stream into calls.

Why bit-exact rather than "close": a GPU port of a source block is checked
against the CPU block, and downstream results (demodulators, thresholds,
hashes of captured files) should not change when the GPU block is swapped in.
GNU Radio does not compute ``sin(2*pi*f*t)``; it runs a 32-bit fixed-point
phase accumulator (``gr::fxpt_nco``) and looks the phase up in a 1024-segment
piecewise-linear sine table (``gr::fxpt``), so matching it means replaying
that exact integer and float32/float64 arithmetic:

* Phase: a uint32 accumulator; the increment is
  ``float_to_fixed(float(2*pi*f/fs))`` (double maths, rounded to float, then
  folded into [-pi, pi) and scaled to int32 in float32 arithmetic).  Sample k
  of a call uses ``phase + k*increment (mod 2**32)``, so a whole call is one
  vectorised multiply-add in uint32, which wraps exactly like the C++ one.
* Sine/cosine: ``table[i].slope * float(low 22 bits) + table[i].value`` in
  float32, with i the top 10 bits of the phase (cosine adds a quarter turn,
  0x40000000, first).  The table is rebuilt at import time from the formula
  of GNU Radio's build-time generator (``gen_sine_table.py``), printed to 16
  significant digits as it does and rounded to float32 as the C++ compiler
  rounds those literals (decimal -> double -> float).
* Square/triangle/sawtooth: derived from the float32 phase in radians
  (``fixed_to_float``), widened to double and combined with the double
  amplitude in exactly the operation order of ``sig_source_impl.cc``;
  complex outputs add the offset in float32 after rounding, float outputs
  add it in double before rounding (as GNU Radio does).
* ``GR_CONST_WAVE`` does not step the accumulator (GNU Radio's does not
  either), so switching waveforms keeps the same phase as the CPU block.

The reference is GNU Radio 3.10.5.1 as built for x86-64 (Debian amd64),
whose float maths is plain SSE: no fused multiply-add.  A build that fuses
``a*b + c`` (GCC's default on arm64) rounds its own sine lookup differently
from both this module and the x86-64 build.

All array work goes through the array module ``xp`` given to the
constructor (``numpy`` or ``cupy``): one code path, no Python loop over
samples.  Every floating-point step is a separate array operation, so no
fused multiply-add can creep in (a fused kernel could round differently).

API::

    nco = fixed_point_nco(xp, sampling_freq, frequency, phase=0.0)
    nco.set_frequency(frequency)          # Hz, keeps the phase
    nco.set_sampling_freq(sampling_freq)  # Hz, keeps the phase
    nco.set_phase(radians)                # like sig_source.set_phase()
    nco.frequency(), nco.sampling_freq()  # Hz, as last set
    nco.get_phase() -> float              # radians, as fxpt_nco.get_phase()
    nco.get_freq() -> float               # radians/sample, as fxpt_nco.get_freq()
    nco.phase                             # uint32 accumulator (int), settable
    nco.phase_increment                   # int32 increment (int)
    nco.generate(waveform, n, amplitude=1.0, offset=0.0,
                 complex_output=False, out=None)  # -> xp float32 / complex64 array

``waveform`` is one of the ``GR_*_WAVE`` constants below, GNU Radio's
``analog.GR_*_WAVE`` enum values (same numbers) or a name such as ``"sin"``.
``generate(..., complex_output=False)`` matches ``sig_source_f`` and
``complex_output=True`` matches ``sig_source_c`` (whose SIN and COS waves are
both ``cos + j*sin``).  The ``amplitude`` is a double, the ``offset`` is
rounded to float32 (per component), as the C++ block stores them.
"""

import math

import numpy as np

__all__ = [
    "fixed_point_nco",
    "GR_CONST_WAVE",
    "GR_SIN_WAVE",
    "GR_COS_WAVE",
    "GR_SQR_WAVE",
    "GR_TRI_WAVE",
    "GR_SAW_WAVE",
]

# Same numbering as gr::analog::gr_waveform_t, so GNU Radio's enum converts with int().
GR_CONST_WAVE = 100
GR_SIN_WAVE = 101
GR_COS_WAVE = 102
GR_SQR_WAVE = 103
GR_TRI_WAVE = 104
GR_SAW_WAVE = 105

_WAVEFORM_NAMES = {
    "const": GR_CONST_WAVE,
    "sin": GR_SIN_WAVE,
    "cos": GR_COS_WAVE,
    "sqr": GR_SQR_WAVE,
    "square": GR_SQR_WAVE,
    "tri": GR_TRI_WAVE,
    "triangle": GR_TRI_WAVE,
    "saw": GR_SAW_WAVE,
    "sawtooth": GR_SAW_WAVE,
}

_NBITS = 10  # table index bits: 1024 segments per turn
_FRACTION_BITS = 32 - _NBITS
_FRACTION_MASK = np.uint32((1 << _FRACTION_BITS) - 1)
_INDEX_SHIFT = np.uint32(_FRACTION_BITS)
_QUARTER_TURN = np.uint32(0x40000000)  # cos(x) = sin(x + pi/2)

# gr::fxpt keeps these as float, and float_to_fixed/fixed_to_float do their
# arithmetic in float32 with them; the double literals round to these floats.
_PI_F = np.float32(math.pi)
_TAU_F = np.float32(2.0 * math.pi)
_TWO_TO_THE_31_F = np.float32(2.0**31)
_RADIANS_PER_LSB_F = _PI_F / _TWO_TO_THE_31_F  # float32 quotient, as fixed_to_float

# GR_M_PI is a double; sig_source_impl.cc mixes it with the float phase in double.
_GR_M_PI = math.pi
_HALF_PI = _GR_M_PI / 2
_MINUS_HALF_PI = -1 * _GR_M_PI / 2
_TWO_PI = 2 * _GR_M_PI


def _sine_table():
    """(slope, value) float32 arrays of GNU Radio's piecewise-linear sine.

    Same arithmetic as GNU Radio's gen_sine_table.py (Python doubles and
    math.sin, so the same libm as the generator); each number is then printed
    with ``%22.15e`` as the generator prints it, parsed back to the nearest
    double as the C++ compiler parses the literal, and that double rounded to
    float32 as happens when it initialises the ``float`` table.  A plain
    Python loop: it runs once per process over 1024 entries.
    """
    nentries = 1 << _NBITS
    min_x = 0
    max_x = 2**32 - 1
    incx = float(max_x - min_x) / nentries

    def scaled_sine(x):
        return math.sin(x * math.pi / 2**31)

    def as_compiled(v):
        return float("%22.15e" % v)

    slopes = []
    values = []
    for i in range(nentries):
        a = (i * incx) + min_x
        b = ((i + 1) * incx) + min_x
        slopes.append(as_compiled((scaled_sine(b) - scaled_sine(a)) / (b - a)))
        values.append(as_compiled(scaled_sine(a)))
    return (
        np.array(slopes, dtype=np.float64).astype(np.float32),
        np.array(values, dtype=np.float64).astype(np.float32),
    )


_SINE_SLOPE, _SINE_VALUE = _sine_table()
_DEVICE_TABLES = {}  # (xp module name, CUDA device or None) -> (slope, value) arrays there


def _table_for(xp):
    # cupy arrays belong to one GPU: keep one copy of the table per device.
    device = xp.cuda.runtime.getDevice() if hasattr(xp, "cuda") else None
    key = (xp.__name__, device)
    if key not in _DEVICE_TABLES:
        _DEVICE_TABLES[key] = (xp.asarray(_SINE_SLOPE), xp.asarray(_SINE_VALUE))
    return _DEVICE_TABLES[key]


def _truncate_to_int32(v):
    """C ``(int)`` of a float as x86-64 does it (cvttss2si / cvttsd2si).

    Out-of-range and NaN inputs are undefined behaviour in C++; the x86
    instruction returns INT_MIN ("integer indefinite") for them, which is
    what the Debian amd64 GNU Radio build produces.  For +pi that INT_MIN is
    also the wrapped fixed-point value, so it is the right angle anyway.
    """
    v = float(v)
    if not math.isfinite(v):
        return -(2**31)
    t = math.trunc(v)
    if -(2**31) <= t < 2**31:
        return t
    return -(2**31)


def _float_to_fixed(x):
    """gr::fxpt::float_to_fixed: radians (float) -> int32 angle, -pi..pi -> -2**31..2**31."""
    with np.errstate(all="ignore"):
        x = np.float32(x)
        # x / TAU is a float quotient; adding the double literal 0.5 widens it to double.
        d = _truncate_to_int32(math.floor(float(x / _TAU_F) + 0.5)) if math.isfinite(x) else -(2**31)
        # d * TAU converts int d to float and multiplies in float.
        x = np.float32(x - np.float32(d) * _TAU_F)
        return _truncate_to_int32(x * _TWO_TO_THE_31_F / _PI_F)


def _fixed_to_float(x):
    """gr::fxpt::fixed_to_float for a scalar int32 angle."""
    return float(np.float32(x) * _RADIANS_PER_LSB_F)


def _to_int32(v):
    v &= 0xFFFFFFFF
    return v - (1 << 32) if v >= (1 << 31) else v


class fixed_point_nco:
    """GNU Radio's fixed-point NCO and sig_source waveforms on an array module.

    State is the uint32 phase accumulator and int32 increment, kept as Python
    ints so they survive between calls exactly as in the C++ block; samples
    are produced on ``xp`` (numpy or cupy).
    """

    def __init__(self, xp, sampling_freq, frequency, phase=0.0):
        self.xp = xp
        self._sampling_freq = float(sampling_freq)
        self._frequency = float(frequency)
        self._phase = 0
        self._phase_inc = 0
        # Same order as sig_source_impl's constructor: frequency, then phase.
        self._update_increment()
        self.set_phase(phase)

    # -- parameters, as sig_source_impl sets them -------------------------------

    def _update_increment(self):
        with np.errstate(all="ignore"):
            # Double maths in the C++ order ((2*pi)*f)/fs, then passed to
            # fxpt_nco::set_freq(float), i.e. rounded to float32.
            angle_rate = np.float64(_TWO_PI) * np.float64(self._frequency) / np.float64(self._sampling_freq)
            self._phase_inc = _float_to_fixed(np.float32(angle_rate))

    def set_frequency(self, frequency):
        """Waveform frequency in Hz; the phase is kept (as in GNU Radio)."""
        self._frequency = float(frequency)
        self._update_increment()

    def set_sampling_freq(self, sampling_freq):
        """Sampling rate in Hz; the phase is kept (as in GNU Radio)."""
        self._sampling_freq = float(sampling_freq)
        self._update_increment()

    def set_phase(self, phase):
        """Set the phase in radians; rounded to float32 as sig_source::set_phase(float)."""
        self._phase = _float_to_fixed(np.float32(phase)) & 0xFFFFFFFF

    def frequency(self):
        return self._frequency

    def sampling_freq(self):
        return self._sampling_freq

    def get_phase(self):
        """Current phase in radians, as fxpt_nco::get_phase() (float32 value)."""
        return _fixed_to_float(_to_int32(self._phase))

    def get_freq(self):
        """Phase increment in radians per sample, as fxpt_nco::get_freq()."""
        return _fixed_to_float(self._phase_inc)

    @property
    def phase(self):
        """The uint32 phase accumulator (0 .. 2**32-1)."""
        return self._phase

    @phase.setter
    def phase(self, value):
        self._phase = int(value) & 0xFFFFFFFF

    @property
    def phase_increment(self):
        """The int32 phase increment per sample."""
        return self._phase_inc

    # -- sample generation -------------------------------------------------------

    def _constant(self, n, value):
        """n copies of the float32 value, its sign of zero kept.

        Never xp.asarray of a numpy scalar: cupy (14.2) turns a 0-d -0.0 into
        +0.0 there, while copying a one-element numpy array keeps the bits.
        """
        xp = self.xp
        one = xp.asarray(np.array([value], dtype=np.float32))
        return xp.broadcast_to(one, (n,)).copy()

    def _next_phases(self, n):
        """uint32 phases of the next n samples; advances the accumulator by n steps."""
        xp = self.xp
        phases = xp.arange(n, dtype=xp.uint32)
        # uint32 arithmetic wraps mod 2**32, like the C++ accumulator's
        # repeated d_phase += d_phase_inc.
        phases *= np.uint32(self._phase_inc & 0xFFFFFFFF)
        phases += np.uint32(self._phase)
        self._phase = (self._phase + n * self._phase_inc) & 0xFFFFFFFF
        return phases

    def _lookup(self, ux):
        """gr::fxpt::sin of uint32 angles: slope * fraction + value, all float32."""
        xp = self.xp
        slope, value = _table_for(xp)
        index = ux >> _INDEX_SHIFT
        fraction = (ux & _FRACTION_MASK).astype(xp.float32)  # < 2**22: exact in float32
        # Two separate float32 operations: GNU Radio's build rounds the product
        # before the sum (no FMA on x86-64 baseline).
        out = xp.take(slope, index)
        out *= fraction
        out += xp.take(value, index)
        return out

    def _radians(self, phases):
        """fixed_to_float of each phase, widened to double (as used in sig_source_impl)."""
        xp = self.xp
        # int32 -> float32 rounds to nearest, then one float32 multiply.
        p = phases.view(xp.int32).astype(xp.float32)
        p *= _RADIANS_PER_LSB_F
        return p.astype(xp.float64)

    def generate(self, waveform, n, amplitude=1.0, offset=0.0, complex_output=False, out=None):
        """Next n samples of sig_source_f (or sig_source_c if complex_output).

        Returns an ``xp`` array of n float32 (or complex64) values and, except
        for GR_CONST_WAVE, advances the phase by n samples, so consecutive
        calls continue the waveform seamlessly.  With ``out`` (an ``xp`` array
        of n items, e.g. a block's output buffer) the samples are written
        there and ``out`` is returned.
        """
        n = int(n)
        if not 0 <= n < 2**32:
            raise ValueError("n must be in [0, 2**32)")
        samples = self._generate(waveform, n, amplitude, offset, complex_output)
        if out is None:
            return samples
        out[...] = samples
        return out

    def _generate(self, waveform, n, amplitude, offset, complex_output):
        xp = self.xp
        wave = _WAVEFORM_NAMES.get(waveform.lower(), None) if isinstance(waveform, str) else int(waveform)
        if wave not in (GR_CONST_WAVE, GR_SIN_WAVE, GR_COS_WAVE, GR_SQR_WAVE, GR_TRI_WAVE, GR_SAW_WAVE):
            raise ValueError("fixed_point_nco: invalid waveform %r" % (waveform,))
        ampl = float(amplitude)  # d_ampl is a double

        if complex_output:
            offset = complex(offset)
            # gr_complex offset: each component stored as float.
            off = (np.float32(offset.real), np.float32(offset.imag))
            re, im = self._complex_parts(wave, n, ampl, off)
            out = xp.stack((re, im), axis=-1).view(xp.complex64)
            return out.reshape(n)

        if isinstance(offset, complex):
            raise TypeError("a float output needs a real offset")
        return self._float_wave(wave, n, ampl, np.float32(offset))

    def _float_wave(self, wave, n, ampl, off):
        """sig_source_impl<float>::work."""
        xp = self.xp
        if wave == GR_CONST_WAVE:
            # (float)d_ampl + d_offset, float32 sum; the phase does not move.
            return self._constant(n, np.float32(ampl) + off)

        phases = self._next_phases(n)

        if wave in (GR_SIN_WAVE, GR_COS_WAVE):
            if wave == GR_COS_WAVE:
                phases += _QUARTER_TURN
            # (float)(fxpt::sin(phase) * ampl): the product is in double.
            out = (self._lookup(phases).astype(xp.float64) * ampl).astype(xp.float32)
            # GNU Radio skips the add for a zero offset; adding +0.0 would turn
            # -0.0 samples (negative amplitude) into +0.0.
            if off != 0:
                out += off
            return out

        p = self._radians(phases)
        if wave == GR_SQR_WAVE:
            # Below zero: t = (float)d_ampl + d_offset; else the stored offset
            # itself (not 0 + offset: -0.0 stays -0.0).  Looked up from a
            # two-entry table copied from numpy (see _constant on signed zeros).
            values = xp.asarray(np.array([off, np.float32(ampl) + off], dtype=np.float32))
            return xp.take(values, (p < 0).astype(xp.int32))

        t = p * ampl  # d_ampl * phase, in double
        if wave == GR_TRI_WAVE:
            # double t = d_ampl * phase / GR_M_PI, then
            # (float)(t + d_ampl + d_offset) below zero, else (float)(-1 * t + ...).
            t /= _GR_M_PI
            t = xp.where(p < 0, t, -t)
            t += ampl
        else:  # GR_SAW_WAVE: (float)(d_ampl * phase / (2 * GR_M_PI) + d_ampl / 2 + d_offset)
            t /= _TWO_PI
            t += ampl / 2
        # The float offset joins the double sum before the single rounding to float.
        t += float(off)
        return t.astype(xp.float32)

    def _complex_parts(self, wave, n, ampl, off):
        """sig_source_impl<gr_complex>::work, as separate float32 real/imag arrays."""
        xp = self.xp
        off_re, off_im = off
        zero = np.float32(0.0)
        ampl_f = np.float32(ampl)

        if wave == GR_CONST_WAVE:
            # (gr_complex)d_ampl + d_offset: (float(ampl), 0.0f) + offset, per component.
            return self._constant(n, ampl_f + off_re), self._constant(n, zero + off_im)

        phases = self._next_phases(n)

        if wave in (GR_SIN_WAVE, GR_COS_WAVE):
            # fxpt_nco::sincos: gr_complex(cos * ampl, sin * ampl), double products
            # rounded to float by the complex<float> constructor.
            im = (self._lookup(phases).astype(xp.float64) * ampl).astype(xp.float32)
            phases += _QUARTER_TURN
            re = (self._lookup(phases).astype(xp.float64) * ampl).astype(xp.float32)
            if off_re != 0 or off_im != 0:  # d_offset == gr_complex(0, 0) skips the add
                re += off_re
                im += off_im
            return re, im

        p = self._radians(phases)
        # Phase regions as GNU Radio tests them, the float phase compared in
        # double against the double constants +-GR_M_PI/2 (comparing in
        # float32 would misplace phase == -2**30 exactly).
        below_minus_half_pi = p < _MINUS_HALF_PI
        below_zero = p < 0
        below_half_pi = p < _HALF_PI

        if wave == GR_SQR_WAVE:
            # Region 0: (ampl, 0) + off; 1: (ampl, ampl) + off; 2: (0, ampl) + off;
            # 3: off itself.  Float32 sums, so e.g. 0.0f + -0.0f gives +0.0.
            region = 3 - (
                below_minus_half_pi.astype(xp.int32) + below_zero.astype(xp.int32) + below_half_pi.astype(xp.int32)
            )
            re_values = xp.asarray(
                np.array([ampl_f + off_re, ampl_f + off_re, zero + off_re, off_re], dtype=np.float32)
            )
            im_values = xp.asarray(
                np.array([zero + off_im, ampl_f + off_im, ampl_f + off_im, off_im], dtype=np.float32)
            )
            return xp.take(re_values, region), xp.take(im_values, region)

        if wave == GR_TRI_WAVE:
            # q = d_ampl * phase / GR_M_PI; "-1 * d_ampl * phase / GR_M_PI" is
            # ((-ampl) * phase) / pi, which IEEE rounding makes exactly -q.
            q = p * ampl
            q /= _GR_M_PI
            nq = -q
            re = xp.where(below_zero, q, nq)
            re += ampl
            im = xp.where(below_minus_half_pi, nq - ampl / 2, xp.where(below_half_pi, q + ampl / 2, nq + 3 * ampl / 2))
        else:  # GR_SAW_WAVE
            s = p * ampl
            s /= _TWO_PI
            re = s + ampl / 2
            im = xp.where(below_minus_half_pi, s + 5 * ampl / 4, s + ampl / 4)

        # gr_complex(double, double) rounds each part to float, then "+ d_offset"
        # is a float32 complex add, done even for a zero offset.
        re = re.astype(xp.float32)
        im = im.astype(xp.float32)
        re += off_re
        im += off_im
        return re, im
