#!/usr/bin/env python3
#
# SPDX-License-Identifier: GPL-3.0-or-later
#
"""A GPU block written in Python, between the CuPy block library's blocks.

    sig_source_cupy (tone) + noise_source_cupy -> add_cupy -> clip (the block below)
    -> stream_to_vector -> fft_cupy (Hann window, shift) -> complex_to_mag_squared_cupy
    -> nlog10_cupy -> CPU

`clip` is the ten-line block of docs/PYTHON_BLOCKS.md: it limits the magnitude of each sample
on the GPU with CuPy (NumPy on the simulated backend). Prints the backend, the peak of the
averaged spectrum and the throughput; fails if the peak is not at the tone or the clip did not
hold.
"""

import argparse
import time

import numpy as np
from gnuradio import analog, blocks, gr

from gnuradio import cuda


class clip(cuda.sync_block):
    """Scales samples whose magnitude exceeds `limit` back to it (phase kept)."""

    def __init__(self, limit):
        cuda.sync_block.__init__(self, name="clip", in_sig=[np.complex64], out_sig=[np.complex64])
        self.limit = np.float32(limit)

    def work(self, input_items, output_items):
        xp, x = self.xp, input_items[0]
        scale = self.limit / xp.maximum(xp.abs(x), self.limit)
        xp.multiply(x, scale, out=output_items[0])
        return len(output_items[0])


class python_blocks(gr.top_block):
    def __init__(self, samples, fft_size, sample_rate, tone, limit):
        gr.top_block.__init__(self, "Python GPU blocks")
        # Keep every Python block in an attribute: GNU Radio holds only their C++ side.
        self.tone = cuda.sig_source_cupy(sample_rate, analog.GR_COS_WAVE, tone, 1.0, 0.0, 0.0, np.complex64)
        self.noise = cuda.noise_source_cupy(analog.GR_GAUSSIAN, 0.5, 42, np.complex64)
        self.add = cuda.add_cupy(2, np.complex64)
        self.clip = clip(limit)
        self.head = cuda.head(gr.sizeof_gr_complex, samples)
        self.to_vectors = cuda.stream_to_vector(gr.sizeof_gr_complex, fft_size)
        self.fft = cuda.fft_cupy(fft_size, True, np.hanning(fft_size), True)
        self.power = cuda.complex_to_mag_squared_cupy(fft_size)
        self.decibels = cuda.nlog10_cupy(10, fft_size, 0)
        self.spectra = blocks.vector_sink_f(fft_size)
        self.clipped = blocks.vector_sink_c()
        # No call sizes or buffer sizes to tune: the GPU buffers' rings let a block that
        # falls behind take large calls (docs/PYTHON_BLOCKS.md, "Speed").
        self.connect(self.tone, (self.add, 0))
        self.connect(self.noise, (self.add, 1))
        self.connect(self.add, self.clip, self.head, self.to_vectors, self.fft, self.power, self.decibels, self.spectra)
        # A GPU output feeds GPU and CPU blocks through a GPU copy (GNU Radio 3.10 gives each
        # output one transfer type: docs/LIMITATIONS.md).
        self.to_host = cuda.copy(gr.sizeof_gr_complex)
        self.connect(self.head, self.to_host, blocks.keep_one_in_n(gr.sizeof_gr_complex, 97), self.clipped)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--samples", type=int, default=1 << 22)
    parser.add_argument("--fft-size", type=int, default=1024)
    parser.add_argument("--sample-rate", type=float, default=32e6)
    parser.add_argument("--tone", type=float, default=-3.1e6)
    parser.add_argument("--limit", type=float, default=1.5)
    args = parser.parse_args()

    backend = "the simulated backend (no GPU found)" if cuda.simulated() else "the GPU"
    print(f"running on {backend}")
    flowgraph = python_blocks(args.samples, args.fft_size, args.sample_rate, args.tone, args.limit)
    started = time.perf_counter()
    flowgraph.run()
    elapsed = time.perf_counter() - started

    average = np.array(flowgraph.spectra.data()).reshape(-1, args.fft_size).mean(axis=0)
    bin_width = args.sample_rate / args.fft_size
    peak = int(np.argmax(average))
    frequency = (peak - args.fft_size // 2) * bin_width
    largest = float(np.abs(np.array(flowgraph.clipped.data())).max())
    print(
        f"peak at {frequency / 1e6:.3f} MHz (tone at {args.tone / 1e6:.3f} MHz); "
        f"largest clipped magnitude {largest:.4f} (limit {args.limit})"
    )
    print(f"throughput: {args.samples / elapsed / 1e6:.1f} Msamples/s ({elapsed:.2f} s for {args.samples} samples)")
    if abs(frequency - args.tone) > bin_width:
        raise SystemExit("the peak is not at the tone")
    if largest > args.limit * (1 + 1e-6):
        raise SystemExit("the clip block let a larger sample through")


if __name__ == "__main__":
    main()
