#!/usr/bin/env python3
#
# SPDX-License-Identifier: GPL-3.0-or-later
#
"""Two flowgraph processes joined by gr-zeromq, with GPU blocks on both sides.

    sender:   seeded random complex samples -> cuda.multiply_const_cc -> zeromq.push_sink
    receiver: zeromq.pull_source -> cuda.multiply_const_cc -> cuda.complex_to_mag_squared -> CPU

The receiver checks every sample that arrives against NumPy on the same seeded samples and
exits non-zero on a mismatch. ZeroMQ's PUSH/PULL sockets lose nothing: the sender waits while
no receiver pulls. The ZeroMQ blocks are CPU blocks, so each side copies its samples between
the GPU and host memory next to them.

On one machine (loopback): starts both processes on a free port of 127.0.0.1, checks the
result, and fails when either process fails or does not finish within --timeout seconds:

    zeromq_pipeline.py

On two machines, the sender binds and the receiver connects (either may start first), with
the same --samples and --seed:

    zeromq_pipeline.py sender --address tcp://*:5555
    zeromq_pipeline.py receiver --address tcp://<sender's host>:5555
"""

import argparse
import os
import queue
import subprocess
import sys
import threading
import time

import numpy as np
from gnuradio import blocks, gr, zeromq

from gnuradio import cuda

SENDER_GAIN = np.complex64(0.5 + 0.25j)
RECEIVER_GAIN = np.complex64(2.0 - 1.0j)
#: How long a ZeroMQ block waits for its socket in one work() call, in milliseconds.
SOCKET_TIMEOUT_MS = 100


def samples(count, seed):
    rng = np.random.default_rng(seed)
    return (rng.standard_normal(count) + 1j * rng.standard_normal(count)).astype(np.complex64)


def backend():
    return "the simulated backend (no GPU found)" if cuda.simulated() else "the GPU"


def send(args):
    flowgraph = gr.top_block("zeromq sender")
    sink = zeromq.push_sink(gr.sizeof_gr_complex, 1, args.address, SOCKET_TIMEOUT_MS, False, -1)
    flowgraph.connect(
        blocks.vector_source_c(samples(args.samples, args.seed)), cuda.multiply_const_cc(SENDER_GAIN), sink
    )
    # The port a "*" in the address chose: the loopback run reads it from this line.
    print(f"sender: pushing {args.samples} samples on {sink.last_endpoint()} from {backend()}", flush=True)
    flowgraph.run()
    # Returning drops the flowgraph, whose socket then delivers what it still holds.
    print("sender: done", flush=True)


def receive(args):
    flowgraph = gr.top_block("zeromq receiver")
    result = blocks.vector_sink_f()
    flowgraph.connect(
        zeromq.pull_source(gr.sizeof_gr_complex, 1, args.address, SOCKET_TIMEOUT_MS, False, -1),
        cuda.multiply_const_cc(RECEIVER_GAIN),
        cuda.complex_to_mag_squared(),
        blocks.head(gr.sizeof_float, args.samples),
        result,
    )
    print(f"receiver: pulling {args.samples} samples from {args.address} on {backend()}", flush=True)
    started = time.perf_counter()
    # A ZeroMQ source never ends, and GNU Radio does not stop it when the head downstream is
    # done: wait for the samples, then stop the flowgraph.
    flowgraph.start()
    while result.nitems_read(0) < args.samples:
        time.sleep(0.01)
    elapsed = time.perf_counter() - started
    flowgraph.stop()
    flowgraph.wait()
    received = np.array(result.data(), dtype=np.float32)
    expected = np.abs(samples(args.samples, args.seed).astype(np.complex128) * SENDER_GAIN * RECEIVER_GAIN) ** 2
    if len(received) != args.samples:
        raise SystemExit(f"receiver: {len(received)} samples arrived, not {args.samples}")
    wrong = np.flatnonzero(~np.isclose(received, expected, rtol=1e-5, atol=0))
    if len(wrong):
        first = wrong[0]
        raise SystemExit(
            f"receiver: {len(wrong)} of {args.samples} samples differ from NumPy's, the first at {first}: "
            f"{received[first]} instead of {expected[first]}"
        )
    print(f"ok: {args.samples} samples crossed from the sender's process, equal to NumPy's ({elapsed:.2f} s)")


def loopback(args):
    """Runs the sender and the receiver as two processes on 127.0.0.1; fails on a timeout."""
    deadline = time.monotonic() + args.timeout
    common = ["--samples", str(args.samples), "--seed", str(args.seed)]
    script = os.path.abspath(__file__)
    sender = subprocess.Popen(
        [sys.executable, "-u", script, "sender", "--address", "tcp://127.0.0.1:*", *common],
        stdout=subprocess.PIPE,
        text=True,
    )
    lines = queue.Queue()

    def forward(stream):
        for line in stream:
            print(line, end="", flush=True)
            lines.put(line)
        lines.put(None)

    threading.Thread(target=forward, args=(sender.stdout,), daemon=True).start()
    receiver = None
    try:
        address = None
        while address is None:
            try:
                line = lines.get(timeout=max(deadline - time.monotonic(), 0))
            except queue.Empty:
                raise SystemExit(f"the sender did not say its address within {args.timeout} s") from None
            if line is None:
                raise SystemExit(f"the sender ended (exit status {sender.wait()}) before saying its address")
            if line.startswith("sender: pushing"):
                address = line.split(" on ")[1].split()[0]
        receiver = subprocess.Popen([sys.executable, "-u", script, "receiver", "--address", address, *common])
        for name, process in (("receiver", receiver), ("sender", sender)):
            try:
                status = process.wait(timeout=max(deadline - time.monotonic(), 0))
            except subprocess.TimeoutExpired:
                raise SystemExit(f"the {name} did not finish within {args.timeout} s") from None
            if status != 0:
                raise SystemExit(f"the {name} failed (exit status {status})")
    finally:
        for process in (sender, receiver):
            if process is not None and process.poll() is None:
                process.kill()
                process.wait()


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("role", nargs="?", choices=("loopback", "sender", "receiver"), default="loopback")
    parser.add_argument("--address", help="ZeroMQ address: the sender binds it, the receiver connects to it")
    parser.add_argument("--samples", type=int, default=1 << 20)
    parser.add_argument("--seed", type=int, default=2024)
    parser.add_argument("--timeout", type=float, default=120.0, help="loopback: seconds both processes may take")
    args = parser.parse_args()
    gr.logging().set_default_level(gr.log_levels.info)
    if args.samples <= 0:
        parser.error(f"--samples is {args.samples}: give a positive count")
    if args.role != "loopback" and not args.address:
        parser.error(
            f"the {args.role} needs --address (tcp://*:5555 for the sender, tcp://<host>:5555 for the receiver)"
        )
    {"loopback": loopback, "sender": send, "receiver": receive}[args.role](args)


if __name__ == "__main__":
    main()
