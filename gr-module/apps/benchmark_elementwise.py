#!/usr/bin/env python3
#
# SPDX-License-Identifier: GPL-3.0-or-later
#
"""Benchmark of the elementwise, moving-average and phase blocks against baselines measured
in the same run.

For each block at 2^20 and 2^22 items per call: cuda.null_source -> block -> cuda.null_sink
(GPU-resident, buffers of --buffer-calls calls) against
(a) GNU Radio's CPU block in the same run (blocks.null_source -> block -> blocks.null_sink,
    one thread per block as GNU Radio runs it), and
(b) the roofline: the block's input + output bytes per item at the device-to-device copy
    rate measured in this run (libgrcuda's copy kernel, bytes read + written per second).
The roofline share is the figure the target applies to (>= 60% at 2^22 items per call).
A second table (moving_average_lengths) runs moving_average_ff/cc at 2^22 items per call over
window lengths from 64 to 10^6, against GNU Radio's block at the same lengths: the cost of a
long window (the chunked sums from 1024 items).
Prints a Markdown table, writes the figures as JSON (--json) and a PNG plot (--plots).
"""

import os

from gnuradio import analog, blocks, gr

import benchmark_support
from benchmark_support import add_volume_argument, configure, copy_rate, plot, prepare_baselines, steady_rate

from gnuradio import cuda

C, F = 8, 4  # bytes of a complex and of a float item

# name: (GPU block, CPU block, input item sizes, output item sizes, input items per output item)
BLOCKS = {
    "multiply_ff (2 inputs)": (lambda: cuda.multiply_ff(), lambda: blocks.multiply_ff(), [F, F], [F], 1),
    "multiply_cc (2 inputs)": (lambda: cuda.multiply_cc(), lambda: blocks.multiply_cc(), [C, C], [C], 1),
    "multiply_conjugate_cc": (cuda.multiply_conjugate_cc, blocks.multiply_conjugate_cc, [C, C], [C], 1),
    "conjugate_cc": (cuda.conjugate_cc, blocks.conjugate_cc, [C], [C], 1),
    "complex_to_float (2 outputs)": (cuda.complex_to_float, blocks.complex_to_float, [C], [F, F], 1),
    "complex_to_real": (cuda.complex_to_real, blocks.complex_to_real, [C], [F], 1),
    "complex_to_imag": (cuda.complex_to_imag, blocks.complex_to_imag, [C], [F], 1),
    "complex_to_arg": (cuda.complex_to_arg, blocks.complex_to_arg, [C], [F], 1),
    "float_to_complex (2 inputs)": (cuda.float_to_complex, blocks.float_to_complex, [F, F], [C], 1),
    "keep_one_in_n(8, 4)": (lambda: cuda.keep_one_in_n(C, 4), lambda: blocks.keep_one_in_n(C, 4), [C], [C], 4),
    "moving_average_ff(64)": (
        lambda: cuda.moving_average_ff(64, 1 / 64),
        lambda: blocks.moving_average_ff(64, 1 / 64),
        [F],
        [F],
        1,
    ),
    "moving_average_cc(64)": (
        lambda: cuda.moving_average_cc(64, 1 / 64),
        lambda: blocks.moving_average_cc(64, 1 / 64),
        [C],
        [C],
        1,
    ),
    "quadrature_demod_cf": (
        lambda: cuda.quadrature_demod_cf(1.0),
        lambda: analog.quadrature_demod_cf(1.0),
        [C],
        [F],
        1,
    ),
    "rotator_cc": (lambda: cuda.rotator_cc(0.01), lambda: blocks.rotator_cc(0.01), [C], [C], 1),
}


def flowgraph_rate(args, block, inputs, outputs, items, rate, gpu):
    """Output items per second of block between null sources and sinks."""
    tb = gr.top_block()
    for port, size in enumerate(inputs):
        source = cuda.null_source(size, 1, False) if gpu else blocks.null_source(size)
        configure([source], items * rate, args.buffer_calls)
        tb.connect(source, (block, port))
    sinks = []
    for port, size in enumerate(outputs):
        sink = cuda.null_sink(size) if gpu else blocks.null_sink(size)
        tb.connect((block, port), sink)
        sinks.append(sink)
    configure([block], items, args.buffer_calls)
    return steady_rate(tb, sinks[0], args.seconds)


def elementwise(args, results):
    copy = copy_rate(args, (1 << 22) * C)
    print(f"Device-to-device copy kernel: {copy / 1e9:.0f} GB/s (read + written).\n")
    print("| block | items per call | GPU Mitems/s | CPU Mitems/s | GPU / CPU | roofline Mitems/s | % of roofline |")
    print("|---|---:|---:|---:|---:|---:|---:|")
    for name, (gpu, cpu, inputs, outputs, rate) in BLOCKS.items():
        for shift in (14,) if args.quick else (20, 22):
            items = 1 << shift
            gpu_rate = flowgraph_rate(args, gpu(), inputs, outputs, items, rate, True)
            cpu_rate = flowgraph_rate(args, cpu(), inputs, outputs, items, rate, False)
            bytes_per_item = rate * sum(inputs) + sum(outputs)
            roofline = copy / bytes_per_item
            results["elementwise"].append(
                {"block": name, "items": items, "gpu": gpu_rate, "cpu": cpu_rate, "roofline": roofline}
            )
            print(
                f"| {name} | 2^{shift} | {gpu_rate / 1e6:.0f} | {cpu_rate / 1e6:.0f} | "
                f"{gpu_rate / max(cpu_rate, 1e-9):.1f}x | {roofline / 1e6:.0f} | {100 * gpu_rate / roofline:.0f}% |"
            )
    print()


MOVING_AVERAGE_LENGTHS = (64, 1000, 1024, 10_000, 100_000, 1_000_000)


def moving_average_lengths(args, results):
    items = 1 << (14 if args.quick else 22)
    print(f"moving_average at {items} items per call, output Mitems/s by window length:\n")
    print("| block | length | GPU Mitems/s | CPU Mitems/s | GPU / CPU |")
    print("|---|---:|---:|---:|---:|")
    for suffix, size in (("ff", F), ("cc", C)):
        for length in MOVING_AVERAGE_LENGTHS[:2] if args.quick else MOVING_AVERAGE_LENGTHS:
            make = lambda module: getattr(module, "moving_average_" + suffix)(length, 1 / length)  # noqa: E731
            gpu_rate = flowgraph_rate(args, make(cuda), [size], [size], items, 1, True)
            cpu_rate = flowgraph_rate(args, make(blocks), [size], [size], items, 1, False)
            results["moving_average_lengths"].append(
                {"block": "moving_average_" + suffix, "length": length, "gpu": gpu_rate, "cpu": cpu_rate}
            )
            print(
                f"| moving_average_{suffix} | {length} | {gpu_rate / 1e6:.0f} | {cpu_rate / 1e6:.1f} | "
                f"{gpu_rate / max(cpu_rate, 1e-9):.1f}x |"
            )
    print()


def draw(results, folder):
    if not results["elementwise"]:
        return
    os.makedirs(folder, exist_ok=True)
    rows = [row for row in results["elementwise"] if row["items"] == max(r["items"] for r in results["elementwise"])]
    plot(
        os.path.join(folder, "elementwise-roofline.png"),
        "Elementwise blocks as a share of the copy roofline (H200)",
        "block (index)",
        "% of roofline",
        {row["block"]: [(index + 1, 100 * row["gpu"] / row["roofline"])] for index, row in enumerate(rows)},
        log_x=False,
    )


if __name__ == "__main__":
    benchmark_support.main(
        __doc__,
        "gr-cuda elementwise blocks benchmark",
        {"elementwise": elementwise, "moving_average_lengths": moving_average_lengths},
        draw,
        add_volume_argument,
        prepare_baselines,
    )
