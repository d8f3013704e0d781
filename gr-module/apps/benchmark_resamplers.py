#!/usr/bin/env python3
#
# SPDX-License-Identifier: GPL-3.0-or-later
#
"""Benchmarks of the polyphase blocks against baselines measured in the same run.

Each block runs in null_source -> block -> null_sink, all on the GPU, at 2^20 and 2^22 input
items per call (the source's call size; the block's own is the outputs of that input),
against:

- GNU Radio's CPU block, null_source -> block -> null_sink (one thread: these blocks have
  no nthreads argument; the channelizer is the hier block filter.pfb.channelizer_ccf, whose
  stream_to_streams is part of what a GNU Radio user runs);
- the roofline: the block's input and output bytes at the device-to-device copy rate
  measured in the same run (libgrcuda's copy kernel, bytes read plus bytes written per
  second);
- for the channelizer also the cuFFT rate of its transforms: one M-point transform per D
  input items, batched as the block batches them, called straight through the C API.

Rates are input samples per second, steady state (benchmark_support.py). Prints a Markdown
table, writes the figures as JSON (--json) and a PNG plot (--plots, where matplotlib is
installed; --plot-only redraws it from a JSON file).
"""

import os

import numpy as np

from gnuradio import blocks, filter as gr_filter, gr
from gnuradio.filter import pfb

import benchmark_support
from benchmark_support import configure, plot, raw, steady_rate

from gnuradio import cuda

COMPLEX, FLOAT = gr.sizeof_gr_complex, gr.sizeof_float


def resampler(suffix, interpolation, decimation, size):
    """A row of the table: name, item size, output items per input item, the GPU and the
    CPU block makers, and the transforms per input item (none here)."""
    return (
        f"rational_resampler_{suffix} {interpolation}/{decimation}",
        size,
        interpolation / decimation,
        lambda: getattr(cuda, f"rational_resampler_{suffix}")(interpolation, decimation),
        lambda: getattr(gr_filter, f"rational_resampler_{suffix}")(interpolation, decimation),
        None,
    )


def channelizer(channels, taps_per_channel=None, oversample_rate=1):
    """A channelizer row: GNU Radio's designed taps (taps_per_channel None) or a windowed
    sinc of exactly taps_per_channel taps per channel."""
    taps = None
    if taps_per_channel:
        length = channels * taps_per_channel
        time = np.arange(length) - (length - 1) / 2
        taps = list((np.sinc(time / channels) * np.hamming(length) / channels).astype(np.float32))
    made = cuda.pfb_channelizer_ccf(channels, taps, oversample_rate)
    per_channel = len(made.taps()[0])
    return (
        f"pfb_channelizer_ccf {channels} channels, {per_channel} taps each",
        COMPLEX,
        oversample_rate,
        lambda: cuda.pfb_channelizer_ccf(channels, taps, oversample_rate),
        lambda: pfb.channelizer_ccf(channels, taps, oversample_rate),
        (channels, round(channels / oversample_rate)),
    )


def cases(quick):
    rows = [
        resampler("ccf", 3, 2, COMPLEX),
        resampler("fff", 3, 2, FLOAT),
        resampler("ccc", 2, 5, COMPLEX),
        channelizer(64),
        channelizer(1024, 16),
    ]
    return [rows[0], rows[4]] if quick else rows


def gpu_rate(args, block, item_size, per_call, rate, channels):
    """Input samples per second through the GPU block: its outputs counted at the sink."""
    tb = gr.top_block()
    source = cuda.null_source(item_size, 1, False)
    outputs = max(1, int(per_call * rate // (channels or 1)))
    configure([source], per_call, args.buffer_calls)
    block.set_max_noutput_items(outputs)
    sinks = [cuda.null_sink(item_size) for _ in range(channels or 1)]
    tb.connect(source, block)
    for port, sink in enumerate(sinks):
        tb.connect((block, port), sink)
    return steady_rate(tb, sinks[0], args.seconds) * (channels or 1) / rate


def cpu_rate(args, block, item_size, per_call, rate, channels):
    tb = gr.top_block()
    source = blocks.null_source(item_size)
    source.set_max_noutput_items(per_call)
    sinks = [blocks.null_sink(item_size) for _ in range(channels or 1)]
    tb.connect(source, block)
    for port, sink in enumerate(sinks):
        tb.connect((block, port), sink)
    return steady_rate(tb, sinks[0], args.seconds) * (channels or 1) / rate


def copy_rate(r, volume):
    """Bytes read plus bytes written per second by the device-to-device copy kernel."""
    chunk = 64 << 20
    source, destination = r.memory(0, chunk), r.memory(0, chunk)
    calls = max(8, volume // chunk)
    return 2 * calls * chunk / r.timed(calls, lambda: r.copy_kernel(destination, source, chunk))


def transform_rate(r, channels, step, per_call, volume):
    """Input samples per second that cuFFT's M-point transforms keep up with: one per D
    input items, batched as one call of the block batches them."""
    batch = max(1, per_call // step)
    buffers = [r.memory(0, batch * channels * 8) for _ in range(2)]
    calls = max(8, volume // (8 * batch * channels))
    seconds = r.timed(calls, lambda: r.fft(channels, batch, *buffers))
    return calls * batch * step / seconds


def polyphase(args, results):
    r = args.raw
    copy = copy_rate(r, args.volume)
    print("### Polyphase blocks vs GNU Radio's CPU blocks and the roofline\n")
    print(
        f"Input Msamples/s. Roofline: input + output bytes at the device-to-device copy rate "
        f"measured here ({copy / 1e9:.0f} GB/s read + written); cuFFT: the channelizer's transforms "
        "alone; '% of bound' is against the lower of the two.\n"
    )
    print("| block | input items per call | GPU | CPU (GNU Radio) | speed-up | roofline | cuFFT | % of bound |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|")
    for name, item_size, rate, make_gpu, make_cpu, transforms in cases(args.quick):
        channels = transforms[0] if transforms else None
        for per_call in (1 << 20,) if args.quick else (1 << 20, 1 << 22):
            gpu = gpu_rate(args, make_gpu(), item_size, per_call, rate, channels)
            cpu = cpu_rate(args, make_cpu(), item_size, per_call, rate, channels)
            roofline = copy / (item_size * (1 + rate))
            fft = transform_rate(r, *transforms, per_call, args.volume) if transforms else None
            bound = min(roofline, fft) if fft else roofline
            results["polyphase"].append(
                {
                    "block": name,
                    "per_call": per_call,
                    "gpu": gpu,
                    "cpu": cpu,
                    "roofline": roofline,
                    "cufft": fft,
                    "copy_bytes_per_second": copy,
                }
            )
            fft_text = f"{fft / 1e6:.0f}" if fft else "-"
            print(
                f"| {name} | 2^{per_call.bit_length() - 1} | {gpu / 1e6:.0f} | {cpu / 1e6:.1f} | "
                f"{gpu / cpu:.0f}x | {roofline / 1e6:.0f} | {fft_text} | {100 * gpu / bound:.0f}% |"
            )
    print()


def draw(results, folder):
    os.makedirs(folder, exist_ok=True)
    rows = results["polyphase"]
    names = sorted({row["block"] for row in rows})
    plot(
        os.path.join(folder, "resamplers.png"),
        "Polyphase blocks as a share of their bound (H200)",
        "input items per call",
        "% of bound",
        {
            name: [
                (row["per_call"], 100 * row["gpu"] / min(row["roofline"], row["cufft"] or row["roofline"]))
                for row in rows
                if row["block"] == name
            ]
            for name in names
        },
    )


def add_arguments(parser):
    parser.add_argument("--volume", type=int, default=2 << 30, help="bytes per baseline figure")


def prepare(args):
    if args.quick:
        args.volume = min(args.volume, 16 << 20)
    args.raw = raw()


if __name__ == "__main__":
    benchmark_support.main(
        __doc__, "gr-cuda polyphase blocks benchmark", {"polyphase": polyphase}, draw, add_arguments, prepare
    )
