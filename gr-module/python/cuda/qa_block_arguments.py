#!/usr/bin/env python3
#
# SPDX-License-Identifier: GPL-3.0-or-later
#
"""Every block refuses bad arguments when it is made, with a message that names the block,
the argument and what it accepts, and takes the good values at the edges of those limits.

C++ blocks: item sizes and vector lengths must fit GNU Radio's int item size (an item at
most 2^31 - 1 bytes), port counts are 1 to 2^16 (GNU Radio keeps state for every possible
output port), FFT sizes within cuFFT's 2^27, rates finite and > 0, float constants finite.
CuPy library blocks: the same limits, checked by cupy_blocks/support.py. GRCUDA_DEVICE and
GNU Radio's [cuda] device preference must be a non-negative integer, GRCUDA_BACKEND and
[cuda] backend one of cuda, simulated and auto (checked in a fresh process: the device is
opened once per process).
"""

import math
import os
import subprocess
import sys
import tempfile

import numpy as np
import pmt
from gnuradio import analog, blocks, gr, gr_unittest
from gnuradio import fft as gr_fft
from gnuradio.fft import window

from gnuradio import cuda
from qa_support import flowgraph_test

NAN, INF = math.nan, math.inf
INT_MAX = 2**31 - 1
MAX_PORTS = 2**16
MAX_FFT = 2**27
TYPES = {"ss": 2, "ii": 4, "ff": 4, "cc": 8}  # bytes per element of each typed C++ block


def refused(block, argument, fragment, make, error=ValueError):
    """A bad argument: make() raises error, naming block and argument, with fragment (what
    the argument accepts) in the message."""
    return (block, argument, fragment, make, error)


def cpp_bad_arguments():
    cases = [
        refused("cuda.copy", "itemsize", "between 1 and 2^31 - 1 bytes, got 0", lambda: cuda.copy(0)),
        refused("cuda.copy", "itemsize", "got 2147483648", lambda: cuda.copy(2**31)),
        refused("cuda.copy", "itemsize", "", lambda: cuda.copy(-1), TypeError),
        refused("cuda.nop", "sizeof_stream_item", "between 1 and 2^31 - 1", lambda: cuda.nop(0)),
        refused("cuda.nop", "sizeof_stream_item", "got 4294967296", lambda: cuda.nop(2**32)),
        refused("cuda.null_source", "sizeof_stream_item", "between 1", lambda: cuda.null_source(0)),
        refused("cuda.null_source", "num_outputs", "between 1 and 2^16, got 0", lambda: cuda.null_source(4, 0)),
        refused("cuda.null_source", "num_outputs", "got 65537", lambda: cuda.null_source(4, MAX_PORTS + 1)),
        refused("cuda.null_source", "num_outputs", "got 2147483648", lambda: cuda.null_source(4, 2**31)),
        refused("cuda.null_sink", "sizeof_stream_item", "between 1", lambda: cuda.null_sink(0)),
        refused("cuda.null_sink", "num_inputs", "between 1 and 2^16, got 0", lambda: cuda.null_sink(4, 0)),
        refused("cuda.null_sink", "num_inputs", "got 65537", lambda: cuda.null_sink(4, MAX_PORTS + 1)),
        refused("cuda.null_sink", "num_inputs", "got 2147483648", lambda: cuda.null_sink(4, 2**31)),
        refused("cuda.head", "sizeof_stream_item", "between 1", lambda: cuda.head(0, 10)),
        refused("cuda.head", "sizeof_stream_item", "got 2147483648", lambda: cuda.head(2**31, 10)),
        refused("cuda.head", "nitems", "", lambda: cuda.head(4, -1), TypeError),
        refused("cuda.load", "iterations", "between 1 and 2^24, got 0", lambda: cuda.load(0, 4)),
        refused("cuda.load", "iterations", "got 16777217", lambda: cuda.load(2**24 + 1, 4, False)),
        refused("cuda.load", "iterations", "", lambda: cuda.load(-1, 4), TypeError),
        refused("cuda.load", "itemsize", "between 1 and 2^31 - 1 bytes, got 0", lambda: cuda.load(1, 0)),
        refused("cuda.load", "itemsize", "got 2147483648", lambda: cuda.load(1, 2**31, False)),
        refused("cuda.tee", "itemsize", "between 1 and 2^31 - 1", lambda: cuda.tee(0)),
        refused("cuda.tee", "itemsize", "between 1 and 2^31 - 1", lambda: cuda.tee(0, False)),
        refused("cuda.tee", "itemsize", "got 2147483648", lambda: cuda.tee(2**31)),
        refused("cuda.fft", "fft_size", "between 1 and 2^27, got 0", lambda: cuda.fft(0)),
        refused("cuda.fft", "fft_size", "between 1 and 2^27, got 134217729", lambda: cuda.fft(MAX_FFT + 1)),
        refused("cuda.fft", "fft_size", "between 1 and 2^27, got 268435456", lambda: cuda.fft(2**28)),
        refused("cuda.fft", "fft_size", "got 268435456", lambda: cuda.fft(2**28, True, [], False, True)),
        refused("cuda.fft", "window", "fft_size (8) taps, or none, got 3", lambda: cuda.fft(8, True, [1, 2, 3])),
        refused("cuda.fft", "window", "finite, got nan at tap 2", lambda: cuda.fft(4, True, [1, 1, NAN, 1])),
        refused("cuda.fft", "window", "finite, got inf at tap 0", lambda: cuda.fft(2, True, [INF, 1])),
        refused(
            "cuda.logpwrfft_c",
            "fft_size",
            "between 1 and 2^27, got 0",
            lambda: cuda.logpwrfft_c(1e3, 0, 2, 30, 1, False),
        ),
        refused("cuda.logpwrfft_c", "fft_size", "got -8", lambda: cuda.logpwrfft_c(1e3, -8, 2, 30, 1, False)),
        refused(
            "cuda.logpwrfft_f", "fft_size", "got 134217729", lambda: cuda.logpwrfft_f(1e9, MAX_FFT + 1, 2, 1, 1, False)
        ),
        refused(
            "cuda.logpwrfft_c", "sample_rate", "finite and > 0, got 0", lambda: cuda.logpwrfft_c(0, 64, 2, 30, 1, False)
        ),
        refused(
            "cuda.logpwrfft_f",
            "ref_scale",
            "finite and > 0, got -1",
            lambda: cuda.logpwrfft_f(1e3, 64, -1, 30, 1, False),
        ),
        refused(
            "cuda.logpwrfft_c",
            "frame_rate",
            "finite and > 0, got nan",
            lambda: cuda.logpwrfft_c(1e3, 64, 2, NAN, 1, False),
        ),
        refused(
            "cuda.logpwrfft_c", "avg_alpha", "in [0, 1], got 1.5", lambda: cuda.logpwrfft_c(1e3, 64, 2, 30, 1.5, True)
        ),
        refused(
            "cuda.logpwrfft_f",
            "avg_alpha",
            "in [0, 1], got -0.1",
            lambda: cuda.logpwrfft_f(1e3, 8, 2, 30, 1, 0).set_avg_alpha(-0.1),
        ),
        refused(
            "cuda.logpwrfft_c",
            "window",
            "fft_size (8) taps, or none, got 3",
            lambda: cuda.logpwrfft_c(1e3, 8, 2, 30, 1, False, lambda n: [1, 1, 1]),
        ),
        refused(
            "cuda.logpwrfft_c",
            "window",
            "finite, got inf at tap 1",
            lambda: cuda.logpwrfft_c(1e3, 2, 2, 30, 1, False, lambda n: [1, INF]),
        ),
        refused(
            "cuda.logpwrfft_f",
            "window",
            "a tap other than 0",
            lambda: cuda.logpwrfft_f(1e3, 2, 2, 30, 1, False, lambda n: [0, 0]),
        ),
        refused(
            "cuda.logpwrfft_c",
            "decimation",
            "at most 2097151 for fft_size 1024",
            lambda: cuda.logpwrfft_c(1e12, 1024, 2, 1e-3, 1, False),
        ),
        refused(
            "cuda.logpwrfft_c",
            "decimation",
            "finite, got inf",
            lambda: cuda.logpwrfft_c(1e3, 8, 2, 30, 1, False).set_decimation(INF),
        ),
        refused(
            "cuda.logpwrfft_f",
            "vec_rate",
            "finite and > 0, got 0",
            lambda: cuda.logpwrfft_f(1e3, 8, 2, 30, 1, False).set_vec_rate(0),
        ),
        refused(
            "cuda.logpwrfft_f",
            "sample_rate",
            "finite and > 0, got -5",
            lambda: cuda.logpwrfft_f(1e3, 8, 2, 30, 1, False).set_sample_rate(-5),
        ),
        refused("cuda.fft_shift", "fft_size", "between 1 and 2^28 - 1", lambda: cuda.fft_shift(0)),
        refused("cuda.fft_shift", "fft_size", "got 268435456", lambda: cuda.fft_shift(2**28)),
        refused(
            "cuda.complex_to_mag", "vlen", "between 1 and 2^28 - 1 (vlen * 8 bytes", lambda: cuda.complex_to_mag(0)
        ),
        refused("cuda.complex_to_mag", "vlen", "got 268435456", lambda: cuda.complex_to_mag(2**28)),
        refused(
            "cuda.complex_to_mag_squared", "vlen", "between 1 and 2^28 - 1", lambda: cuda.complex_to_mag_squared(0)
        ),
        refused("cuda.complex_to_mag_squared", "vlen", "got 268435456", lambda: cuda.complex_to_mag_squared(2**28)),
        refused("cuda.nlog10_ff", "vlen", "between 1 and 2^29 - 1 (vlen * 4 bytes", lambda: cuda.nlog10_ff(10, 0)),
        refused("cuda.nlog10_ff", "vlen", "got 536870912", lambda: cuda.nlog10_ff(10, 2**29)),
        refused("cuda.nlog10_ff", "n", "must be finite, got nan", lambda: cuda.nlog10_ff(NAN)),
        refused("cuda.nlog10_ff", "k", "must be finite, got -inf", lambda: cuda.nlog10_ff(10, 1, -INF)),
        refused("cuda.throttle", "itemsize", "between 1", lambda: cuda.throttle(0, 1000)),
        refused("cuda.throttle", "sample_rate", "finite and > 0, got 0", lambda: cuda.throttle(4, 0)),
        refused("cuda.throttle", "sample_rate", "finite and > 0, got -1", lambda: cuda.throttle(4, -1)),
        refused("cuda.throttle", "sample_rate", "finite and > 0, got nan", lambda: cuda.throttle(4, NAN)),
        refused("cuda.throttle", "sample_rate", "finite and > 0, got inf", lambda: cuda.throttle(4, INF)),
        refused(
            "cuda.throttle",
            "sample_rate",
            "finite and > 0, got nan",
            lambda: cuda.throttle(4, 1000).set_sample_rate(NAN),
        ),
        refused("cuda.probe_rate", "itemsize", "between 1", lambda: cuda.probe_rate(0)),
        refused("cuda.probe_rate", "update_rate_ms", "finite and > 0, got 0", lambda: cuda.probe_rate(4, 0.0)),
        refused("cuda.probe_rate", "update_rate_ms", "finite and > 0, got -5", lambda: cuda.probe_rate(4, -5.0)),
        refused("cuda.probe_rate", "update_rate_ms", "finite and > 0, got nan", lambda: cuda.probe_rate(4, NAN)),
        refused("cuda.probe_rate", "update_rate_ms", "finite and > 0, got inf", lambda: cuda.probe_rate(4, INF)),
        refused("cuda.probe_rate", "alpha", "in (0, 1], got 0", lambda: cuda.probe_rate(4, 500.0, 0.0)),
        refused("cuda.probe_rate", "alpha", "in (0, 1], got nan", lambda: cuda.probe_rate(4, 500.0, NAN)),
        refused("cuda.probe_rate", "alpha", "in (0, 1], got 1.5", lambda: cuda.probe_rate(4, 500.0, 1.5)),
        refused("cuda.probe_rate", "alpha", "in (0, 1], got -0.1", lambda: cuda.probe_rate(4, 500.0, -0.1)),
        refused("cuda.probe_rate", "alpha", "in (0, 1], got nan", lambda: cuda.probe_rate(4).set_alpha(NAN)),
        refused("cuda.probe_rate", "alpha", "in (0, 1], got 0", lambda: cuda.probe_rate(4).set_alpha(0.0)),
    ]
    for name, make in (("stream_to_vector", cuda.stream_to_vector), ("vector_to_stream", cuda.vector_to_stream)):
        block = "cuda." + name
        cases += [
            refused(block, "itemsize", "between 1 and 2^31 - 1 bytes, got 0", lambda make=make: make(0, 4)),
            refused(block, "itemsize", "got 2147483648", lambda make=make: make(2**31, 1)),
            refused(
                block,
                "nitems_per_block",
                "between 1 and 2^29 - 1 (nitems_per_block * 4 bytes",
                lambda make=make: make(4, 0),
            ),
            refused(block, "nitems_per_block", "got 536870912", lambda make=make: make(4, 2**29)),
            refused(block, "nitems_per_block", "between 1 and 715827882 ", lambda make=make: make(3, 715827883)),
        ]
    for name, make in (("streams_to_vector", cuda.streams_to_vector), ("vector_to_streams", cuda.vector_to_streams)):
        block = "cuda." + name
        cases += [
            refused(block, "itemsize", "between 1 and 2^31 - 1 bytes, got 0", lambda make=make: make(0, 2)),
            refused(block, "num_streams", "between 1 and 2^16, got 0", lambda make=make: make(8, 0)),
            refused(block, "num_streams", "between 1 and 2^16, got 65537", lambda make=make: make(8, MAX_PORTS + 1)),
            refused(block, "num_streams", "got 268435456", lambda make=make: make(8, 2**28)),
            refused(
                block,
                "num_streams",
                "between 1 and 2047 (num_streams * 1048576 bytes",
                lambda make=make: make(2**20, 2048),
            ),
        ]
    for name, pad in (("pfb_channelizer_ccf", []), ("pfb_channelizer_vector_ccf", [1, 2])):
        make, block = getattr(cuda, name), "cuda." + name
        cases += [
            refused(block, "numchans", "between 1 and 2^16, got 0", lambda m=make: m(0, [1.0])),
            refused(block, "numchans", "got 65537", lambda m=make: m(MAX_PORTS + 1, [1.0])),
            # GNU Radio's prototype design crashes the process for one channel.
            refused(block, "numchans", "1 needs taps", lambda m=make: m(1)),
            refused(
                block,
                "oversample_rate",
                "numchans / i for an integer i in [1, 8] (numchans / oversample_rate = 2.6666",
                lambda m=make: m(8, [1.0] * 16, 3.0),
            ),
            refused(block, "oversample_rate", "finite and > 0, got 0", lambda m=make: m(8, [1.0] * 16, 0.0)),
            refused(
                block,
                "oversample_rate",
                "numchans / i for an integer i in [1, 8]",
                lambda m=make: m(8, [1.0] * 16, 16.0),
            ),
            refused(block, "taps", "must not be empty", lambda m=make: m(4, [1.0]).set_taps([])),
            refused(block, "taps", "finite, got nan", lambda m=make: m(4, [1.0, NAN])),
            refused(
                block,
                "channel map",
                "between 0 and 3, got 4 at entry 1",
                lambda m=make, p=pad: m(4, [1.0]).set_channel_map([0, 4] + p),
            ),
            refused(
                block,
                "channel map",
                "between 0 and 3, got -1 at entry 0",
                lambda m=make, p=pad: m(4, [1.0]).set_channel_map([-1, 0] + p),
            ),
        ]
    cases.append(
        refused(
            "cuda.pfb_channelizer_vector_ccf",
            "channel map",
            "one entry per vector entry, 4, got 3",
            lambda: cuda.pfb_channelizer_vector_ccf(4, [1.0]).set_channel_map([0, 1, 2]),
        )
    )
    for suffix in ("ccc", "ccf", "fff"):
        make = getattr(cuda, "rational_resampler_" + suffix)
        block = "cuda.rational_resampler_" + suffix
        cases += [
            refused(block, "interpolation", "must be > 0, got 0", lambda m=make: m(0, 1), IndexError),
            refused(block, "decimation", "must be > 0, got 0", lambda m=make: m(1, 0), IndexError),
            refused(block, "fractional_bw", "in (0, 0.5), got 0.5", lambda m=make: m(3, 2, [], 0.5), ValueError),
            refused(block, "taps", "must not be empty", lambda m=make: m(3, 2, [1.0]).set_taps([])),
            refused(
                block,
                "taps",
                "taps[1] must be finite, got " + ("(inf, 0)" if suffix == "ccc" else "inf"),
                lambda m=make: m(3, 2, [1.0, INF]),
            ),
        ]
    for suffix, size in TYPES.items():
        vlen_max = INT_MAX // size
        multiply_const = getattr(cuda, "multiply_const_" + suffix)
        add = getattr(cuda, "add_" + suffix)
        multiply_block, add_block = "cuda.multiply_const_" + suffix, "cuda.add_" + suffix
        limit = f"between 1 and 2^{31 - size.bit_length() + 1} - 1 (vlen * {size} bytes"
        cases += [
            refused(
                multiply_block,
                "vlen",
                limit + " must fit GNU Radio's largest item, 2^31 - 1 bytes), got 0",
                lambda m=multiply_const: m(2, 0),
            ),
            refused(multiply_block, "vlen", f"got {vlen_max + 1}", lambda m=multiply_const, v=vlen_max: m(2, v + 1)),
            refused(multiply_block, "vlen", "got 1073741824", lambda m=multiply_const: m(2, 2**30)),
            refused(add_block, "num_inputs", "between 1 and 2^16, got 0", lambda a=add: a(0)),
            refused(add_block, "num_inputs", "got 65537", lambda a=add: a(MAX_PORTS + 1)),
            refused(add_block, "num_inputs", "got 2147483648", lambda a=add: a(2**31)),
            refused(add_block, "vlen", limit, lambda a=add: a(2, 0)),
            refused(add_block, "vlen", f"got {vlen_max + 1}", lambda a=add, v=vlen_max: a(2, v + 1)),
        ]
        if suffix in ("ff", "cc"):
            bad_k = [NAN, INF, -INF] if suffix == "ff" else [complex(NAN, 0), complex(1, INF)]
            for k in bad_k:
                cases += [
                    refused(multiply_block, "k", "must be finite", lambda m=multiply_const, k=k: m(k)),
                    refused(multiply_block, "k", "must be finite", lambda m=multiply_const, k=k: m(1).set_k(k)),
                ]
    cases += [
        refused(
            "cuda.expression_ff", "expression", "(column 7)", lambda: cuda.expression_ff("in0 * * k", 1, 1, {"k": 1.0})
        ),
        refused("cuda.expression_cf", "expression", "take real(...)", lambda: cuda.expression_cf("in0 * 2")),
        refused(
            "cuda.expression_cc", "expression", "sin takes float arguments", lambda: cuda.expression_cc("sin(in0)")
        ),
        refused("cuda.expression_fc", "expression", "in1 is not an input", lambda: cuda.expression_fc("in0 + in1")),
        refused("cuda.expression_ff", "ninputs", "between 1 and 32, got 0", lambda: cuda.expression_ff("in0", 0)),
        refused("cuda.expression_ff", "ninputs", "got 33", lambda: cuda.expression_ff("in0", 33)),
        refused("cuda.expression_cc", "vlen", "got 0", lambda: cuda.expression_cc("in0", 1, 0)),
        refused("cuda.expression_fc", "vlen", "got 268435456", lambda: cuda.expression_fc("in0", 1, 2**28)),
        refused(
            "cuda.expression_cf",
            "parameters",
            "an input's name",
            lambda: cuda.expression_cf("abs(in0)", 1, 1, {"in1": 1.0}),
        ),
        refused(
            "cuda.expression_ff",
            "parameters",
            "a function's name",
            lambda: cuda.expression_ff("in0", 1, 1, {"sin": 1.0}),
        ),
        refused(
            "cuda.expression_ff",
            "name",
            "is not a parameter",
            lambda: cuda.expression_ff("in0").set_parameter("k", 1.0),
        ),
    ]
    cases += filter_bad_arguments()
    return cases


def filter_bad_arguments():
    """The FIR filters: decimation at least 1, taps present and finite, frequencies finite and
    a sample rate > 0 (GNU Radio's filters take empty or NaN taps and make empty or NaN
    output)."""
    cases = []
    for suffix, tap in (("ccc", 1 + 1j), ("ccf", 1.0), ("fff", 1.0)):
        nan_tap = complex(NAN, 0) if suffix == "ccc" else NAN
        for base, extra in (("fir_filter", ()), ("fft_filter", (1,))):
            name = f"cuda.{base}_{suffix}"
            make = getattr(cuda, f"{base}_{suffix}")
            cases += [
                refused(name, "decimation", "at least 1, got 0", lambda m=make, e=extra, t=tap: m(0, [t], *e)),
                refused(name, "decimation", "at least 1, got -2", lambda m=make, e=extra, t=tap: m(-2, [t], *e)),
                refused(name, "taps", "at least one tap, got none", lambda m=make, e=extra: m(1, [], *e)),
                refused(name, "taps[1]", "must be finite", lambda m=make, e=extra, t=tap, n=nan_tap: m(1, [t, n], *e)),
                refused(name, "taps", "at least one tap", lambda m=make, e=extra, t=tap: m(1, [t], *e).set_taps([])),
            ]
        cases.append(
            refused(
                f"cuda.fft_filter_{suffix}",
                "nthreads",
                "at least 1, got 0",
                lambda s=suffix, t=tap: getattr(cuda, f"fft_filter_{s}")(1, [t], 0),
            )
        )
    for suffix, tap in (("ccc", 1j), ("ccf", 1.0)):
        name = f"cuda.freq_xlating_fir_filter_{suffix}"
        make = getattr(cuda, f"freq_xlating_fir_filter_{suffix}")
        cases += [
            refused(name, "decimation", "at least 1, got 0", lambda m=make, t=tap: m(0, [t], 0, 1e6)),
            refused(name, "taps", "at least one tap", lambda m=make: m(1, [], 0, 1e6)),
            refused(name, "center_freq", "must be finite, got nan", lambda m=make, t=tap: m(1, [t], NAN, 1e6)),
            refused(name, "sampling_freq", "> 0, got 0", lambda m=make, t=tap: m(1, [t], 0, 0)),
            refused(name, "sampling_freq", "> 0, got -1", lambda m=make, t=tap: m(1, [t], 0, -1)),
            refused(name, "center_freq", "turns per sample, got 1e+300 / 1", lambda m=make, t=tap: m(1, [t], 1e300, 1)),
            refused(
                name,
                "center_freq",
                "must be finite, got inf",
                lambda m=make, t=tap: m(1, [t], 0, 1e6).set_center_freq(INF),
            ),
        ]
    return cases


def dsp_elementwise_bad_arguments():
    """The elementwise, moving-average and phase blocks."""
    vlen_fragment = "between 1 and 2^28 - 1 (vlen * 8 bytes must fit GNU Radio's largest item"
    cases = [
        refused("cuda.multiply_ff", "vlen", "between 1 and 2^29 - 1", lambda: cuda.multiply_ff(0)),
        refused("cuda.multiply_cc", "vlen", "got 268435456", lambda: cuda.multiply_cc(2**28)),
        refused("cuda.multiply_conjugate_cc", "vlen", vlen_fragment, lambda: cuda.multiply_conjugate_cc(0)),
        refused("cuda.complex_to_float", "vlen", vlen_fragment, lambda: cuda.complex_to_float(0)),
        refused("cuda.complex_to_real", "vlen", vlen_fragment, lambda: cuda.complex_to_real(0)),
        refused("cuda.complex_to_imag", "vlen", vlen_fragment, lambda: cuda.complex_to_imag(2**28)),
        refused("cuda.complex_to_arg", "vlen", vlen_fragment, lambda: cuda.complex_to_arg(0)),
        refused("cuda.float_to_complex", "vlen", vlen_fragment, lambda: cuda.float_to_complex(0)),
        refused(
            "cuda.keep_one_in_n", "itemsize", "between 1 and 2^31 - 1 bytes, got 0", lambda: cuda.keep_one_in_n(0, 2)
        ),
        refused("cuda.keep_one_in_n", "n", "between 1 and 2^31 - 1, got 0", lambda: cuda.keep_one_in_n(4, 0)),
        refused("cuda.keep_one_in_n", "n", "between 1 and 2^31 - 1, got -3", lambda: cuda.keep_one_in_n(4, -3)),
        refused("cuda.keep_one_in_n", "n", "got 0", lambda: cuda.keep_one_in_n(4, 2).set_n(0)),
        refused("cuda.quadrature_demod_cf", "gain", "must be finite, got nan", lambda: cuda.quadrature_demod_cf(NAN)),
        refused(
            "cuda.quadrature_demod_cf", "gain", "must be finite", lambda: cuda.quadrature_demod_cf(1).set_gain(INF)
        ),
        refused("cuda.rotator_cc", "phase_inc", "must be finite, got inf", lambda: cuda.rotator_cc(INF)),
        refused("cuda.rotator_cc", "phase_inc", "must be finite", lambda: cuda.rotator_cc(0.1).set_phase_inc(NAN)),
        # GNU Radio's rotator turns by exp(j (float)phase_inc): NaN beyond a float's range.
        refused("cuda.rotator_cc", "phase_inc", "must be finite, got 1e+300", lambda: cuda.rotator_cc(1e300)),
        refused("cuda.rotator_cc", "phase_inc", "got -3.5e+38", lambda: cuda.rotator_cc(0.1).set_phase_inc(-3.5e38)),
        # It takes no argument but the device.
        refused("cuda.conjugate_cc", "", "", lambda: cuda.conjugate_cc(1, 2), TypeError),
    ]
    for suffix, scale in (("ff", 1.0), ("cc", 1 + 0j)):
        make = getattr(cuda, "moving_average_" + suffix)
        block = "cuda.moving_average_" + suffix
        cases += [
            refused(block, "length", "between 1 and 2147483584 (the block's history", lambda m=make, s=scale: m(0, s)),
            refused(block, "length", "got 2147483647", lambda m=make, s=scale: m(INT_MAX, s)),
            refused(block, "length", "got 2147483585", lambda m=make, s=scale: m(10, s).set_length(INT_MAX - 62)),
            refused(block, "length", "got -1", lambda m=make, s=scale: m(10, s).set_length(-1)),
            refused(block, "max_iter", "got -4", lambda m=make, s=scale: m(10, s, -4)),
            refused(block, "length", "got 0", lambda m=make, s=scale: m(10, s).set_length_and_scale(0, s)),
            refused(block, "scale", "must be finite", lambda m=make: m(10, NAN)),
            refused(block, "scale", "must be finite", lambda m=make, s=scale: m(10, s).set_scale(INF)),
            refused(block, "max_iter", "between 1 and 2^31 - 1, got 0", lambda m=make, s=scale: m(10, s, 0)),
            refused(block, "vlen", "between 1 and", lambda m=make, s=scale: m(10, s, 4096, 0)),
        ]
    return cases


def dsp_elementwise_good_arguments():
    return [
        lambda: cuda.multiply_ff(2**29 - 1),
        lambda: cuda.multiply_cc(1),
        lambda: cuda.multiply_conjugate_cc(2**28 - 1),
        lambda: cuda.conjugate_cc(),
        lambda: cuda.complex_to_float(2**28 - 1),
        lambda: cuda.complex_to_real(1),
        lambda: cuda.complex_to_imag(1),
        lambda: cuda.complex_to_arg(2**28 - 1),
        lambda: cuda.float_to_complex(2**28 - 1),
        lambda: cuda.keep_one_in_n(INT_MAX, INT_MAX),
        lambda: cuda.keep_one_in_n(1, 1).set_n(INT_MAX),
        lambda: cuda.moving_average_ff(1, -3.4e38, 1, 2**29 - 1),
        lambda: cuda.moving_average_cc(INT_MAX - 63, 1j, INT_MAX, 1),
        lambda: cuda.quadrature_demod_cf(-3.4e38),
        lambda: cuda.rotator_cc(),
        lambda: cuda.rotator_cc(-3.4e38, True),
    ]


def cpp_good_arguments():
    """Values at the edges of the limits, which must construct."""
    makes = [
        lambda: cuda.copy(1),
        lambda: cuda.copy(INT_MAX),
        lambda: cuda.nop(1),
        lambda: cuda.nop(INT_MAX),
        lambda: cuda.null_source(1, 1),
        lambda: cuda.null_source(INT_MAX, MAX_PORTS, False),
        lambda: cuda.null_sink(1, 1),
        lambda: cuda.null_sink(INT_MAX, MAX_PORTS),
        lambda: cuda.head(1, 0),
        lambda: cuda.head(INT_MAX, 2**64 - 1),
        lambda: cuda.load(1, 1),
        lambda: cuda.load(2**24, INT_MAX, False),
        lambda: cuda.tee(1),
        lambda: cuda.tee(INT_MAX, False),
        lambda: cuda.fft(1),
        lambda: cuda.fft(MAX_FFT),
        lambda: cuda.fft(MAX_FFT, False, [], True, True),
        lambda: cuda.fft(4, True, [0.5, 1, 1, 0.5], True),
        lambda: cuda.logpwrfft_c(1.0, 1, 1e-30, 1e9, 0.0, True, window.rectangular),
        lambda: cuda.logpwrfft_f(1e9, 2**16, 2.0, 1e3, 1.0, False, window.rectangular, True),
        lambda: cuda.logpwrfft_c(1e3, 8, 2, 30, 1, False).set_decimation(2**28 - 1),
        lambda: cuda.fft_shift(1),
        lambda: cuda.fft_shift(2**28 - 1),
        lambda: cuda.complex_to_mag(1),
        lambda: cuda.complex_to_mag(2**28 - 1),
        lambda: cuda.complex_to_mag_squared(2**28 - 1),
        lambda: cuda.nlog10_ff(10.0, 2**29 - 1, -1e30),
        lambda: cuda.nlog10_ff(-1e30, 1, 0.0),
        lambda: cuda.stream_to_vector(1, INT_MAX),
        lambda: cuda.stream_to_vector(3, 715827882),
        lambda: cuda.stream_to_vector(INT_MAX, 1),
        lambda: cuda.vector_to_stream(4, 2**29 - 1),
        lambda: cuda.streams_to_vector(8, MAX_PORTS),
        lambda: cuda.streams_to_vector(1, 1),
        lambda: cuda.streams_to_vector(2**20, 2047),
        lambda: cuda.vector_to_streams(2**20, 2047),
        lambda: cuda.vector_to_streams(8, MAX_PORTS),
        lambda: cuda.vector_to_streams(INT_MAX, 1),
        lambda: cuda.throttle(1, 1e-9),
        lambda: cuda.throttle(INT_MAX, 1e300),
        lambda: cuda.throttle(4, 10.0).set_sample_rate(5e-324),
        lambda: cuda.probe_rate(1, 1e-9, 1.0),
        lambda: cuda.probe_rate(INT_MAX, 1e300, 5e-324),
        lambda: cuda.probe_rate(4).set_alpha(1.0),
        lambda: cuda.pfb_channelizer_ccf(1, [1.0]),
        lambda: cuda.pfb_channelizer_ccf(64),
        lambda: cuda.pfb_channelizer_ccf(8, [1.0] * 24, 8.0),
        lambda: cuda.pfb_channelizer_ccf(12, [1.0] * 24, 1.5),
        lambda: cuda.rational_resampler_ccc(1, 1),
        lambda: cuda.rational_resampler_ccf(7, 3, [], 0.45),
        lambda: cuda.rational_resampler_fff(2**16, 1, [1.0]),
    ]
    for suffix, size in TYPES.items():
        multiply_const = getattr(cuda, "multiply_const_" + suffix)
        add = getattr(cuda, "add_" + suffix)
        makes += [
            lambda m=multiply_const: m(3, 1),
            lambda m=multiply_const, s=size: m(3, INT_MAX // s),
            lambda a=add: a(1, 1),
            lambda a=add, s=size: a(MAX_PORTS, INT_MAX // s),
        ]
    makes += [lambda: cuda.multiply_const_ff(-3.4e38), lambda: cuda.multiply_const_cc(1e38 - 1e38j)]
    makes += [
        lambda: cuda.expression_ff("in0", 1),
        lambda: cuda.expression_cc(" + ".join(f"in{i}" for i in range(32)), 32, 2**28 - 1),
        lambda: cuda.expression_cf("abs(in0) * k", 1, 2**28 - 1, {f"p{i}": 1.0 for i in range(31)} | {"k": 2.0}),
        lambda: cuda.expression_fc("complex(in0, in1)", 2, 1, {}),
    ]
    makes += [
        lambda: cuda.fir_filter_fff(1, [1.0]),
        lambda: cuda.fir_filter_ccc(INT_MAX, [1j] * 3),
        lambda: cuda.fft_filter_ccf(1, [1.0], 1),
        lambda: cuda.fft_filter_fff(1000, [0.5] * 2049, 64),
        lambda: cuda.freq_xlating_fir_filter_ccf(1, [1.0], -1e20, 1.0),
        lambda: cuda.freq_xlating_fir_filter_ccc(7, [1j, 1], 0, 1e6),
    ]
    return makes


def cupy_bad_arguments():
    c64, f32 = np.complex64, np.float32
    sig = cuda.sig_source_cupy
    cases = [
        refused(
            "multiply_const_cupy",
            "vlen",
            "between 1 and 2^28 - 1 (vlen * 8 bytes",
            lambda: cuda.multiply_const_cupy(1, c64, 0),
        ),
        refused("multiply_const_cupy", "vlen", "got 268435456", lambda: cuda.multiply_const_cupy(1, c64, 2**28)),
        refused("multiply_const_cupy", "vlen", "got 1073741824", lambda: cuda.multiply_const_cupy(1, np.int16, 2**30)),
        refused("multiply_const_cupy", "k", "must be finite, got nan", lambda: cuda.multiply_const_cupy(NAN, f32)),
        refused("multiply_const_cupy", "k", "must be finite", lambda: cuda.multiply_const_cupy(complex(0, INF), c64)),
        refused("multiply_const_cupy", "k", "does not fit in float32", lambda: cuda.multiply_const_cupy(1e300, f32)),
        refused(
            "multiply_const_cupy", "k", "must be finite, got nan", lambda: cuda.multiply_const_cupy(1, f32).set_k(NAN)
        ),
        refused("add_cupy", "num_inputs", "between 1 and 2^16, got 0", lambda: cuda.add_cupy(0)),
        refused("add_cupy", "num_inputs", "got 65537", lambda: cuda.add_cupy(MAX_PORTS + 1)),
        refused("add_cupy", "vlen", "between 1 and 2^29 - 1", lambda: cuda.add_cupy(2, f32, 0)),
        refused("add_cupy", "vlen", "got 2147483648", lambda: cuda.add_cupy(2, np.int8, 2**31)),
        refused("fft_cupy", "fft_size", "between 1 and 2^27, got 0", lambda: cuda.fft_cupy(0)),
        refused("fft_cupy", "fft_size", "between 1 and 2^27, got 134217729", lambda: cuda.fft_cupy(MAX_FFT + 1)),
        refused("fft_cupy", "window", "fft_size (8) taps, or none, got 3", lambda: cuda.fft_cupy(8, True, [1, 2, 3])),
        refused("fft_cupy", "window", "list of fft_size real taps", lambda: cuda.fft_cupy(2, True, [1j, 1])),
        refused("fft_cupy", "window", "list of fft_size real taps", lambda: cuda.fft_cupy(4, True, [[1, 1], [1, 1]])),
        refused("fft_cupy", "window", "list of fft_size real taps", lambda: cuda.fft_cupy(4, True, "hann")),
        refused("fft_cupy", "window", "finite, got nan at tap 1", lambda: cuda.fft_cupy(2, True, [1, NAN])),
        refused("complex_to_mag_cupy", "vlen", "between 1 and 2^28 - 1", lambda: cuda.complex_to_mag_cupy(0)),
        refused("complex_to_mag_cupy", "vlen", "got 268435456", lambda: cuda.complex_to_mag_cupy(2**28)),
        refused(
            "complex_to_mag_squared_cupy", "vlen", "between 1 and 2^28 - 1", lambda: cuda.complex_to_mag_squared_cupy(0)
        ),
        refused(
            "complex_to_mag_squared_cupy", "vlen", "got 268435456", lambda: cuda.complex_to_mag_squared_cupy(2**28)
        ),
        refused("nlog10_cupy", "vlen", "between 1 and 2^29 - 1 (vlen * 4 bytes", lambda: cuda.nlog10_cupy(10, 0)),
        refused("nlog10_cupy", "vlen", "got 536870912", lambda: cuda.nlog10_cupy(10, 2**29)),
        refused("nlog10_cupy", "n", "must be finite, got nan", lambda: cuda.nlog10_cupy(NAN)),
        refused("nlog10_cupy", "k", "must be finite, got inf", lambda: cuda.nlog10_cupy(10, 1, INF)),
        refused("sig_source_cupy", "sampling_freq", "finite and > 0, got 0", lambda: sig(0)),
        refused("sig_source_cupy", "sampling_freq", "finite and > 0, got -1", lambda: sig(-1)),
        refused("sig_source_cupy", "sampling_freq", "finite and > 0, got nan", lambda: sig(NAN)),
        refused("sig_source_cupy", "sampling_freq", "finite and > 0, got inf", lambda: sig(INF)),
        refused("sig_source_cupy", "sampling_freq", "finite and > 0, got 0", lambda: sig(1e6).set_sampling_freq(0)),
        refused(
            "sig_source_cupy",
            "waveform",
            "analog.GR_CONST_WAVE, GR_SIN_WAVE, GR_COS_WAVE, GR_SQR_WAVE, GR_TRI_WAVE or GR_SAW_WAVE, not 99",
            lambda: sig(1e6, 99),
        ),
        refused("sig_source_cupy", "waveform", "not 99", lambda: sig(1e6).set_waveform(99)),
        refused("sig_source_cupy", "waveform", "not 'sine'", lambda: sig(1e6, "sine"), TypeError),
        refused("sig_source_cupy", "frequency", "finite, got nan", lambda: sig(1e6, analog.GR_SIN_WAVE, NAN)),
        refused("sig_source_cupy", "frequency", "finite, got inf", lambda: sig(1e6).set_frequency(INF)),
        refused("sig_source_cupy", "amplitude", "finite, got nan", lambda: sig(1e6, analog.GR_SIN_WAVE, 1e3, NAN)),
        refused("sig_source_cupy", "amplitude", "finite, got inf", lambda: sig(1e6).set_amplitude(INF)),
        refused("sig_source_cupy", "offset", "finite, got nan", lambda: sig(1e6, analog.GR_SIN_WAVE, 1e3, 1, NAN)),
        refused("sig_source_cupy", "offset", "finite, got inf", lambda: sig(1e6).set_offset(complex(0, INF))),
        refused(
            "sig_source_cupy",
            "offset",
            "float32 output takes a real offset",
            lambda: sig(1e6, analog.GR_SIN_WAVE, 1e3, 1, 1j, 0, f32),
            TypeError,
        ),
        refused("sig_source_cupy", "phase", "finite, got nan", lambda: sig(1e6, analog.GR_SIN_WAVE, 1e3, 1, 0, NAN)),
        refused("sig_source_cupy", "phase", "finite, got inf", lambda: sig(1e6).set_phase(INF)),
        refused("const_source_cupy", "const", "must be finite, got nan", lambda: cuda.const_source_cupy(NAN, f32)),
        refused(
            "const_source_cupy",
            "const",
            "must be finite",
            lambda: cuda.const_source_cupy(0, c64).set_const(complex(INF, 0)),
        ),
        refused("vector_source_cupy", "vlen", "between 1 and 2^28 - 1", lambda: cuda.vector_source_cupy([], True, 0)),
        refused(
            "vector_source_cupy",
            "vlen",
            "got 2147483648",
            lambda: cuda.vector_source_cupy([], True, 2**31, dtype=np.uint8),
        ),
        refused(
            "noise_source_cupy",
            "amplitude",
            "must be finite, got nan",
            lambda: cuda.noise_source_cupy(analog.GR_GAUSSIAN, NAN),
        ),
        refused(
            "noise_source_cupy",
            "amplitude",
            "must be finite, got inf",
            lambda: cuda.noise_source_cupy().set_amplitude(INF),
        ),
        refused(
            "noise_source_cupy",
            "seed",
            f"at least {-(2**63)}, got {-(2**63) - 1}",
            lambda: cuda.noise_source_cupy(analog.GR_GAUSSIAN, 1, -(2**63) - 1),
        ),
        refused(
            "random_uniform_source_cupy",
            "seed",
            f"at least {-(2**63)}, got {-(2**63) - 1}",
            lambda: cuda.random_uniform_source_cupy(0, 2, -(2**63) - 1),
        ),
        refused(
            "random_uniform_source_cupy",
            "[minimum, maximum)",
            "must hold a value",
            lambda: cuda.random_uniform_source_cupy(3, 3),
        ),
        refused("repeat_cupy", "interp", "between 1 and 2^31 - 1, got 0", lambda: cuda.repeat_cupy(0)),
        refused("repeat_cupy", "interp", "got 2147483648", lambda: cuda.repeat_cupy(2**31)),
        refused("repeat_cupy", "interp", "got 0", lambda: cuda.repeat_cupy(2).set_interpolation(0)),
        refused("repeat_cupy", "interp", "must be an integer, not 2.5", lambda: cuda.repeat_cupy(2.5)),
        refused("repeat_cupy", "vlen", "between 1 and 2^29 - 1", lambda: cuda.repeat_cupy(2, 0)),
        refused("repeat_cupy", "vlen", "got 536870912", lambda: cuda.repeat_cupy(2, 2**29)),
        refused(
            "repeat_cupy", "output_multiple", "between 1 and 2^31 - 1, got 0", lambda: cuda.repeat_cupy(2, 1, f32, 0)
        ),
        refused("repeat_cupy", "output_multiple", "got 2147483648", lambda: cuda.repeat_cupy(2, 1, f32, 2**31)),
    ]
    return cases


def cupy_good_arguments():
    c64, f32 = np.complex64, np.float32
    makes = [
        lambda: cuda.multiply_const_cupy(2, c64, 1),
        lambda: cuda.multiply_const_cupy(2, c64, 2**28 - 1),
        lambda: cuda.multiply_const_cupy(-3.4e38, f32),
        lambda: cuda.multiply_const_cupy(2, np.int16, 2**30 - 1),
        lambda: cuda.add_cupy(1),
        lambda: cuda.add_cupy(3, np.int8, INT_MAX),
        lambda: cuda.add_cupy(MAX_PORTS),
        lambda: cuda.fft_cupy(1),
        lambda: cuda.fft_cupy(MAX_FFT),
        lambda: cuda.fft_cupy(MAX_FFT, False, None, True, True),
        lambda: cuda.fft_cupy(2, True, [0.5, 1.0]),
        lambda: cuda.complex_to_mag_cupy(2**28 - 1),
        lambda: cuda.complex_to_mag_squared_cupy(2**28 - 1),
        lambda: cuda.nlog10_cupy(10, 2**29 - 1, -3),
        lambda: cuda.nlog10_cupy(-1e30, 1, 1e30),
        lambda: cuda.const_source_cupy(3.4e38, f32),
        lambda: cuda.const_source_cupy(1 - 1j, c64),
        lambda: cuda.vector_source_cupy([1, 2, 3, 4], True, 4, dtype=f32),
        lambda: cuda.vector_source_cupy([], True, INT_MAX, dtype=np.uint8),
        lambda: cuda.noise_source_cupy(analog.GR_UNIFORM, -2.0, 2**64),
        lambda: cuda.noise_source_cupy(analog.GR_UNIFORM, 1.0, -(2**63)),
        lambda: cuda.random_uniform_source_cupy(0, 2, -1),
        lambda: cuda.random_uniform_source_cupy(-128, 128, 0, np.int8),
        lambda: cuda.repeat_cupy(1),
        lambda: cuda.repeat_cupy(INT_MAX, 2**29 - 1, f32, INT_MAX),
        lambda: cuda.sig_source_cupy(5e-324),
        lambda: cuda.sig_source_cupy(1e300, analog.GR_SIN_WAVE, -1e300, -1e300, 1e30, -1e30),
        lambda: cuda.sig_source_cupy(1e6, analog.GR_SAW_WAVE, 1e3, 1.0, 0.5, 0.0, f32),
        lambda: cuda.sig_source_cupy(1e6, 101),
    ]
    for waveform in ("GR_CONST_WAVE", "GR_SIN_WAVE", "GR_COS_WAVE", "GR_SQR_WAVE", "GR_TRI_WAVE", "GR_SAW_WAVE"):
        makes.append(lambda w=getattr(analog, waveform): cuda.sig_source_cupy(1e6, w).set_waveform(w))
    return makes


class qa_block_arguments(flowgraph_test):
    time_limit = 120  # seconds per test: a refusal must never hang

    def check_refused(self, cases):
        for block, argument, fragment, make, error in cases:
            with self.subTest(block=block, argument=argument, fragment=fragment):
                with self.assertRaises(error) as raised:
                    make()
                message = str(raised.exception)
                if error is TypeError and block.startswith("cuda.") and not fragment:
                    # pybind11 refuses a negative size_t itself: its message shows the
                    # signature, which names the argument (a block without arguments: none).
                    self.assertIn(block.split(".")[1], message)
                    if argument:
                        self.assertIn(f"{argument}: int", message)
                    continue
                self.assertTrue(
                    message.startswith(f"{block}: {argument}"), f"{message!r} does not start with {block}: {argument}"
                )
                self.assertIn(fragment, message)

    def check_constructed(self, makes):
        for index, make in enumerate(makes):
            with self.subTest(index=index):
                make()

    def test_cpp_blocks_refuse_bad_arguments(self):
        self.check_refused(cpp_bad_arguments() + dsp_elementwise_bad_arguments())

    def test_cpp_blocks_take_the_limits(self):
        self.check_constructed(cpp_good_arguments() + dsp_elementwise_good_arguments())

    def test_cupy_blocks_refuse_bad_arguments(self):
        self.check_refused(cupy_bad_arguments())

    def test_cupy_blocks_take_the_limits(self):
        self.check_constructed(cupy_good_arguments())

    def test_every_block_is_covered(self):
        """A new block of the module gets its argument checks tested here too."""
        cases = cpp_bad_arguments() + dsp_elementwise_bad_arguments() + cupy_bad_arguments()
        tested = {block.split(".")[-1] for block, *_ in cases}
        # The Python blocks' bases and their C++ side (its checks: qa_python_gateway).
        bases = {"basic_block", "sync_block", "decim_block", "interp_block", "python_gateway"}
        blocks = {
            name
            for name, value in vars(cuda).items()
            if isinstance(value, type) and (issubclass(value, gr.gr_python.basic_block) or name.endswith("_cupy"))
        } - bases
        self.assertIn("fft", blocks)
        self.assertIn("fft_cupy", blocks)
        self.assertEqual(sorted(blocks - tested), [])

    def test_one_point_ffts_run(self):
        data = np.random.default_rng(1).standard_normal(64).astype(np.float32).view(np.complex64)
        results = []
        for fft in (gr_fft.fft_vcc(1, True, [], False), cuda.fft(1), cuda.fft_cupy(1), cuda.fft_cupy(1, False)):
            tb, sink = gr.top_block(), blocks.vector_sink_c()
            tb.connect(blocks.vector_source_c(data.tolist()), fft, sink)
            tb.run()
            results.append(np.array(sink.data(), np.complex64))
        for result in results:
            np.testing.assert_array_equal(result, data)

    def test_sig_source_command_with_a_bad_value_is_ignored(self):
        source = cuda.sig_source_cupy(1e6, analog.GR_SIN_WAVE, 1e3)
        source._handle_command(pmt.to_pmt({"freq": math.nan, "ampl": 0.5}))
        self.assertEqual(source.frequency(), 1e3)
        self.assertEqual(source.amplitude(), 0.5)

    def device_variable(self, value):
        """What a fresh process says when it opens the device with GRCUDA_DEVICE=value."""
        environment = dict(os.environ, GRCUDA_DEVICE=value)
        script = "from gnuradio import cuda\nprint(cuda.device_ordinal())"
        return subprocess.run(
            [sys.executable, "-c", script], env=environment, capture_output=True, text=True, timeout=120
        )

    def test_grcuda_device_must_be_a_device_ordinal(self):
        for value in ("abc", "-1", "1.5", "0x1", " 0", "1 ", "99999999999999999999"):
            with self.subTest(value=value):
                result = self.device_variable(value)
                self.assertNotEqual(result.returncode, 0, result.stdout)
                self.assertIn("ValueError: gr-cuda: GRCUDA_DEVICE=" + repr(value).replace("'", '"'), result.stderr)
                self.assertIn("is not a CUDA device ordinal: use a non-negative integer", result.stderr)
        for value in ("0", "", "00"):
            with self.subTest(value=value):
                result = self.device_variable(value)
                self.assertEqual(result.returncode, 0, result.stderr)
                self.assertEqual(result.stdout.split()[-1], "0")

    def opened_with(self, **variables):
        """What a fresh process prints and logs when it opens the device with \\p variables
        set (and GRCUDA_BACKEND and GRCUDA_DEVICE unset unless given)."""
        environment = {k: v for k, v in os.environ.items() if k not in ("GRCUDA_BACKEND", "GRCUDA_DEVICE")}
        environment.update(variables)
        script = "from gnuradio import cuda\nprint(cuda.simulated(), cuda.device_ordinal())"
        return subprocess.run(
            [sys.executable, "-c", script], env=environment, capture_output=True, text=True, timeout=120
        )

    def test_device_and_backend_preferences(self):
        # GNU Radio's preferences, through gr::prefs' own variables; gr-cuda's variables win.
        result = self.opened_with(GR_CONF_CUDA_DEVICE="x1")
        self.assertNotEqual(result.returncode, 0, result.stdout)
        self.assertIn('gr-cuda: [cuda] device="x1" is not a CUDA device ordinal', result.stderr)
        result = self.opened_with(GR_CONF_CUDA_BACKEND="gpu")
        self.assertNotEqual(result.returncode, 0, result.stdout)
        self.assertIn('gr-cuda: [cuda] backend="gpu" is not a backend: use cuda, simulated or auto', result.stderr)
        result = self.opened_with(GRCUDA_BACKEND="fast", GR_CONF_CUDA_BACKEND="simulated")
        self.assertIn('gr-cuda: GRCUDA_BACKEND="fast" is not a backend', result.stderr)
        result = self.opened_with(GR_CONF_CUDA_BACKEND="simulated", GR_CONF_CUDA_DEVICE="0")
        self.assertEqual(result.returncode, 0, result.stderr)
        self.assertEqual(result.stdout.splitlines()[-1].split(), ["True", "0"])
        # GNU Radio's logger writes to stdout.
        output = result.stdout + result.stderr
        backend_lines = [line for line in output.splitlines() if "backend" in line]
        self.assertEqual(len(backend_lines), 1, result.stderr)
        self.assertIn("using the simulated backend ([cuda] backend = simulated)", backend_lines[0])

    def ran_with(self, variable, value):
        """A fresh process that runs a small flowgraph through GPU blocks (a GPU source, a
        device-to-host edge) with the environment variable \\p variable set to \\p value."""
        script = (
            "from gnuradio import blocks, cuda, gr\n"
            "tb = gr.top_block()\n"
            "tb.connect(cuda.null_source(4), cuda.head(4, 1000), cuda.copy(4), blocks.null_sink(4))\n"
            "tb.run()\n"
            "print('ran')"
        )
        return subprocess.run(
            [sys.executable, "-c", script],
            capture_output=True,
            text=True,
            env=dict(os.environ, **{variable: value}),
            timeout=120,
        )

    def test_host_wait_must_be_adaptive_spin_or_block(self):
        cases = [
            ("GRCUDA_HOST_WAIT", value, runs)
            for value, runs in (
                ("fast", False),
                ("SPIN", False),
                ("block", True),
                ("spin", True),
                ("adaptive", True),
                ("", True),
            )
        ]
        # GNU Radio's preference, through gr::prefs' own environment variable.
        cases += [("GR_CONF_CUDA_HOST_WAIT", value, runs) for value, runs in (("slow", False), ("block", True))]
        for variable, value, runs in cases:
            with self.subTest(variable=variable, value=value):
                result = self.ran_with(variable, value)
                if runs:
                    self.assertEqual(result.returncode, 0, result.stderr)
                    self.assertEqual(result.stdout.split()[-1], "ran")
                else:
                    name = "GRCUDA_HOST_WAIT" if variable == "GRCUDA_HOST_WAIT" else "[cuda] host_wait"
                    self.assertNotEqual(result.returncode, 0, result.stdout)
                    self.assertIn(
                        f'gr-cuda: {name}="{value}" is not a way to wait for the GPU: '
                        "use adaptive (the default), spin or block",
                        result.stderr,
                    )

    def check_count_preference(self, option, accepted, refused, advice):
        """[cuda] \\p option, set through gr::prefs' variable: the \\p accepted values run, the
        \\p refused ones stop the flowgraph with a message that quotes them and gives \\p advice."""
        for value in accepted + refused:
            with self.subTest(option=option, value=value):
                result = self.ran_with(f"GR_CONF_CUDA_{option.upper()}", value)
                if value in accepted:
                    self.assertEqual(result.returncode, 0, result.stderr)
                else:
                    self.assertIn(f'gr-cuda: [cuda] {option}="{value}" is refused: {advice}', result.stderr)

    def test_ring_floor_must_be_a_size(self):
        # gr::prefs would read a typo as 0, which sizes rings as GNU Radio asks: refused.
        self.check_count_preference(
            "ring_floor_bytes", ("0", "1048576"), ("-1", "abc", "1.5", "2000000000000"), "use a whole number of bytes"
        )

    def test_ring_calls_must_be_a_count_from_two(self):
        self.check_count_preference(
            "ring_calls", ("2", "16"), ("1", "0", "abc", "3.5", "2000"), "use a whole number of calls from 2 to 1024"
        )

    def test_host_ring_cache_must_be_a_size(self):
        self.check_count_preference(
            "host_ring_cache_bytes", ("0", "1048576"), ("-1", "lots", "2.5"), "use a whole number of bytes"
        )

    def test_kernel_cache_preference(self):
        # A flowgraph with a GPU kernel, in a fresh process whose GNU Radio preferences are a
        # config.conf of its own (GR_PREFS_PATH) naming the kernel cache's folder.
        script = (
            "import numpy as np\n"
            "from gnuradio import blocks, cuda, gr\n"
            "data = np.random.default_rng(7).standard_normal(10_000).astype(np.float32)\n"
            "tb, sink = gr.top_block(), blocks.vector_sink_f()\n"
            "tb.connect(blocks.vector_source_f(data), cuda.multiply_const_ff(3.0), sink)\n"
            "tb.run()\n"
            "np.testing.assert_allclose(np.array(sink.data()), data * 3.0, rtol=1e-6)\n"
            "print(cuda.simulated())\n"
            "print(cuda.kernel_cache_directory())"
        )
        with tempfile.TemporaryDirectory() as scratch:
            preferences, folder = os.path.join(scratch, "preferences"), os.path.join(scratch, "kernels")
            os.mkdir(preferences)
            with open(os.path.join(preferences, "config.conf"), "w") as config:
                config.write(f"[cuda]\nkernel_cache = {folder}\n")
            environment = {k: v for k, v in os.environ.items() if k != "GRCUDA_KERNEL_CACHE"}
            environment["GR_PREFS_PATH"] = preferences

            def run(**variables):
                return subprocess.run(
                    [sys.executable, "-c", script],
                    capture_output=True,
                    text=True,
                    env=dict(environment, **variables),
                    timeout=120,
                )

            result = run()
            self.assertEqual(result.returncode, 0, result.stderr)
            simulated, reported = result.stdout.splitlines()[-2:]
            self.assertEqual(reported, folder)
            stored = os.listdir(folder) if os.path.isdir(folder) else []
            if simulated == "True":
                self.assertEqual(stored, [], "the simulated backend compiles no kernel")
            else:
                self.assertTrue(any(name.startswith("multiply_const-") for name in stored), stored)

            # gr-cuda's variable wins over the preference.
            other = os.path.join(scratch, "other")
            result = run(GRCUDA_KERNEL_CACHE=other)
            self.assertEqual(result.returncode, 0, result.stderr)
            self.assertEqual(result.stdout.splitlines()[-1], other)

            # A folder libgrcuda refuses stops the flowgraph with the preference named.
            result = run(GR_CONF_CUDA_KERNEL_CACHE="kernels")
            self.assertNotEqual(result.returncode, 0, result.stdout)
            self.assertIn('gr-cuda: [cuda] kernel_cache="kernels" is not a kernel cache folder', result.stderr)
            self.assertIn("is relative: name an absolute path", result.stderr)

            # So does a file where the folder should be.
            a_file = os.path.join(scratch, "a-file")
            with open(a_file, "w") as content:
                content.write("not a folder")
            result = run(GR_CONF_CUDA_KERNEL_CACHE=a_file)
            self.assertNotEqual(result.returncode, 0, result.stdout)
            self.assertIn("names something that is not a directory", result.stderr)

            # gr-cuda's variable goes through the same checks, named as the variable.
            for value, reason in (("kernels", "is relative"), (a_file, "is not a directory")):
                result = run(GRCUDA_KERNEL_CACHE=value)
                self.assertNotEqual(result.returncode, 0, result.stdout)
                self.assertIn(f'GRCUDA_KERNEL_CACHE="{value}" is refused', result.stderr)
                self.assertIn(reason, result.stderr)


if __name__ == "__main__":
    gr_unittest.run(qa_block_arguments)
