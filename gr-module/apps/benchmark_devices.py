#!/usr/bin/env python3
#
# SPDX-License-Identifier: GPL-3.0-or-later
#
"""Benchmarks of flowgraphs spread over two devices, against baselines measured in the same
run. Needs a backend with two devices (two GPUs, or the simulated backend's two for a smoke
run); with one, it says so and measures nothing.

1. An edge between GPUs: cuda.null_source (device 0) -> cuda.copy (device 1, reading device
   0's buffer in place through peer access, and again through its mirror filled over host
   memory, as on GPUs without peer access) -> cuda.null_sink (device 1), against raw
   device-0-to-device-1 copies (cuMemcpyAsync through libgrcuda's C API, the driver's peer
   copy) of the same bytes per call; 4 MiB per call is the target size.
2. A chain of four cuda.fft(65536) blocks between cuda.null_source and cuda.null_sink: all on
   device 0, against two on each device (the sink on device 1), at 2^22 samples per call.

Items per call are set with set_max_noutput_items on the measured blocks, buffers hold
--buffer-calls calls; rates are steady-state rates with the CPU cores busy
(benchmark_support.py). Prints Markdown tables, writes JSON (--json) and PNG plots (--plots).
"""

import os

import benchmark_support
from benchmark_support import configure, plot, steady_rate_and_cores
from gnuradio import gr

from gnuradio import cuda


def peer_copy_rate(args, nbytes):
    """Bytes per second of device-0-to-device-1 copies of \\p nbytes each, on device 1."""
    first, second = args.raw
    source, destination = first.memory(0, nbytes), second.memory(0, nbytes)
    calls = max(8, args.volume // nbytes)
    return calls * nbytes / second.timed(calls, lambda: second.copy(destination, source, nbytes))


ITEM_BYTES = 4096


def edge_rate(args, items, peer_access):
    """(bytes/s, cores busy) of null_source(0) -> copy(1) -> null_sink(1) at \\p items per
    call, with GRCUDA_PEER_ACCESS = \\p peer_access while it runs (blocks attach in their own
    threads after start(), and read it then): "all" reads device 0's ring in place, "none"
    through the copy block's mirror, filled over host memory."""
    saved = os.environ.get("GRCUDA_PEER_ACCESS")
    os.environ["GRCUDA_PEER_ACCESS"] = peer_access
    try:
        tb = gr.top_block()
        source = cuda.null_source(ITEM_BYTES, 1, False, device=0)
        copy = cuda.copy(ITEM_BYTES, device=1)
        sink = cuda.null_sink(ITEM_BYTES, device=1)
        configure([source, copy], items, args.buffer_calls)
        tb.connect(source, copy, sink)
        rate, cores = steady_rate_and_cores(tb, sink, args.seconds)
    finally:
        if saved is None:
            os.environ.pop("GRCUDA_PEER_ACCESS")
        else:
            os.environ["GRCUDA_PEER_ACCESS"] = saved
    return rate * ITEM_BYTES, cores


def edges(args, results):
    print("### An edge between GPUs against raw peer copies\n")
    print(
        "null_source(0) -> copy(1) -> null_sink(1): the copy on device 1 reads device 0's buffer in place "
        "(peer access), or its mirror filled through host memory (GRCUDA_PEER_ACCESS=none).\n"
    )
    print(
        "| bytes per call | raw peer copy GB/s | in place GB/s | ratio | cores busy | through host GB/s | ratio "
        "| cores busy |"
    )
    print("|---:|---:|---:|---:|---:|---:|---:|---:|")
    for nbytes in (4 << 20,) if args.quick else (1 << 20, 4 << 20, 16 << 20, 64 << 20):
        baseline = peer_copy_rate(args, nbytes)
        items = nbytes // ITEM_BYTES
        in_place, cores = edge_rate(args, items, "all")
        mirrored, mirrored_cores = edge_rate(args, items, "none")
        results["edge"].append(
            {
                "bytes": nbytes,
                "raw": baseline,
                "module": in_place,
                "cores": cores,
                "mirrored": mirrored,
                "mirrored_cores": mirrored_cores,
            }
        )
        print(
            f"| {nbytes >> 20} MiB | {baseline / 1e9:.1f} | {in_place / 1e9:.1f} | {100 * in_place / baseline:.0f}% | "
            f"{cores:.2f} | {mirrored / 1e9:.1f} | {100 * mirrored / baseline:.0f}% | {mirrored_cores:.2f} |"
        )
    print()


def fft_chain(size, per_call, devices):
    """null_source -> 4 x fft(size) -> null_sink, block i on devices[i] (the source on the
    first fft's device, the sink on the last's), every block at \\p per_call samples."""
    tb = gr.top_block()
    chain = [cuda.null_source(8 * size, 1, False, device=devices[0])]
    chain += [cuda.fft(size, True, [], False, device=device) for device in devices]
    sink = cuda.null_sink(8 * size, device=devices[-1])
    tb.connect(*chain, sink)
    return tb, chain, sink


def ffts(args, results):
    size = 1024 if args.quick else 65536
    per_call = 1 << 16 if args.quick else 1 << 22
    print(f"### Four cuda.fft({size}) in a row: one GPU against two\n")
    print("| devices of the four ffts | Gsamples/s | cores busy | against one GPU |")
    print("|---|---:|---:|---:|")
    one_gpu = None
    for devices in ((0, 0, 0, 0), (0, 0, 1, 1)):
        tb, chain, sink = fft_chain(size, per_call, devices)
        configure(chain, per_call // size, args.buffer_calls)
        rate, cores = steady_rate_and_cores(tb, sink, args.seconds)
        samples = rate * size / 1e9
        one_gpu = one_gpu or samples
        results["fft_chain"].append({"devices": list(devices), "size": size, "rate": samples, "cores": cores})
        print(f"| {', '.join(map(str, devices))} | {samples:.2f} | {cores:.2f} | {samples / one_gpu:.2f}x |")
    print()


def draw(results, folder):
    os.makedirs(folder, exist_ok=True)
    edge = results.get("edge", [])
    plot(
        os.path.join(folder, "devices-edge.png"),
        "An edge between GPUs vs raw peer copies",
        "bytes per call",
        "GB/s",
        {
            "raw peer copy": [(e["bytes"], e["raw"] / 1e9) for e in edge],
            "copy(1) reading device 0's buffer": [(e["bytes"], e["module"] / 1e9) for e in edge],
            "copy(1) reading its mirror (through host memory)": [(e["bytes"], e["mirrored"] / 1e9) for e in edge],
        },
    )


def prepare(args):
    if cuda.device_count() < 2:
        print(f"benchmark_devices needs two devices; this backend has {cuda.device_count()}: nothing measured")
        raise SystemExit(0)
    benchmark_support.prepare_baselines(args)  # device 0's, and the --quick volume
    args.raw = (args.raw, benchmark_support.raw(1))


if __name__ == "__main__":
    benchmark_support.main(
        __doc__,
        "gr-cuda across devices",
        {"edge": edges, "fft_chain": ffts},
        draw,
        benchmark_support.add_volume_argument,
        prepare,
    )
