#!/usr/bin/env python3
#
# SPDX-License-Identifier: GPL-3.0-or-later
#
"""Benchmarks of the GPU FIR filters against baselines measured in the same run.

1. methods: libgrcuda's FIR filter called directly (no flowgraph), the direct form against
   overlap-save (one kernel with shared-memory FFTs up to 2049 taps, cuFFT beyond), by tap
   count and decimation, next to the automatic choice: where it should switch.
2. blocks: cuda.fir_filter_xxx, fft_filter_xxx and freq_xlating_fir_filter_xxx in a GPU
   chain (cuda.null_source -> filter -> cuda.null_sink) at 2^20 and 2^22 output items per
   call, against (a) GNU Radio's CPU block in a CPU chain (1 thread; fft_filter also with
   its nthreads), and (b) a roofline measured in the same run: the input and output bytes
   at the device-to-device copy rate, and for overlap-save also the rate of the cuFFT
   transforms it must do (a forward and an inverse transform of its FFT size per span of
   outputs, as libgrcuda reports them).

Items per call are set with set_max_noutput_items on the GPU source and filter, buffers hold
--buffer-calls calls; the CPU chains run with GNU Radio's defaults. Prints Markdown tables,
writes JSON (--json) and PNG plots (--plots).
"""

import ctypes
import os

import numpy as np
from gnuradio import blocks, filter, gr

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
    steady_rate_and_cores,
)

from gnuradio import cuda

for _name in ("grcuda_fir_filter_new_ccc", "grcuda_fir_filter_new_ccf", "grcuda_fir_filter_new_fff"):
    getattr(grcuda, _name).restype = ctypes.c_int
grcuda.grcuda_fir_filter_execute.restype = ctypes.c_int
grcuda.grcuda_fir_filter_history.restype = ctypes.c_size_t
grcuda.grcuda_fir_filter_method.restype = ctypes.c_uint32
grcuda.grcuda_fir_filter_output_multiple.restype = ctypes.c_size_t
grcuda.grcuda_fir_filter_fft_size.restype = ctypes.c_size_t

AUTOMATIC, DIRECT, FFT = 0, 1, 2  # GRCUDA_FIR_AUTOMATIC, _DIRECT, _FFT
SAMPLE_BYTES = {"ccc": (8, 8), "ccf": (8, 8), "fff": (4, 4)}  # input and output bytes


def random_taps(suffix, count):
    rng = np.random.default_rng(count)
    taps = rng.standard_normal(count).astype(np.float32)
    if suffix == "ccc":
        return (taps + 1j * rng.standard_normal(count)).astype(np.complex64)
    return taps


def new_filter(stream, suffix, taps, decimation, method):
    """A libgrcuda filter handle (free it with grcuda_fir_filter_free)."""
    handle = ctypes.c_void_p()
    make = getattr(grcuda, f"grcuda_fir_filter_new_{suffix}")
    pointer = taps.ctypes.data_as(ctypes.c_void_p)
    ok(make(stream, decimation, method, pointer, len(taps), ctypes.byref(handle)), "filter")
    return handle


def engine_rate(args, suffix, taps, decimation, method, outputs):
    """Output samples per second of libgrcuda's filter alone, on raw device memory."""
    r = args.raw
    handle = new_filter(r.stream, suffix, random_taps(suffix, taps), decimation, method)
    history = grcuda.grcuda_fir_filter_history(handle)
    in_bytes, out_bytes = SAMPLE_BYTES[suffix]
    inputs = (outputs - 1) * decimation + history
    source, destination = r.memory(0, inputs * in_bytes), r.memory(0, outputs * out_bytes)
    produced = ctypes.c_size_t()
    position = [0]

    def launch():
        done = 0
        while done < outputs:
            ok(
                grcuda.grcuda_fir_filter_execute(
                    handle,
                    ctypes.c_void_p(source.value + done * decimation * in_bytes),
                    ctypes.c_void_p(destination.value + done * out_bytes),
                    ctypes.c_size_t(outputs - done),
                    ctypes.c_uint64(position[0] + done),
                    ctypes.byref(produced),
                ),
                "execute",
            )
            done += produced.value
        position[0] += outputs

    calls = max(4, args.volume // (outputs * decimation * in_bytes))
    rate = calls * outputs / r.timed(calls, launch)
    grcuda.grcuda_fir_filter_free(handle)
    return rate


def automatic_method(args, suffix, taps, decimation):
    """The method libgrcuda's automatic choice takes."""
    handle = new_filter(args.raw.stream, suffix, random_taps(suffix, taps), decimation, AUTOMATIC)
    method = grcuda.grcuda_fir_filter_method(handle)
    grcuda.grcuda_fir_filter_free(handle)
    return "direct" if method == DIRECT else "overlap-save"


def overlap_save_transforms(args, suffix, taps):
    """The FFT size libgrcuda's filter picks for `taps` taps (decimation 1, the automatic
    method) and the outputs of each of its forward and inverse transforms."""
    handle = new_filter(args.raw.stream, suffix, random_taps(suffix, taps), 1, FFT)
    size, span = grcuda.grcuda_fir_filter_fft_size(handle), grcuda.grcuda_fir_filter_output_multiple(handle)
    grcuda.grcuda_fir_filter_free(handle)
    return size, span


def fft_pair_rate(args, size, batch):
    """Transforms per second of size-point cuFFT transforms in batches (forward ones: an
    inverse transform costs the same)."""
    r = args.raw
    buffer = r.memory(0, size * batch * 8)
    calls = max(8, args.volume // (size * batch * 8))
    return calls * batch / r.timed(calls, lambda: r.fft(size, batch, buffer, buffer))


DECIMATIONS = (1, 2, 4, 8, 16, 32, 64)
METHOD_TAPS = (8, 16, 32, 48, 64, 96, 128, 192, 256, 384, 512, 768, 1024, 2048, 4096)


def methods(args, results):
    outputs = 1 << (18 if args.quick else 22)
    print(
        f"### Direct form vs overlap-save, libgrcuda's filter alone (2^{outputs.bit_length() - 1} outputs per call)\n"
    )
    print("| type | decimation | taps | direct Gsamples/s | overlap-save Gsamples/s | faster | automatic choice |")
    print("|---|---:|---:|---:|---:|---|---|")
    for suffix in ("ccc", "ccf", "fff"):
        for decimation in (1, 3) if args.quick else args.decimations:
            for taps in (8,) if args.quick else METHOD_TAPS:
                # The direct form's cost per output grows with the taps, overlap-save's with the
                # decimation: far beyond where they cross, the direct form only confirms that it
                # loses.
                direct = None
                if taps <= 256 * decimation:
                    direct = engine_rate(args, suffix, taps, decimation, DIRECT, outputs) / 1e9
                fft = engine_rate(args, suffix, taps, decimation, FFT, outputs) / 1e9
                automatic = automatic_method(args, suffix, taps, decimation)
                results["methods"].append(
                    {
                        "type": suffix,
                        "decimation": decimation,
                        "taps": taps,
                        "direct": direct,
                        "fft": fft,
                        "automatic": automatic,
                    }
                )
                faster = "direct" if direct is not None and direct >= fft else "overlap-save"
                direct_text = "-" if direct is None else f"{direct:.1f}"
                print(f"| {suffix} | {decimation} | {taps} | {direct_text} | {fft:.1f} | {faster} | {automatic} |")
    print()


def gpu_rate(make_block, itemsize_in, items, args):
    tb = gr.top_block()
    source, block, sink = cuda.null_source(itemsize_in, 1, False), make_block(), cuda.null_sink(itemsize_in)
    configure([source, block], items, args.buffer_calls)
    tb.connect(source, block, sink)
    return steady_rate_and_cores(tb, sink, args.seconds)


def cpu_rate(make_block, itemsize, args):
    tb = gr.top_block()
    source, block, sink = blocks.null_source(itemsize), make_block(), blocks.null_sink(itemsize)
    tb.connect(source, block, sink)
    return steady_rate(tb, sink, args.seconds)


# block name (in both modules), taps
BLOCKS = [
    ("fir_filter_ccf", 31),
    ("fir_filter_ccc", 31),
    ("fir_filter_fff", 63),
    ("fir_filter_ccf", 513),
    ("fft_filter_ccc", 1024),
    ("fft_filter_ccf", 1024),
    ("fft_filter_fff", 1024),
    ("freq_xlating_fir_filter_ccf", 63),
]


def engine_types(name):
    """The types of the libgrcuda filter a block runs: freq_xlating filters complex taps."""
    return "ccc" if name.startswith("freq_xlating") else name.rsplit("_", 1)[1]


def make(module, name, taps, nthreads=None):
    suffix = name.rsplit("_", 1)[1]
    values = list(random_taps(suffix, taps))
    block = getattr(module, name)
    if name.startswith("fft_filter"):
        return lambda: block(1, values, nthreads or 1)
    if name.startswith("freq_xlating"):
        return lambda: block(1, values, 1.25e6, 1e7)
    return lambda: block(1, values)


def filters(args, results):
    print("### GPU filters vs GNU Radio's CPU blocks and the same-run roofline (decimation 1)\n")
    print(
        "Roofline: input + output bytes at the device-to-device copy rate; for overlap-save the "
        "lower of that and the cuFFT rate of its transforms (a forward and an inverse one of its "
        "FFT size per span of outputs).\n"
    )
    print(
        "| block | taps | FFT size | items per call | GPU Gsamples/s | cores | roofline Gsamples/s "
        "| of roofline | CPU Msamples/s (1 thread) | vs CPU | CPU Msamples/s (16 threads) |"
    )
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    for name, taps in BLOCKS[:1] if args.quick else BLOCKS:
        suffix = name.rsplit("_", 1)[1]
        in_bytes, out_bytes = SAMPLE_BYTES[suffix]
        cpu = cpu_rate(make(filter, name, taps), in_bytes, args)
        cpu16 = cpu_rate(make(filter, name, taps, 16), in_bytes, args) if name.startswith("fft_filter") else None
        for shift in (18,) if args.quick else (20, 22):
            items = 1 << shift
            gpu, cores = gpu_rate(make(cuda, name, taps), in_bytes, items, args)
            roofline = copy_rate(args, items * in_bytes) / (in_bytes + out_bytes)
            size = None
            if name.startswith("fft_filter") or automatic_method(args, engine_types(name), taps, 1) == "overlap-save":
                size, span = overlap_save_transforms(args, engine_types(name), taps)
                pairs = max(1, items // span)
                roofline = min(roofline, fft_pair_rate(args, size, pairs) / 2 * span)
            row = {
                "block": name,
                "taps": taps,
                "fft_size": size,
                "items": items,
                "gpu": gpu,
                "cores": cores,
                "roofline": roofline,
                "cpu": cpu,
                "cpu16": cpu16,
            }
            results["filters"].append(row)
            cpu16_text = f"{cpu16 / 1e6:.0f}" if cpu16 else "-"
            print(
                f"| {name} | {taps} | {size or '-'} | 2^{shift} | {gpu / 1e9:.2f} | {cores:.1f} | {roofline / 1e9:.1f} | "
                f"{100 * gpu / roofline:.0f}% | {cpu / 1e6:.1f} | {gpu / cpu:.0f}x | {cpu16_text} |"
            )
    print()


def draw(results, folder):
    os.makedirs(folder, exist_ok=True)
    for suffix in ("ccc", "ccf", "fff"):
        series = {}
        for decimation in (1, 4, 16):
            rows = [
                row for row in results["methods"] if (row["type"], row.get("decimation", 1)) == (suffix, decimation)
            ]
            series[f"direct form, decimation {decimation}"] = [
                (row["taps"], row["direct"]) for row in rows if row["direct"] is not None
            ]
            series[f"overlap-save, decimation {decimation}"] = [(row["taps"], row["fft"]) for row in rows]
        plot(
            os.path.join(folder, f"filters-methods-{suffix}.png"),
            f"FIR {suffix}: direct form vs overlap-save (H200, 2^22 outputs per call)",
            "taps",
            "output Gsamples/s",
            series,
            log_y=True,
        )


def add_arguments(parser):
    add_volume_argument(parser)
    parser.add_argument(
        "--decimations",
        type=int,
        nargs="+",
        default=DECIMATIONS,
        help="the methods table's decimations (default: %(default)s)",
    )


if __name__ == "__main__":
    benchmark_support.main(
        __doc__,
        "GPU FIR filters",
        {"methods": methods, "filters": filters},
        draw,
        add_arguments,
        prepare_baselines,
    )
