#!/usr/bin/env python3
#
# SPDX-License-Identifier: GPL-3.0-or-later
#
"""The spectrum chain as separate GPU blocks against cuda.logpwrfft_c, and bare cuFFT.

GPU-resident flowgraphs, cuda.null_source -> ... -> cuda.null_sink, decimation 1, no
averaging:

- separate blocks, as the spectrum demo builds them with --blocks: cuda.stream_to_vector ->
  cuda.fft (window, shift) -> cuda.complex_to_mag_squared -> cuda.nlog10_ff;
- cuda.logpwrfft_c: the same chain in one block (one kernel for sizes up to 4096, two
  kernels around one cuFFT call above);
- bare cuFFT: the same batched transforms called directly through libgrcuda's C API, in
  the same run (the ceiling: the block also reads the input, applies the window and writes
  decibels, which the bare transform does not).

At 2^20 and 2^22 samples per call (set_max_noutput_items on every measured block) and FFT
sizes 1024, 4096 and 65536; and the block with its single-pole averaging on against off.
Prints a Markdown table, writes the figures as JSON (--json) and a PNG plot (--plots).
"""

import os

from gnuradio import gr

import benchmark_support
from benchmark_support import add_volume_argument, configure, plot, prepare_baselines, steady_rate

from gnuradio import cuda


def separate_blocks(size):
    window = [1.0] * size
    return [
        cuda.stream_to_vector(gr.sizeof_gr_complex, size),
        cuda.fft(size, True, window, True),
        cuda.complex_to_mag_squared(size),
        cuda.nlog10_ff(10, size, 0),
    ]


def one_block(size, average=False):
    """logpwrfft_c at one frame per input vector; with \\p average, GNU Radio's
    single-pole average (alpha 0.1) over the frames."""
    return [cuda.logpwrfft_c(1.0, size, 2.0, 1.0 / size, 0.1 if average else 1.0, average, shift=True)]


def measure(chain, per_call, size, args):
    """Msamples/s through chain, every block making calls of per_call samples."""
    tb = gr.top_block()
    source, sink = cuda.null_source(gr.sizeof_gr_complex, 1, False), cuda.null_sink(gr.sizeof_float * size)
    # Calls in the blocks' own items: samples before the first vector block, vectors after.
    configure([source], per_call, args.buffer_calls)
    for block in chain:
        vectors = block.output_signature().sizeof_stream_item(0) // gr.sizeof_float >= size
        configure([block], per_call // size if vectors else per_call, args.buffer_calls)
    tb.connect(source, *chain, sink)
    return size * steady_rate(tb, sink, args.seconds) / 1e6


def spectra(args, results):
    r = args.raw
    print("### Spectrum chain: separate GPU blocks vs cuda.logpwrfft_c vs bare cuFFT\n")
    print("| FFT size | samples per call | cuFFT Msamples/s | separate blocks | logpwrfft_c | vs blocks | vs cuFFT |")
    print("|---:|---:|---:|---:|---:|---:|---:|")
    for size in (1024,) if args.quick else (1024, 4096, 65536):
        for per_call in (1 << 16,) if args.quick else (1 << 20, 1 << 22):
            batch = per_call // size
            calls = max(16, args.volume // (8 * per_call))
            source, dest = r.memory(0, per_call * 8), r.memory(0, per_call * 8)
            cufft = calls * per_call / r.timed(calls, lambda: r.fft(size, batch, source, dest)) / 1e6
            blocks_rate = measure(separate_blocks(size), per_call, size, args)
            fused = measure(one_block(size), per_call, size, args)
            results["spectra"].append(
                {"fft_size": size, "per_call": per_call, "cufft": cufft, "blocks": blocks_rate, "logpwrfft": fused}
            )
            print(
                f"| {size} | 2^{per_call.bit_length() - 1} | {cufft:.0f} | {blocks_rate:.0f} | {fused:.0f} | "
                f"{fused / blocks_rate:.2f}x | {100 * fused / cufft:.0f}% |"
            )
    print()


def averaging(args, results):
    print("### cuda.logpwrfft_c with averaging vs without\n")
    print(
        "average=True, avg_alpha=0.1: the single-pole average runs through the frames of a call in order "
        "per bin (as GNU Radio rounds it), after the same FFT.\n"
    )
    print("| FFT size | samples per call | without averaging Msamples/s | with averaging | ratio |")
    print("|---:|---:|---:|---:|---:|")
    for size in (1024,) if args.quick else (1024, 65536):
        for per_call in (1 << 16,) if args.quick else (1 << 20, 1 << 22):
            plain = measure(one_block(size), per_call, size, args)
            averaged = measure(one_block(size, average=True), per_call, size, args)
            results["averaging"].append({"fft_size": size, "per_call": per_call, "plain": plain, "averaged": averaged})
            print(
                f"| {size} | 2^{per_call.bit_length() - 1} | {plain:.0f} | {averaged:.0f} | "
                f"{100 * averaged / plain:.0f}% |"
            )
    print()


def draw(results, folder):
    series = {}
    for row in results.get("spectra", []):
        for key, label in (("cufft", "bare cuFFT"), ("blocks", "separate blocks"), ("logpwrfft", "logpwrfft_c")):
            series.setdefault(f"{label}, FFT {row['fft_size']}", []).append((row["per_call"], row[key]))
    plot(
        os.path.join(folder, "logpwrfft.png"),
        "Spectrum chain on the GPU",
        "samples per call",
        "Msamples/s",
        series,
    )


if __name__ == "__main__":
    benchmark_support.main(
        __doc__,
        "gr-cuda spectrum benchmark",
        {"spectra": spectra, "averaging": averaging},
        draw,
        add_volume_argument,
        prepare_baselines,
    )
