#!/usr/bin/env python3
#
# SPDX-License-Identifier: GPL-3.0-or-later
#
"""The CuPy blocks against the C++ blocks doing the same work, in the same run.

multiply_const_cupy vs multiply_const_cc, and fft_cupy vs fft, each between a
cuda.null_source and a cuda.null_sink, at the same items per call (set_max_noutput_items)
and buffer sizes; and the two multiplies source-paced: only the source's call size set, the
block and its buffers at their defaults (passive batching). Steady-state rates
(benchmark_support.py). On a GPU each table also has the CuPy call the block makes, timed
alone back to back on a stream of its own ("CuPy alone": what any CuPy block doing that work
can reach, whatever its per-call cost). Prints Markdown tables; writes JSON (--json) and a
PNG plot (--plots) where matplotlib is installed.
"""

import os
import time

import numpy as np
from gnuradio import gr

import benchmark_support
from benchmark_support import configure, plot, steady_rate

from gnuradio import cuda


def rate(make_block, itemsize, items_per_call, args, paced=False):
    """Items per second through null_source -> block -> null_sink: both calls of
    \\p items_per_call items in buffers of --buffer-calls calls, or, \\p paced, only the
    source's calls capped."""
    tb = gr.top_block()
    source, block, sink = cuda.null_source(itemsize, 1, False), make_block(), cuda.null_sink(itemsize)
    if paced:
        source.set_max_noutput_items(items_per_call)
    else:
        configure([source, block], items_per_call, args.buffer_calls)
    tb.connect(source, block, sink)
    return steady_rate(tb, sink, args.seconds)


def cupy_alone(args, launch_factory):
    """Calls per second of \\p launch_factory(xp)() back to back on a non-blocking CuPy
    stream for --seconds, after a warm-up call; None on the simulated backend (NumPy runs
    synchronously there: nothing comparable)."""
    xp = cuda.array_module()
    if xp is np:
        return None
    stream = xp.cuda.Stream(non_blocking=True)
    with stream:
        launch = launch_factory(xp)
        launch()
        stream.synchronize()
        calls, started = 0, time.perf_counter()
        while time.perf_counter() - started < args.seconds:
            launch()
            calls += 1
        stream.synchronize()
    return calls / (time.perf_counter() - started)


def cupy_multiply(items):
    def factory(xp):
        source, destination = xp.zeros(items, np.complex64), xp.empty(items, np.complex64)
        k = np.complex64(1 + 0.5j)
        return lambda: xp.multiply(source, k, out=destination)

    return factory


def cupy_fft(size, batch):
    def factory(xp):
        from cupy.cuda import cufft

        source, destination = xp.zeros((batch, size), np.complex64), xp.empty((batch, size), np.complex64)
        plan = cufft.Plan1d(size, cufft.CUFFT_C2C, batch)
        return lambda: plan.fft(source, destination, cufft.CUFFT_FORWARD)

    return factory


def share(part, whole):
    return f"{100 * part / whole:.0f}%" if part is not None and whole else "n/a"


def figure(value, digits=1):
    return "n/a" if value is None else f"{value:.{digits}f}"


def multiply(args, results):
    print("### multiply_const_cupy vs multiply_const_cc (complex64)\n")
    print("| items per call | C++ Gitems/s | CuPy Gitems/s | ratio |")
    print("|---:|---:|---:|---:|")
    for shift in (16,) if args.quick else (16, 18, 20, 22, 24):
        items = 1 << shift
        cpp = rate(lambda: cuda.multiply_const_cc(1 + 0.5j), 8, items, args) / 1e9
        python = rate(lambda: cuda.multiply_const_cupy(1 + 0.5j, np.complex64), 8, items, args) / 1e9
        results["multiply"].append({"items": items, "cpp": cpp, "cupy": python})
        print(f"| 2^{shift} | {cpp:.1f} | {python:.1f} | {100 * python / cpp:.0f}% |")
    print()


def source_paced(args, results):
    print("### Source-paced: multiply_const_cupy vs multiply_const_cc (complex64), only the source's call size set\n")
    print("| items per source call | C++ Gitems/s | CuPy Gitems/s | ratio | CuPy alone Gitems/s | block / CuPy alone |")
    print("|---:|---:|---:|---:|---:|---:|")
    for shift in (18,) if args.quick else (18, 20, 22):
        items = 1 << shift
        cpp = rate(lambda: cuda.multiply_const_cc(1 + 0.5j), 8, items, args, paced=True) / 1e9
        python = rate(lambda: cuda.multiply_const_cupy(1 + 0.5j, np.complex64), 8, items, args, paced=True) / 1e9
        calls = cupy_alone(args, cupy_multiply(items))
        alone = calls * items / 1e9 if calls else None
        results["source_paced"].append({"items": items, "cpp": cpp, "cupy": python, "cupy_alone": alone})
        print(
            f"| 2^{shift} | {cpp:.1f} | {python:.1f} | {share(python, cpp)} | {figure(alone)} | {share(python, alone)} |"
        )
    print()


def ffts(args, results):
    print("### fft_cupy vs cuda.fft (forward, complex64, no window)\n")
    print(
        "| FFT size | samples per call | C++ Msamples/s | CuPy Msamples/s | ratio | CuPy alone Msamples/s "
        "| block / CuPy alone |"
    )
    print("|---:|---:|---:|---:|---:|---:|---:|")
    for size in (1024,) if args.quick else (1024, 4096, 16384, 65536):
        for per_call in (1 << 18,) if args.quick else (1 << 18, 1 << 20, 1 << 22):
            batch = per_call // size
            cpp = size * rate(lambda: cuda.fft(size, True, [], False), 8 * size, batch, args) / 1e6
            python = size * rate(lambda: cuda.fft_cupy(size, True), 8 * size, batch, args) / 1e6
            calls = cupy_alone(args, cupy_fft(size, batch))
            alone = calls * per_call / 1e6 if calls else None
            results["fft"].append({"size": size, "per_call": per_call, "cpp": cpp, "cupy": python, "cupy_alone": alone})
            print(
                f"| {size} | 2^{per_call.bit_length() - 1} | {cpp:.0f} | {python:.0f} | {share(python, cpp)} | "
                f"{figure(alone, 0)} | {share(python, alone)} |"
            )
    print()


def draw(results, folder):
    os.makedirs(folder, exist_ok=True)
    rows = results["multiply"]
    plot(
        os.path.join(folder, "python-blocks-multiply.png"),
        "multiply_const: CuPy block vs C++ block (H200)",
        "items per call",
        "Gitems/s",
        {
            "multiply_const_cc (C++)": [(r["items"], r["cpp"]) for r in rows],
            "multiply_const_cupy (Python)": [(r["items"], r["cupy"]) for r in rows],
        },
    )


if __name__ == "__main__":
    benchmark_support.main(
        __doc__,
        "Python (CuPy) blocks vs C++ blocks",
        {"multiply": multiply, "source_paced": source_paced, "fft": ffts},
        draw,
    )
