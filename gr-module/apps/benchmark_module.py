#!/usr/bin/env python3
#
# SPDX-License-Identifier: GPL-3.0-or-later
#
"""Benchmarks of the GNU Radio module against baselines measured in the same run.

1. CPU -> GPU and GPU -> CPU through the module against raw pinned copies through
   libgrcuda's C API. The CPU side does not touch the data (a source that only produces,
   GNU Radio's null_sink), so the figure is the transfer's.
2. A GPU-resident chain, cuda.null_source -> cuda.head -> cuda.multiply_const_cc ->
   cuda.null_sink, against the same GPU work on raw device memory: head's copy plus the
   multiply kernel. The chain without head is compared with the multiply kernel alone.
3. cuda.fft (null_source -> fft -> null_sink) against the same cuFFT transforms called
   directly, and GNU Radio's fft.fft_vcc (FFTW) with 1 and 16 threads.
4. What a GRC user gets: GPU chains with GNU Radio's defaults (nothing tuned) against the
   same chains tuned to 2^22 samples per call, with the CPU cores each keeps busy.
5. Source-paced: only the source's call size set (2^18, 2^20, 2^22 samples), against the
   same kernels or cuFFT transforms called directly at that size.
6. The host wait (spin, adaptive, block) in a GPU-bound chain: throughput and cores busy.
7. Latency of a CPU -> GPU -> CPU chain at a fixed rate (100 Msamples/s through a
   throttle), p50 and p99, with today's defaults and with the settings gr-cuda had before
   passive batching (GNU Radio's buffer sizes, spin waits), and each of those two apart.
8. Diagnostics, never in the figures: where the CPU goes per thread, and the CPU time per
   work() call of each block (GNU Radio's performance counters, thread clock).

Items per call are set with set_max_noutput_items on the measured blocks, buffers hold
--buffer-calls calls; flowgraph rates are steady-state rates (benchmark_support.py).
Prints Markdown tables, writes the figures as JSON (--json) and PNG plots (--plots, where
matplotlib is installed; --plot-only redraws them from a JSON file).
"""

import ctypes
import os
import time

import numpy as np
from gnuradio import blocks, fft as gr_fft, gr

import benchmark_support
from benchmark_support import (
    add_volume_argument,
    configure,
    counters_enabled,
    plot,
    prepare_baselines,
    steady_rate,
    steady_rate_and_cores,
    untouched_source,
    work_times,
)

from gnuradio import cuda


def transfers(args, results):
    r = args.raw
    print("### CPU <-> GPU through the module vs raw pinned copies\n")
    print("| bytes per call | H2D raw GB/s | H2D module GB/s | ratio | D2H raw GB/s | D2H module GB/s | ratio |")
    print("|---:|---:|---:|---:|---:|---:|---:|")
    for chunk in (1 << 20,) if args.quick else (1 << 20, 4 << 20, 16 << 20):
        items = chunk // 8
        calls = max(8, args.volume // chunk)
        host, device = r.memory(1, chunk), r.memory(0, chunk)
        h2d_raw = calls * chunk / r.timed(calls, lambda: r.copy(device, host, chunk)) / 1e9
        d2h_raw = calls * chunk / r.timed(calls, lambda: r.copy(host, device, chunk)) / 1e9

        tb = gr.top_block()
        source, sink = untouched_source(8), cuda.null_sink(8)
        configure([source], items, args.buffer_calls)
        tb.connect(source, sink)
        h2d = 8 * steady_rate(tb, sink, args.seconds) / 1e9

        tb = gr.top_block()
        source, sink = cuda.null_source(8, 1, False), blocks.null_sink(8)
        configure([source], items, args.buffer_calls)
        tb.connect(source, sink)
        d2h = 8 * steady_rate(tb, sink, args.seconds) / 1e9

        results["transfer"].append({"bytes": chunk, "h2d_raw": h2d_raw, "h2d": h2d, "d2h_raw": d2h_raw, "d2h": d2h})
        print(
            f"| {chunk >> 20} MiB | {h2d_raw:.1f} | {h2d:.1f} | {100 * h2d / h2d_raw:.0f}% | "
            f"{d2h_raw:.1f} | {d2h:.1f} | {100 * d2h / d2h_raw:.0f}% |"
        )
    print()


def chain(args, results):
    r = args.raw
    print("### null_source -> head -> multiply_const_cc -> null_sink vs the same kernels on raw memory\n")
    print(
        f"Buffers of {args.buffer_calls} calls. 'bare copy+multiply' is head's copy and the multiply "
        "kernel back to back on one stream; 'bare multiply' the kernel alone.\n"
    )
    print(
        "| items per call | bare copy+multiply Gitems/s | chain Gitems/s | ratio | bare multiply Gitems/s "
        "| chain without head Gitems/s | ratio | us per call, null_source -> null_sink |"
    )
    print("|---:|---:|---:|---:|---:|---:|---:|---:|")
    diagnostics = []
    for shift in (18,) if args.quick else (18, 20, 22, 24):
        items = 1 << shift
        calls = max(16, args.volume // (8 * items))
        ring = 4
        first, second, third = (r.memory(0, ring * items * 8) for _ in range(3))
        counter = [0]

        def at(memory):
            return ctypes.c_void_p(memory.value + (counter[0] % ring) * items * 8)

        def multiply():
            r.multiply_cc(at(first), at(second), items)
            counter[0] += 1

        def copy_and_multiply():
            r.copy_kernel(at(second), at(first), items * 8)
            r.multiply_cc(at(second), at(third), items)
            counter[0] += 1

        bare = calls * items / r.timed(calls, multiply) / 1e9
        bare_both = calls * items / r.timed(calls, copy_and_multiply) / 1e9

        tb = gr.top_block()
        source, head, multiply_block, sink = (
            cuda.null_source(8, 1, False),
            cuda.head(8, 1 << 62),
            cuda.multiply_const_cc(1 + 0.5j),
            cuda.null_sink(8),
        )
        configure([source, head, multiply_block], items, args.buffer_calls)
        tb.connect(source, head, multiply_block, sink)
        with_head = steady_rate(tb, sink, args.seconds) / 1e9
        if counters_enabled():
            diagnostics.append((shift, work_times([source, head, multiply_block, sink])))

        tb = gr.top_block()
        source, multiply_block, sink = (
            cuda.null_source(8, 1, False),
            cuda.multiply_const_cc(1 + 0.5j),
            cuda.null_sink(8),
        )
        configure([source, multiply_block], items, args.buffer_calls)
        tb.connect(source, multiply_block, sink)
        without_head = steady_rate(tb, sink, args.seconds) / 1e9

        # GNU Radio and the buffers alone: GPU blocks that launch nothing.
        tb = gr.top_block()
        source, sink = cuda.null_source(8, 1, False), cuda.null_sink(8)
        configure([source], items, args.buffer_calls)
        tb.connect(source, sink)
        overhead = 1e6 * items / steady_rate(tb, sink, args.seconds)

        results["chain"].append(
            {
                "items": items,
                "bare_copy_multiply": bare_both,
                "chain": with_head,
                "bare_multiply": bare,
                "chain_without_head": without_head,
                "empty_call_us": overhead,
            }
        )
        print(
            f"| 2^{shift} | {bare_both:.1f} | {with_head:.1f} | {100 * with_head / bare_both:.0f}% | {bare:.1f} | "
            f"{without_head:.1f} | {100 * without_head / bare:.0f}% | {overhead:.1f} |"
        )
    print()
    print_work_times([(f"chain at 2^{shift} items per call", figures) for shift, figures in diagnostics])


def print_work_times(diagnostics):
    """GNU Radio's performance counters, one line per (flowgraph, work_times()) entry."""
    for flowgraph, figures in diagnostics:
        if figures:
            print(
                f"GNU Radio performance counters, {flowgraph}: "
                + ", ".join(f"{name} {micros:.1f} us/work() for {int(items)} items" for name, micros, items in figures)
            )
    if any(figures for _, figures in diagnostics):
        print()


def ffts(args, results):
    r = args.raw
    print("### cuda.fft vs cuFFT called directly, and vs fft.fft_vcc (FFTW)\n")
    print(
        "| FFT size | samples per call | cuFFT Msamples/s | cuda.fft Msamples/s | ratio | FFTW 1 thread | FFTW 16 threads |"
    )
    print("|---:|---:|---:|---:|---:|---:|---:|")
    for size in (1024,) if args.quick else (1024, 4096, 16384, 65536):
        for per_call in (1 << 16,) if args.quick else (1 << 16, 1 << 18, 1 << 20, 1 << 22):
            if per_call < size:
                continue
            batch = per_call // size
            calls = max(16, args.volume // (8 * per_call))
            source, dest = r.memory(0, per_call * 8), r.memory(0, per_call * 8)
            direct = calls * per_call / r.timed(calls, lambda: r.fft(size, batch, source, dest)) / 1e6

            tb = gr.top_block()
            src, block, sink = (
                cuda.null_source(8 * size, 1, False),
                cuda.fft(size, True, [], False),
                cuda.null_sink(8 * size),
            )
            configure([src, block], batch, args.buffer_calls)
            tb.connect(src, block, sink)
            module = size * steady_rate(tb, sink, args.seconds) / 1e6

            fftw = []
            for threads in (1, 16):
                tb = gr.top_block()
                cpu_sink = blocks.null_sink(8 * size)
                tb.connect(blocks.null_source(8 * size), gr_fft.fft_vcc(size, True, [], False, threads), cpu_sink)
                fftw.append(size * steady_rate(tb, cpu_sink, args.seconds) / 1e6)
            results["fft"].append(
                {
                    "size": size,
                    "per_call": per_call,
                    "cufft": direct,
                    "module": module,
                    "fftw1": fftw[0],
                    "fftw16": fftw[1],
                }
            )
            print(
                f"| {size} | 2^{per_call.bit_length() - 1} | {direct:.0f} | {module:.0f} | {100 * module / direct:.0f}% | "
                f"{fftw[0]:.0f} | {fftw[1]:.0f} |"
            )
    print()


def gpu_chains(size, ffts=4):
    """The flowgraphs of the defaults table, as a GRC user draws them: (name, samples per
    item, builder returning (top_block, blocks to tune, last block)); \\p size None is the
    multiply chain, else \\p ffts cuda.fft blocks of that size in a row."""

    def multiply():
        tb = gr.top_block()
        source, block, sink = cuda.null_source(8, 1, False), cuda.multiply_const_cc(1 + 0.5j), cuda.null_sink(8)
        tb.connect(source, block, sink)
        return tb, [source, block], sink

    def fft_chain():
        tb = gr.top_block()
        chain = [cuda.null_source(8 * size, 1, False)] + [cuda.fft(size, True, [], False) for _ in range(ffts)]
        sink = cuda.null_sink(8 * size)
        tb.connect(*chain, sink)
        return tb, chain, sink

    if size is None:
        return "null_source -> multiply_const_cc -> null_sink", 1, multiply
    middle = f"{ffts} x fft({size})" if ffts > 1 else f"fft({size})"
    return f"null_source -> {middle} -> null_sink", size, fft_chain


def measure_chain(args, build, samples_per_item, tuned_items=None, environment=None, threads=None, counters=None):
    """(Gsamples/s, CPU cores busy) of one flowgraph; \\p tuned_items: items per call set
    on every block (None: GNU Radio's defaults); \\p environment: variables set while the
    flowgraph is made (cuda_buffer reads its settings then); \\p threads: a dict for
    steady_rate_and_cores' use per thread; \\p counters: a list that receives work_times()
    of every block where GNU Radio's performance counters are on."""
    saved = {name: os.environ.get(name) for name in (environment or {})}
    os.environ.update(environment or {})
    try:
        tb, tuned, last = build()
        if tuned_items:
            configure(tuned, tuned_items, args.buffer_calls)
        rate, cores = steady_rate_and_cores(tb, last, args.seconds, threads=threads)
        if counters is not None and counters_enabled():
            counters.append(work_times(tuned + [last]))
    finally:
        for name, value in saved.items():
            if value is None:
                os.environ.pop(name, None)
            else:
                os.environ[name] = value
    return samples_per_item * rate / 1e9, cores


def percent(part, whole):
    """\\p part as a percentage of \\p whole, or n/a when nothing was measured (a figure
    of the --quick smoke run on the simulated backend can be 0)."""
    return f"{100 * part / whole:.0f}%" if whole else "n/a"


def defaults(args, results):
    print("### What a GRC user gets: GNU Radio's defaults vs calls tuned to 2^22 samples\n")
    print(
        "'defaults': no set_max_noutput_items or set_min_output_buffer anywhere, as GRC generates "
        "the flowgraph; 'GNU Radio's sizes': the same with [cuda] ring_floor_bytes = 0 (rings as "
        "GNU Radio asks, 32 KiB). Cores: process CPU time / wall time.\n"
    )
    print(
        "| flowgraph | tuned Gsamples/s | cores | defaults Gsamples/s | cores | % of tuned "
        "| GNU Radio's sizes Gsamples/s | cores | % of tuned |"
    )
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|")
    diagnostics = []
    for size in (None,) if args.quick else (None, 1024, 65536):
        name, per_item, build = gpu_chains(size)
        counters = []
        tuned = measure_chain(args, build, per_item, tuned_items=(1 << 22) // per_item, counters=counters)
        default = measure_chain(args, build, per_item, counters=counters)
        diagnostics += [(f"{name}, {case}", figures) for case, figures in zip(("tuned", "defaults"), counters)]
        small = measure_chain(args, build, per_item, environment={"GR_CONF_CUDA_RING_FLOOR_BYTES": "0"})
        results["defaults"].append({"flowgraph": name, "tuned": tuned, "defaults": default, "gnu_radio_sizes": small})
        print(
            f"| {name} | {tuned[0]:.2f} | {tuned[1]:.1f} | {default[0]:.2f} | {default[1]:.1f} | "
            f"{percent(default[0], tuned[0])} | {small[0]:.2f} | {small[1]:.1f} | {percent(small[0], tuned[0])} |"
        )
    print()
    print_work_times(diagnostics)


def ring_sizes(args, results):
    print("### Ring sizes for the defaults: floor and calls per ring\n")
    print(
        "The defaults case (nothing tuned) with other [cuda] ring_floor_bytes and ring_calls (how many "
        "calls of a GPU block the user did not cap its ring holds), as % of the same flowgraph tuned to "
        "2^22 samples per call in the same run. Cores: process CPU time / wall time.\n"
    )
    combinations = [(64, 2), (64, 4), (128, 2), (128, 4), (256, 8)] if not args.quick else [(1, 2), (1, 4)]
    print(
        "| flowgraph | tuned Gsamples/s | "
        + " | ".join(f"{floor} MiB, {calls} calls: Gsamples/s, cores, % of tuned" for floor, calls in combinations)
        + " |"
    )
    print("|---|---:|" + "---|" * len(combinations))
    for size in (None,) if args.quick else (None, 1024, 65536):
        name, per_item, build = gpu_chains(size)
        tuned = measure_chain(args, build, per_item, tuned_items=(1 << 22) // per_item)
        cells = []
        for floor, calls in combinations:
            rate, cores = measure_chain(
                args,
                build,
                per_item,
                environment={"GR_CONF_CUDA_RING_FLOOR_BYTES": str(floor << 20), "GR_CONF_CUDA_RING_CALLS": str(calls)},
            )
            results["ring_sizes"].append(
                {"flowgraph": name, "floor_mib": floor, "calls": calls, "rate": rate, "cores": cores, "tuned": tuned[0]}
            )
            cells.append(f"{rate:.2f}, {cores:.1f}, {percent(rate, tuned[0])}")
        print(f"| {name} | {tuned[0]:.2f} | " + " | ".join(cells) + " |")
    print()


def host_wait(args, results):
    print("### How GNU Radio's threads wait for the GPU, in a GPU-bound chain\n")
    size = 1024 if args.quick else 65536
    name, per_item, build = gpu_chains(size)
    print(f"{name}, calls of 2^22 samples. Cores: process CPU time / wall time.\n")
    print("| host wait | Gsamples/s | cores | % of spin |")
    print("|---|---:|---:|---:|")
    spin = None
    for mode in ("spin", "adaptive", "block"):
        rate, cores = measure_chain(
            args, build, per_item, tuned_items=(1 << 22) // per_item, environment={"GRCUDA_HOST_WAIT": mode}
        )
        spin = spin if spin is not None else rate
        results["host_wait"].append({"mode": mode, "rate": rate, "cores": cores})
        print(f"| {mode} | {rate:.2f} | {cores:.2f} | {percent(rate, spin)} |")
    print()


def source_paced_chain(build, source_items, made=None):
    """\\p build with only its source's call size set: \\p source_items items per call;
    \\p made, a list, receives every block of the chain."""

    def paced():
        tb, tuned, last = build()
        tuned[0].set_max_noutput_items(source_items)
        if made is not None:
            made.extend(tuned + [last])
        return tb, [], last

    return paced


def source_paced(args, results):
    r = args.raw
    print("### Source-paced: only the source's call size is set, every other block at its defaults\n")
    print("Baselines: the same kernels or cuFFT transforms called directly at the source's call size.\n")
    print(
        "| flowgraph | samples per source call | baseline Gsamples/s | flowgraph Gsamples/s | cores | % of baseline |"
    )
    print("|---|---:|---:|---:|---:|---:|")
    for size in (None,) if args.quick else (None, 1024, 4096, 16384, 65536):
        name, per_item, build = gpu_chains(size, ffts=1)
        for shift in (18,) if args.quick else (18, 20, 22):
            per_call = 1 << shift
            calls = max(16, args.volume // (8 * per_call))
            source, dest = r.memory(0, per_call * 8), r.memory(0, per_call * 8)
            if size is None:
                launch = lambda: r.multiply_cc(source, dest, per_call)  # noqa: E731
            else:
                launch = lambda: r.fft(size, per_call // size, source, dest)  # noqa: E731
            baseline = calls * per_call / r.timed(calls, launch) / 1e9

            rate, cores = measure_chain(args, source_paced_chain(build, per_call // per_item), per_item)
            results["source_paced"].append(
                {"flowgraph": name, "per_call": per_call, "baseline": baseline, "rate": rate, "cores": cores}
            )
            print(f"| {name} | 2^{shift} | {baseline:.2f} | {rate:.2f} | {cores:.1f} | {percent(rate, baseline)} |")
    print()


def threads(args, results):
    print("### Where the CPU goes: cores and sleeps per thread (diagnostic)\n")
    print(
        "Each thread of the process (GNU Radio names a block's thread after the block): its CPU time over "
        "the wall time, and its voluntary context switches (sleeps: a host wait that blocks in the driver, "
        "a condition variable of GNU Radio's scheduler) per second and per call of the source.\n"
    )
    print(
        "| flowgraph | samples per source call | host wait | Gsamples/s | thread | cores | sleeps/s | sleeps per source call |"
    )
    print("|---|---:|---|---:|---|---:|---:|---:|")
    fft_size = 1024 if args.quick else 65536
    cases = [(fft_size, 4, 22, True, mode) for mode in ("spin", "adaptive", "block")]
    if not args.quick:
        cases += [(None, 1, 20, False, "adaptive"), (1024, 1, 20, False, "adaptive")]
    for size, ffts, shift, tuned, mode in cases:
        name, per_item, build = gpu_chains(size, ffts=ffts)
        per_call = (1 << shift) // per_item
        usage = {}
        rate, _ = measure_chain(
            args,
            build if tuned else source_paced_chain(build, per_call),
            per_item,
            tuned_items=per_call if tuned else None,
            environment={"GRCUDA_HOST_WAIT": mode},
            threads=usage,
        )
        source_calls = rate * 1e9 / (1 << shift)
        label = f"{name}{'' if tuned else ', source-paced'}"
        for thread, (cores, sleeps) in sorted(usage.items(), key=lambda entry: -entry[1][0]):
            if cores < 0.01 and sleeps < 10:
                continue
            results["threads"].append(
                {
                    "flowgraph": label,
                    "per_call": 1 << shift,
                    "host_wait": mode,
                    "rate": rate,
                    "thread": thread,
                    "cores": cores,
                    "sleeps": sleeps,
                }
            )
            per_source_call = sleeps / source_calls if source_calls else 0
            print(
                f"| {label} | 2^{shift} | {mode} | {rate:.2f} | {thread} | {cores:.2f} | {sleeps:.0f} "
                f"| {per_source_call:.2f} |"
            )
    print()


def call_cpu(args, results):
    print("### CPU time per work() call (diagnostic)\n")
    clock = os.environ.get("GR_CONF_PERFCOUNTERS_CLOCK", "monotonic")
    if not counters_enabled():
        print(
            "Needs GNU Radio's performance counters for the calls per block: GR_CONF_PERFCOUNTERS_ON=True, "
            "with GR_CONF_PERFCOUNTERS_CLOCK=thread for CPU time in work() (scripts/gpu-module-run diagnostics).\n"
        )
        return
    print(
        "Source-paced chains (only the source's call size set). 'work()': GNU Radio's counter, mean time "
        f"in work() per call on the {clock} clock (the thread clock counts CPU time only, so a host wait "
        "that sleeps costs nothing there and one that spins costs what it spins). 'thread': the CPU time "
        "of the block's thread (schedstat) over its calls, so GNU Radio's scheduler around work() (buffer "
        "bookkeeping, post_work, waking the neighbours) is in it too.\n"
    )
    print(
        "| flowgraph | samples per source call | host wait | block | items per call | work() us | thread us per call |"
    )
    print("|---|---:|---|---|---:|---:|---:|")
    shift = 16 if args.quick else 20
    for size in (None,) if args.quick else (None, 1024, 65536):
        name, per_item, build = gpu_chains(size, ffts=1)
        for mode in ("block", "adaptive"):
            made, usage = [], {}
            paced = source_paced_chain(build, (1 << shift) // per_item, made)
            rate, _ = measure_chain(args, paced, per_item, environment={"GRCUDA_HOST_WAIT": mode}, threads=usage)
            items_per_second = rate * 1e9 / per_item
            for block in made:
                # GNU Radio names a block's thread <name><unique id>, cut to Linux's 15 characters.
                thread = f"{block.name()}{block.unique_id()}"[:15]
                items_per_call = block.pc_noutput_items_avg()
                calls_per_second = items_per_second / items_per_call if items_per_call else 0
                cores = usage.get(thread, (0.0, 0.0))[0]
                thread_us = 1e6 * cores / calls_per_second if calls_per_second else 0
                work_us = block.pc_work_time_avg() / 1e3
                results["call_cpu"].append(
                    {
                        "flowgraph": name,
                        "per_call": 1 << shift,
                        "host_wait": mode,
                        "clock": clock,
                        "block": block.name(),
                        "items_per_call": items_per_call,
                        "work_us": work_us,
                        "thread_us": thread_us,
                    }
                )
                print(
                    f"| {name} | 2^{shift} | {mode} | {block.name()} | {items_per_call:.0f} | {work_us:.1f} "
                    f"| {thread_us:.1f} |"
                )
    print()


class stamper(gr.sync_block):
    """A CPU pass-through that notes when each of its calls ends: (items so far, seconds)."""

    def __init__(self, name, itemsize, has_output=True):
        gr.sync_block.__init__(
            self, name, [np.dtype((np.uint8, itemsize))], [np.dtype((np.uint8, itemsize))] if has_output else None
        )
        self.marks = []

    def work(self, input_items, output_items):
        n = len(input_items[0])
        if output_items:
            output_items[0][:] = input_items[0]
        self.marks.append((self.nitems_read(0) + n, time.perf_counter()))
        return n


def latency(args, results):
    rate = 1e6 if args.quick else args.latency_rate
    print(f"### Latency at {rate / 1e6:.0f} Msamples/s: CPU -> GPU chain -> CPU\n")
    print(
        "null_source -> throttle -> stamp (CPU) -> cuda.copy -> cuda.multiply_const_cc -> cuda.copy -> "
        "stamp (CPU sink); a sample's latency runs from the end of the call that stamped it in to the end "
        "of the call that took it out. 'Before': GNU Radio's buffer sizes and spin waits, as gr-cuda ran "
        "before passive batching; the rows between change one of the two, or the calls per ring.\n"
    )
    print("| settings | p50 us | p99 us | cores |")
    print("|---|---:|---:|---:|")
    for label, environment in (
        ("before: ring_floor_bytes = 0, spin", {"GR_CONF_CUDA_RING_FLOOR_BYTES": "0", "GRCUDA_HOST_WAIT": "spin"}),
        ("ring_floor_bytes = 0 (adaptive wait)", {"GR_CONF_CUDA_RING_FLOOR_BYTES": "0"}),
        ("spin (default rings)", {"GRCUDA_HOST_WAIT": "spin"}),
        ("ring_calls = 4", {"GR_CONF_CUDA_RING_CALLS": "4"}),
        ("defaults", {}),
    ):
        blocks_made = {}

        def build():
            tb = gr.top_block()
            entry, exit_ = stamper("stamp_in", 8), stamper("stamp_out", 8, has_output=False)
            chain = [
                blocks.null_source(8),
                blocks.throttle(8, rate),
                entry,
                cuda.copy(8),
                cuda.multiply_const_cc(1 + 0.5j),
                cuda.copy(8),
                exit_,
            ]
            tb.connect(*chain)
            blocks_made.update(entry=entry, exit=exit_)
            return tb, [], exit_

        _, cores = measure_chain(args, build, 1, environment=environment)
        entered = np.array(blocks_made["entry"].marks)
        left = np.array(blocks_made["exit"].marks)
        # Samples of the steady part: after the first quarter, before the last stamp out.
        first, last = entered[len(entered) // 4, 0], min(entered[-1, 0], left[-1, 0]) - 1
        samples = np.linspace(first, last, 20_000)
        stamped_in = entered[np.searchsorted(entered[:, 0], samples, side="right"), 1]
        taken_out = left[np.searchsorted(left[:, 0], samples, side="right"), 1]
        delays = 1e6 * (taken_out - stamped_in)
        p50, p99 = np.percentile(delays, [50, 99])
        results["latency"].append({"settings": label, "rate": rate, "p50_us": p50, "p99_us": p99, "cores": cores})
        print(f"| {label} | {p50:.0f} | {p99:.0f} | {cores:.1f} |")
    print()


def draw(results, folder):
    os.makedirs(folder, exist_ok=True)
    transfer = results.get("transfer", [])
    plot(
        os.path.join(folder, "module-transfers.png"),
        "CPU <-> GPU through gr-cuda vs raw pinned copies (H200)",
        "bytes per call",
        "GB/s",
        {
            "H2D raw": [(t["bytes"], t["h2d_raw"]) for t in transfer],
            "H2D module": [(t["bytes"], t["h2d"]) for t in transfer],
            "D2H raw": [(t["bytes"], t["d2h_raw"]) for t in transfer],
            "D2H module": [(t["bytes"], t["d2h"]) for t in transfer],
        },
    )
    chain_rows = results.get("chain", [])
    plot(
        os.path.join(folder, "module-chain.png"),
        "GPU-resident chain vs bare kernels (H200)",
        "items per call",
        "Gitems/s",
        {
            "bare copy+multiply": [(c["items"], c["bare_copy_multiply"]) for c in chain_rows],
            "null_source->head->multiply->null_sink": [(c["items"], c["chain"]) for c in chain_rows],
            "bare multiply": [(c["items"], c["bare_multiply"]) for c in chain_rows],
            "null_source->multiply->null_sink": [(c["items"], c["chain_without_head"]) for c in chain_rows],
        },
    )
    fft_rows = results.get("fft", [])
    plot(
        os.path.join(folder, "module-fft.png"),
        "cuda.fft as a share of cuFFT called directly (H200)",
        "samples per call",
        "% of cuFFT",
        {
            f"FFT size {size}": [(f["per_call"], 100 * f["module"] / f["cufft"]) for f in fft_rows if f["size"] == size]
            for size in sorted({f["size"] for f in fft_rows})
        },
    )
    paced_rows = results.get("source_paced", [])
    plot(
        os.path.join(folder, "module-source-paced.png"),
        "Source-paced GPU chains as a share of the bare kernel or cuFFT (H200)",
        "samples per source call",
        "% of baseline",
        {
            name: [(r["per_call"], 100 * r["rate"] / r["baseline"]) for r in paced_rows if r["flowgraph"] == name]
            for name in dict.fromkeys(r["flowgraph"] for r in paced_rows)
        },
    )


def add_arguments(parser):
    add_volume_argument(parser)
    parser.add_argument("--latency-rate", type=float, default=100e6, help="samples/s of the latency flowgraph")


if __name__ == "__main__":
    benchmark_support.main(
        __doc__,
        "gr-cuda module benchmark",
        {
            "transfer": transfers,
            "chain": chain,
            "fft": ffts,
            "defaults": defaults,
            "source_paced": source_paced,
            "ring_sizes": ring_sizes,
            "host_wait": host_wait,
            "threads": threads,
            "call_cpu": call_cpu,
            "latency": latency,
        },
        draw,
        add_arguments,
        prepare_baselines,
    )
