#!/usr/bin/env python3
#
# SPDX-License-Identifier: GPL-3.0-or-later
#
"""Benchmark of cuda.expression: one fused kernel against the same operations as separate
GPU blocks, and against the copy roofline, all measured in the same run.

For ff and cc, at 2^20 and 2^22 items per call, an expression of four elementwise
operations on two inputs, cuda.null_source x 2 -> block(s) -> cuda.null_sink (GPU-resident,
buffers of --buffer-calls calls):
(a) fused: cuda.expression_ff("(in0 * in1 + in0) * k * in1") or
    cuda.expression_cc("(in0 * in1 + in0) * k * conj(in1)");
(b) separate: cuda.multiply -> cuda.add (+ in0) -> cuda.multiply_const (k) -> cuda.multiply
    (or cuda.multiply_conjugate_cc) (* in1), four blocks and four kernels per call;
(c) the roofline: the fused block's input + output bytes per item (two inputs, one output)
    at the device-to-device copy rate measured in this run.
Targets on the GPU: fused >= 3x separate at 2^20 items per call, >= 85% of the roofline at
2^22. Prints a Markdown table, writes the figures as JSON (--json) and a PNG plot (--plots).
"""

import os

from gnuradio import gr

import benchmark_support
from benchmark_support import add_volume_argument, configure, copy_rate, plot, prepare_baselines, steady_rate

from gnuradio import cuda

C, F = 8, 4  # bytes of a complex and of a float item
K = 0.5

# types: (item bytes, expression, the separate blocks' makers in chain order)
CASES = {
    "ff": (
        F,
        "(in0 * in1 + in0) * k * in1",
        (cuda.multiply_ff, lambda: cuda.add_ff(2), lambda: cuda.multiply_const_ff(K), cuda.multiply_ff),
    ),
    "cc": (
        C,
        "(in0 * in1 + in0) * k * conj(in1)",
        (cuda.multiply_cc, lambda: cuda.add_cc(2), lambda: cuda.multiply_const_cc(K), cuda.multiply_conjugate_cc),
    ),
}


def sources(size, items, args):
    made = [cuda.null_source(size, 1, False) for _ in range(2)]
    configure(made, items, args.buffer_calls)
    return made


def fused_rate(args, types, items):
    size, text, _ = CASES[types]
    tb = gr.top_block()
    first, second = sources(size, items, args)
    block = getattr(cuda, "expression_" + types)(text, 2, 1, {"k": K})
    sink = cuda.null_sink(size)
    configure([block], items, args.buffer_calls)
    tb.connect(first, (block, 0))
    tb.connect(second, (block, 1))
    tb.connect(block, sink)
    return steady_rate(tb, sink, args.seconds)


def separate_rate(args, types, items):
    """(in0 * in1 + in0) * k * in1 (conj(in1) for cc) as four blocks."""
    size, _, makers = CASES[types]
    tb = gr.top_block()
    first, second = sources(size, items, args)
    multiply, add, scale, last = (make() for make in makers)
    sink = cuda.null_sink(size)
    configure([multiply, add, scale, last], items, args.buffer_calls)
    tb.connect(first, (multiply, 0))
    tb.connect(second, (multiply, 1))
    tb.connect(multiply, (add, 0))
    tb.connect(first, (add, 1))
    tb.connect(add, scale, (last, 0))
    tb.connect(second, (last, 1))
    tb.connect(last, sink)
    return steady_rate(tb, sink, args.seconds)


def expression(args, results):
    copy = copy_rate(args, (1 << 22) * C)
    print(f"Device-to-device copy kernel: {copy / 1e9:.0f} GB/s (read + written).\n")
    print(
        "| types | items per call | fused Mitems/s | separate Mitems/s | fused / separate "
        "| roofline Mitems/s | % of roofline |"
    )
    print("|---|---:|---:|---:|---:|---:|---:|")
    for types, (size, text, _) in CASES.items():
        for shift in (14,) if args.quick else (20, 22):
            items = 1 << shift
            fused = fused_rate(args, types, items)
            separate = separate_rate(args, types, items)
            roofline = copy / (3 * size)
            results["expression"].append(
                {
                    "types": types,
                    "expression": text,
                    "items": items,
                    "fused": fused,
                    "separate": separate,
                    "roofline": roofline,
                }
            )
            print(
                f"| {types} | 2^{shift} | {fused / 1e6:.0f} | {separate / 1e6:.0f} | "
                f"{fused / max(separate, 1e-9):.1f}x | {roofline / 1e6:.0f} | {100 * fused / roofline:.0f}% |"
            )
    print()


def draw(results, folder):
    os.makedirs(folder, exist_ok=True)
    series = {}
    for row in results["expression"]:
        series.setdefault(f"{row['types']} fused", []).append((row["items"], 100 * row["fused"] / row["roofline"]))
        series.setdefault(f"{row['types']} separate", []).append(
            (row["items"], 100 * row["separate"] / row["roofline"])
        )
    plot(
        os.path.join(folder, "expression-roofline.png"),
        "cuda.expression against separate blocks, as a share of the copy roofline",
        "items per call",
        "% of roofline",
        series,
    )


if __name__ == "__main__":
    benchmark_support.main(
        __doc__,
        "gr-cuda expression benchmark",
        {"expression": expression},
        draw,
        add_volume_argument,
        prepare_baselines,
    )
