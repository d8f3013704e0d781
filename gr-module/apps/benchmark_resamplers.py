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

A second table ("kernels") times libgrcuda's rational resampler alone, called straight
through the C API on raw device memory with no flowgraph, against the same roofline: what the
kernel reaches without GNU Radio's scheduler.

Rates are input samples per second, steady state (benchmark_support.py). Prints Markdown
tables, writes the figures as JSON (--json) and a PNG plot (--plots, where matplotlib is
installed; --plot-only redraws it from a JSON file).
"""

import ctypes
import os

import numpy as np

from gnuradio import blocks, filter as gr_filter, gr
from gnuradio.filter import pfb

import benchmark_support
from benchmark_support import (
    add_volume_argument,
    configure,
    copy_rate,
    grcuda,
    ok,
    plot,
    prepare_baselines,
    steady_rate,
)

from gnuradio import cuda

COMPLEX, FLOAT = gr.sizeof_gr_complex, gr.sizeof_float

for _suffix in ("ccc", "ccf", "fff"):
    getattr(grcuda, f"grcuda_rational_resampler_{_suffix}").restype = ctypes.c_int


# Above this many channels GNU Radio's CPU channelizer runs with one output connected (the
# same filter bank and FFT, one output written instead of all): its hier block with every
# output needs more System V shared memory segments (two per buffer) than Linux allows by
# default (4096).
CPU_CHANNELS_ALL_CONNECTED = 512


def resampler(suffix, interpolation, decimation, item_size):
    """A row of the table: its name, item size, input items per item at output 0, output
    items per input item (every output), the block makers, and the channelizer's transform
    shape (None here)."""
    return {
        "name": f"rational_resampler_{suffix} {interpolation}/{decimation}",
        "resampler": (suffix, interpolation, decimation),
        "item_size": item_size,
        "inputs_per_output": decimation / interpolation,
        "outputs_per_input": interpolation / decimation,
        "gpu_sinks": 1,
        "gpu_sink_item_size": item_size,
        "gpu": lambda: getattr(cuda, f"rational_resampler_{suffix}")(interpolation, decimation),
        "cpu": lambda: getattr(gr_filter, f"rational_resampler_{suffix}")(interpolation, decimation),
        "cpu_outputs": 1,
        "transforms": None,
    }


def channelizer(channels, taps_per_channel=None, oversample_rate=1, vector=False):
    r"""A channelizer row: GNU Radio's designed taps (taps_per_channel None) or a windowed
    sinc of exactly taps_per_channel taps per channel; with \p vector the GPU block is
    pfb_channelizer_vector_ccf (one output of vectors), against the same CPU hier block."""
    taps = None
    if taps_per_channel:
        length = channels * taps_per_channel
        offsets = np.arange(length) - (length - 1) / 2
        taps = list((np.sinc(offsets / channels) * np.hamming(length) / channels).astype(np.float32))
    per_channel = len(cuda.pfb_channelizer_ccf(channels, taps, oversample_rate).taps()[0])
    step = round(channels / oversample_rate)
    all_connected = channels <= CPU_CHANNELS_ALL_CONNECTED

    def cpu():
        if all_connected:
            return pfb.channelizer_ccf(channels, taps, oversample_rate)
        block = gr.hier_block2("channelizer_one_output", gr.io_signature(1, 1, COMPLEX), gr.io_signature(1, 1, COMPLEX))
        split = blocks.stream_to_streams(COMPLEX, channels)
        bank = gr_filter.pfb_channelizer_ccf(channels, taps, oversample_rate)
        bank.set_tag_propagation_policy(gr.TPP_DONT)  # one to one needs every output
        block.connect(block, split)
        for port in range(channels):
            block.connect((split, port), (bank, port))
        block.connect((bank, 0), block)
        block.keep = (split, bank)
        return block

    gpu_name = "pfb_channelizer_vector_ccf" if vector else "pfb_channelizer_ccf"
    return {
        "name": f"{gpu_name} {channels} channels, {per_channel} taps each"
        + ("" if all_connected else " (CPU: one output connected)"),
        "item_size": COMPLEX,
        "inputs_per_output": step,
        "outputs_per_input": channels / step,
        "gpu_sinks": 1 if vector else channels,
        "gpu_sink_item_size": COMPLEX * channels if vector else COMPLEX,
        "gpu": lambda: getattr(cuda, gpu_name)(channels, taps, oversample_rate),
        "cpu": cpu,
        "cpu_outputs": channels if all_connected else 1,
        "transforms": (channels, step),
    }


def cases(quick):
    rows = [
        resampler("ccf", 3, 2, COMPLEX),
        resampler("fff", 3, 2, FLOAT),
        resampler("ccc", 2, 5, COMPLEX),
        channelizer(64),
        channelizer(64, vector=True),
        channelizer(1024, 16),
        channelizer(1024, 16, vector=True),
    ]
    return [rows[0], rows[6]] if quick else rows


def input_rate(args, row, source, block, sinks, per_call):
    r"""Input samples per second through \p block: the items at its output 0 per second."""
    tb = gr.top_block()
    tb.connect(source, block)
    for port, sink in enumerate(sinks):
        tb.connect((block, port), sink)
    return steady_rate(tb, sinks[0], args.seconds) * row["inputs_per_output"]


def gpu_rate(args, row, per_call):
    source, block = cuda.null_source(row["item_size"], 1, False), row["gpu"]()
    configure([source], per_call, args.buffer_calls)
    block.set_max_noutput_items(max(1, int(per_call / row["inputs_per_output"])))
    sinks = [cuda.null_sink(row["gpu_sink_item_size"]) for _ in range(row["gpu_sinks"])]
    return input_rate(args, row, source, block, sinks, per_call)


def cpu_rate(args, row, per_call):
    source = blocks.null_source(row["item_size"])
    source.set_max_noutput_items(per_call)
    sinks = [blocks.null_sink(row["item_size"]) for _ in range(row["cpu_outputs"])]
    return input_rate(args, row, source, row["cpu"](), sinks, per_call)


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
    copy = copy_rate(args, 64 << 20)
    print("### Polyphase blocks vs GNU Radio's CPU blocks and the roofline\n")
    print(
        f"Input Msamples/s. Roofline: input + output bytes at the device-to-device copy rate "
        f"measured here ({copy / 1e9:.0f} GB/s read + written); cuFFT: the channelizer's transforms "
        "alone; '% of bound' is against the lower of the two.\n"
    )
    print("| block | input items per call | GPU | CPU (GNU Radio) | speed-up | roofline | cuFFT | % of bound |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|")
    for row in cases(args.quick):
        name, transforms = row["name"], row["transforms"]
        for per_call in (1 << 20,) if args.quick else (1 << 20, 1 << 22):
            gpu, cpu = gpu_rate(args, row, per_call), cpu_rate(args, row, per_call)
            roofline = copy / (row["item_size"] * (1 + row["outputs_per_input"]))
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
                f"{gpu / cpu:.1f}x | {roofline / 1e6:.0f} | {fft_text} | {100 * gpu / bound:.0f}% |"
            )
    print()


def kernel_rate(args, suffix, interpolation, decimation, input_items):
    """Input samples per second of libgrcuda's rational resampler alone on raw device memory,
    with the taps GNU Radio designs for this ratio (those the block uses)."""
    r = args.raw
    designed = len(getattr(gr_filter, f"rational_resampler_{suffix}")(interpolation, decimation).taps())
    taps_per_phase = -(-designed // interpolation)
    sample_bytes = FLOAT if suffix == "fff" else COMPLEX
    tap_bytes = COMPLEX if suffix == "ccc" else FLOAT
    outputs = input_items * interpolation // decimation
    source = r.memory(0, (input_items + taps_per_phase) * sample_bytes)
    taps = r.memory(0, interpolation * taps_per_phase * tap_bytes)
    destination = r.memory(0, outputs * sample_bytes)
    function = getattr(grcuda, f"grcuda_rational_resampler_{suffix}")
    shape = [ctypes.c_size_t(value) for value in (outputs, interpolation, decimation, taps_per_phase, 0)]

    def launch():
        ok(function(r.stream, source, taps, destination, *shape), "rational resampler")

    calls = max(8, args.volume // (input_items * sample_bytes))
    return calls * input_items / r.timed(calls, launch), taps_per_phase


def kernels(args, results):
    copy = copy_rate(args, 64 << 20)
    input_items = 1 << (18 if args.quick else 22)
    print(f"### libgrcuda's rational resampler alone (2^{input_items.bit_length() - 1} input items per call)\n")
    print(f"Input Gsamples/s on raw device memory; roofline as above ({copy / 1e9:.0f} GB/s read + written).\n")
    print("| resampler | taps per phase | kernel | roofline | % of roofline |")
    print("|---|---:|---:|---:|---:|")
    for row in cases(args.quick):
        if "resampler" not in row:
            continue
        suffix, interpolation, decimation = row["resampler"]
        rate, taps_per_phase = kernel_rate(args, suffix, interpolation, decimation, input_items)
        roofline = copy / (row["item_size"] * (1 + row["outputs_per_input"]))
        results["kernels"].append(
            {
                "block": row["name"],
                "per_call": input_items,
                "taps_per_phase": taps_per_phase,
                "kernel": rate,
                "roofline": roofline,
            }
        )
        print(
            f"| {row['name']} | {taps_per_phase} | {rate / 1e9:.1f} | {roofline / 1e9:.0f} | {100 * rate / roofline:.0f}% |"
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


if __name__ == "__main__":
    benchmark_support.main(
        __doc__,
        "gr-cuda polyphase blocks benchmark",
        {"polyphase": polyphase, "kernels": kernels},
        draw,
        add_volume_argument,
        prepare_baselines,
    )
