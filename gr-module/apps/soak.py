#!/usr/bin/env python3
#
# SPDX-License-Identifier: GPL-3.0-or-later
#
"""Sequence-checked soak: a counter made on the GPU, through GPU fan-out and device-to-host
edges, checked item by item on the CPU; nothing may be lost, repeated or invented.

    counting source (GPU, random call sizes)
      -> cuda.copy -> { cuda.copy -> checker (CPU, random consumption),
                        cuda.copy -> cuda.copy -> checker (CPU, random consumption) }

Every GPU block gets its own call-size cap, every item is a uint32 counter (mod 2^32), and
each checker consumes a random share of what it is offered, so the rings wrap at every
offset. Prints progress every few seconds and a summary line; exits non-zero on the first
wrong item or a wrong total.

    soak.py --items 10000000000   # the GPU reliability run (about a minute on an H200)
"""

import argparse
import sys
import time

import numpy as np
from gnuradio import gr

from gnuradio import cuda


class counting_source(cuda.sync_block):
    """Writes the counter on the GPU, a random number of items per call, \\p total in all."""

    def __init__(self, total, seed):
        cuda.sync_block.__init__(self, "counting_source", [], [np.uint32])
        self.total = total
        self.rng = np.random.default_rng(seed)

    def work(self, input_items, output_items):
        start = self.nitems_written(0)
        if start >= self.total:
            return gr.WORK_DONE
        n = min(len(output_items[0]), self.total - start)
        n = int(self.rng.integers(1, n, endpoint=True))
        out = output_items[0][:n]
        self.xp.add(self.xp.arange(n, dtype=np.uint32), np.uint32(start % 2**32), out=out)
        return n


class checker(gr.basic_block):
    """Checks that its input is the counter from 0, consuming a random share per call."""

    def __init__(self, name, seed):
        gr.basic_block.__init__(self, name, [np.uint32], [])
        self.rng = np.random.default_rng(seed)
        self.checked = 0
        self.error = None

    def general_work(self, input_items, output_items):
        items = input_items[0]
        n = int(self.rng.integers(1, len(items), endpoint=True)) if len(items) > 1 else len(items)
        expected = (np.arange(self.checked, self.checked + n, dtype=np.uint64) % 2**32).astype(np.uint32)
        if not np.array_equal(items[:n], expected):
            wrong = int(np.flatnonzero(items[:n] != expected)[0])
            self.error = (
                f"{self.name()}: item {self.checked + wrong} is {int(items[wrong])}, expected {int(expected[wrong])}"
            )
            return gr.WORK_DONE
        self.checked += n
        self.consume(0, n)
        return 0


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--items", type=float, default=1e8, help="items through each branch (default 1e8)")
    parser.add_argument("--call", type=int, default=1 << 20, help="largest call in items (default 2^20)")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    total = int(args.items)
    rng = np.random.default_rng(args.seed)

    tb = gr.top_block()
    source = counting_source(total, args.seed)
    checkers = [checker("checker_a", args.seed + 1), checker("checker_b", args.seed + 2)]
    fan_out = cuda.copy(4)
    branches = [[cuda.copy(4)], [cuda.copy(4), cuda.copy(4)]]
    for block in [source, fan_out] + branches[0] + branches[1]:
        # Caps that share no factor with each other or with the ring sizes.
        block.set_max_noutput_items(int(rng.integers(args.call // 2, args.call)) | 1)
        block.set_min_output_buffer(4 * args.call)
    tb.connect(source, fan_out)
    for branch, check in zip(branches, checkers):
        tb.connect(fan_out, *branch, check)

    print(
        f"soak: {total:.3g} items per branch, calls up to {args.call} items, seed {args.seed}, "
        f"on {'the simulated backend' if cuda.simulated() else 'the GPU'}",
        flush=True,
    )
    started = time.monotonic()
    tb.start()
    last_report = started
    while not all(c.checked >= total or c.error is not None for c in checkers):
        time.sleep(0.2)
        if time.monotonic() - last_report >= 5:
            last_report = time.monotonic()
            done = min(c.checked for c in checkers)
            print(
                f"soak: {done:.3g} of {total:.3g} items checked ({100 * done / total:.0f}%), "
                f"{done / (last_report - started) / 1e9:.2f} Gitems/s",
                flush=True,
            )
    tb.stop()
    tb.wait()
    seconds = time.monotonic() - started
    errors = [c.error for c in checkers if c.error] + [
        f"{c.name()}: checked {c.checked} items, expected {total}"
        for c in checkers
        if c.error is None and c.checked != total
    ]
    for error in errors:
        print("soak: FAILED:", error)
    if source.error is not None:
        print("soak: FAILED: the source raised", source.error)
        errors.append(source.error)
    print(
        f"soak: {sum(c.checked for c in checkers):.4g} items checked in {seconds:.1f} s "
        f"({min(c.checked for c in checkers) / seconds / 1e9:.2f} Gitems/s per branch), "
        f"{len(errors)} errors",
        flush=True,
    )
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
