#!/usr/bin/env python3
#
# SPDX-License-Identifier: GPL-3.0-or-later
#
"""Benchmarks of the GNU Radio module against baselines measured in the same run.

1. CPU -> GPU and GPU -> CPU through the module (null_source/null_sink on the CPU side)
   against raw pinned copies through libgrcuda's C API.
2. A GPU-resident chain, cuda.null_source -> cuda.head -> cuda.multiply_const_cc ->
   cuda.null_sink, against the bare multiply kernel on raw device memory.
3. cuda.fft against the same cuFFT transforms called directly, and against GNU Radio's
   fft.fft_vcc (FFTW) with 1 and 16 threads.

Prints Markdown tables and writes the figures as JSON (--json). Items per call are set with
set_max_noutput_items on the measured blocks.
"""

import argparse
import ctypes
import json
import time

import numpy as np
from gnuradio import blocks, fft as gr_fft, gr

from gnuradio import cuda

grcuda = ctypes.CDLL("libgrcuda.so.1")
for name in ("grcuda_device_open", "grcuda_stream_new", "grcuda_memory_new", "grcuda_stream_copy_async",
             "grcuda_stream_synchronize", "grcuda_multiply_const_cc", "grcuda_fft_execute"):
    getattr(grcuda, name).restype = ctypes.c_int
grcuda.grcuda_memory_address.restype = ctypes.c_void_p


class complex32(ctypes.Structure):
    _fields_ = [("real", ctypes.c_float), ("imag", ctypes.c_float)]


def ok(status, what):
    if status != 0:
        raise RuntimeError(f"{what}: status {status}")


class raw:
    """Baselines straight through the C API, on one stream."""

    def __init__(self):
        self.device = ctypes.c_void_p()
        ok(grcuda.grcuda_device_open(0, 0, ctypes.byref(self.device)), "open")
        self.stream = ctypes.c_void_p()
        ok(grcuda.grcuda_stream_new(self.device, ctypes.byref(self.stream)), "stream")

    def memory(self, kind, size):
        handle = ctypes.c_void_p()
        ok(grcuda.grcuda_memory_new(self.device, kind, ctypes.c_size_t(size), ctypes.byref(handle)), "memory")
        return ctypes.c_void_p(grcuda.grcuda_memory_address(handle))

    def timed(self, calls, launch):
        launch()
        ok(grcuda.grcuda_stream_synchronize(self.stream), "sync")
        started = time.perf_counter()
        for _ in range(calls):
            launch()
        ok(grcuda.grcuda_stream_synchronize(self.stream), "sync")
        return time.perf_counter() - started


def run_flowgraph(tb):
    started = time.perf_counter()
    tb.run()
    return time.perf_counter() - started


def transfers(r, volume, table):
    print("### CPU <-> GPU through the module vs raw pinned copies\n")
    print("| bytes per call | H2D raw GB/s | H2D module GB/s | ratio | D2H raw GB/s | D2H module GB/s | ratio |")
    print("|---:|---:|---:|---:|---:|---:|---:|")
    for chunk in (1 << 20, 4 << 20, 16 << 20):
        items = chunk // 8
        calls = max(4, volume // chunk)
        host, device = r.memory(1, chunk), r.memory(0, chunk)
        h2d_raw = calls * chunk / r.timed(calls, lambda: ok(grcuda.grcuda_stream_copy_async(r.stream, device, host, ctypes.c_size_t(chunk)), "copy")) / 1e9
        d2h_raw = calls * chunk / r.timed(calls, lambda: ok(grcuda.grcuda_stream_copy_async(r.stream, host, device, ctypes.c_size_t(chunk)), "copy")) / 1e9
        figures = {}
        for direction in ("h2d", "d2h"):
            tb = gr.top_block()
            head = blocks.head(8, calls * items)
            if direction == "h2d":
                head.set_max_noutput_items(items)
                head.set_min_output_buffer(4 * items)
                tb.connect(blocks.null_source(8), head, cuda.null_sink(8))
            else:
                source = cuda.null_source(8, 1, False)
                gpu_head = cuda.head(8, calls * items)
                for block in (source, gpu_head):
                    block.set_max_noutput_items(items)
                    block.set_min_output_buffer(4 * items)
                tb.connect(source, gpu_head, blocks.null_sink(8))
            figures[direction] = calls * chunk / run_flowgraph(tb) / 1e9
        table.append({"test": "transfer", "bytes": chunk, "h2d_raw": h2d_raw, "h2d": figures["h2d"], "d2h_raw": d2h_raw, "d2h": figures["d2h"]})
        print(f"| {chunk >> 20} MiB | {h2d_raw:.1f} | {figures['h2d']:.1f} | {100 * figures['h2d'] / h2d_raw:.0f}% | "
              f"{d2h_raw:.1f} | {figures['d2h']:.1f} | {100 * figures['d2h'] / d2h_raw:.0f}% |")
    print()


def chain(r, volume, table):
    print("### null_source -> head -> multiply_const_cc -> null_sink vs the bare kernel\n")
    print("| items per call | bare kernel Gitems/s | chain Gitems/s | ratio |")
    print("|---:|---:|---:|---:|")
    for shift in (18, 20, 22, 24):
        items = 1 << shift
        calls = max(8, volume // (8 * items))
        ring = 4
        source, dest = r.memory(0, ring * items * 8), r.memory(0, ring * items * 8)
        counter = [0]

        def launch():
            offset = (counter[0] % ring) * items * 8
            counter[0] += 1
            ok(grcuda.grcuda_multiply_const_cc(r.stream, ctypes.c_void_p(source.value + offset),
                                               ctypes.c_void_p(dest.value + offset), ctypes.c_size_t(items),
                                               complex32(1.0, 0.5)), "multiply")

        bare = calls * items / r.timed(calls, launch) / 1e9
        tb = gr.top_block()
        src = cuda.null_source(8, 1, False)
        head = cuda.head(8, calls * items)
        multiply = cuda.multiply_const_cc(1 + 0.5j)
        for block in (src, head, multiply):
            block.set_max_noutput_items(items)
            block.set_min_output_buffer(4 * items)
        tb.connect(src, head, multiply, cuda.null_sink(8))
        module = calls * items / run_flowgraph(tb) / 1e9
        table.append({"test": "chain", "items": items, "bare": bare, "module": module})
        print(f"| 2^{shift} | {bare:.1f} | {module:.1f} | {100 * module / bare:.0f}% |")
    print()


def ffts(r, volume, table):
    print("### cuda.fft vs cuFFT called directly, and vs fft.fft_vcc (FFTW)\n")
    print("| FFT size | samples per call | cuFFT Msamples/s | cuda.fft Msamples/s | ratio | FFTW 1 thread | FFTW 16 threads |")
    print("|---:|---:|---:|---:|---:|---:|---:|")
    for size in (1024, 4096, 16384, 65536):
        for per_call in (1 << 16, 1 << 20):
            if per_call < size:
                continue
            batch = per_call // size
            calls = max(8, volume // (8 * per_call))
            source, dest = r.memory(0, per_call * 8), r.memory(0, per_call * 8)
            direct = calls * per_call / r.timed(calls, lambda: ok(grcuda.grcuda_fft_execute(
                r.stream, 0, ctypes.c_size_t(size), ctypes.c_size_t(batch), source, dest), "fft")) / 1e6
            tb = gr.top_block()
            src = cuda.null_source(8 * size, 1, False)
            head = cuda.head(8 * size, calls * batch)
            block = cuda.fft(size, True, [], False)
            for b in (src, head, block):
                b.set_max_noutput_items(batch)
                b.set_min_output_buffer(4 * batch)
            tb.connect(src, head, block, cuda.null_sink(8 * size))
            module = calls * per_call / run_flowgraph(tb) / 1e6
            fftw = []
            for threads in (1, 16):
                cpu_vectors = max(1, min(calls * batch, (1 << 24) // size))
                tb = gr.top_block()
                tb.connect(blocks.null_source(8 * size), blocks.head(8 * size, cpu_vectors),
                           gr_fft.fft_vcc(size, True, [], False, threads), blocks.null_sink(8 * size))
                fftw.append(cpu_vectors * size / run_flowgraph(tb) / 1e6)
            table.append({"test": "fft", "size": size, "per_call": per_call, "cufft": direct, "module": module,
                          "fftw1": fftw[0], "fftw16": fftw[1]})
            print(f"| {size} | 2^{per_call.bit_length() - 1} | {direct:.0f} | {module:.0f} | {100 * module / direct:.0f}% | "
                  f"{fftw[0]:.0f} | {fftw[1]:.0f} |")
    print()


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--volume", type=int, default=2 << 30, help="bytes moved per figure")
    parser.add_argument("--json", help="write the figures here")
    args = parser.parse_args()
    backend = "simulated backend" if cuda.simulated() else "GPU"
    print(f"## gr-cuda module benchmark ({backend})\n")
    r = raw()
    table = []
    transfers(r, args.volume, table)
    chain(r, args.volume, table)
    ffts(r, args.volume, table)
    if args.json:
        with open(args.json, "w") as out:
            json.dump(table, out, indent=1)


if __name__ == "__main__":
    main()
