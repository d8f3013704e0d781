#!/usr/bin/env python3
#
# SPDX-License-Identifier: GPL-3.0-or-later
#
"""Spectrum on the GPU: a tone plus noise from the CPU, averaged power spectrum back.

    signal source + noise (CPU) -> stream_to_vector -> windowed FFT -> |X|^2 -> 10*log10
    (all GPU) -> averaging and peak search (CPU)

Prints the detected peak frequency, the throughput and an ok line (gr-cuda's logger names
the device). Runs on the GPU when there is one, else on libgrcuda's simulated backend.
"""

import argparse
import time

import numpy as np
from gnuradio import analog, blocks, gr

from gnuradio import cuda


class spectrum(gr.top_block):
    def __init__(self, samples, fft_size, sample_rate, tone):
        gr.top_block.__init__(self, "GPU spectrum")
        self.source = analog.sig_source_c(sample_rate, analog.GR_COS_WAVE, tone, 1.0)
        self.noise = analog.noise_source_c(analog.GR_GAUSSIAN, 0.5, 42)
        self.add = blocks.add_cc()
        self.head = blocks.head(gr.sizeof_gr_complex, samples)
        self.to_vectors = cuda.stream_to_vector(gr.sizeof_gr_complex, fft_size)
        window = list(np.hanning(fft_size).astype(np.float32))
        self.fft = cuda.fft(fft_size, True, window, True)
        self.power = cuda.complex_to_mag_squared(fft_size)
        self.decibels = cuda.nlog10_ff(10, fft_size, 0)
        self.average = blocks.vector_sink_f(fft_size)
        self.connect(self.source, (self.add, 0))
        self.connect(self.noise, (self.add, 1))
        self.connect(self.add, self.head, self.to_vectors, self.fft, self.power, self.decibels, self.average)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--samples", type=int, default=1 << 24)
    parser.add_argument("--fft-size", type=int, default=4096)
    parser.add_argument("--sample-rate", type=float, default=32e6)
    parser.add_argument("--tone", type=float, default=5.3e6)
    args = parser.parse_args()

    # GNU Radio's debug lines (which buffers it replaced) are for developers, not for a demo.
    gr.logging().set_default_level(gr.log_levels.info)
    # gr-cuda's logger says once which device runs the flowgraph, and why when it is the CPU.
    simulated = cuda.simulated()
    flowgraph = spectrum(args.samples, args.fft_size, args.sample_rate, args.tone)
    started = time.perf_counter()
    flowgraph.run()
    elapsed = time.perf_counter() - started

    spectra = np.array(flowgraph.average.data()).reshape(-1, args.fft_size)
    average = spectra.mean(axis=0)
    bin_width = args.sample_rate / args.fft_size
    peak = int(np.argmax(average))
    frequency = (peak - args.fft_size // 2) * bin_width
    print(
        f"{len(spectra)} spectra of {args.fft_size} bins; peak at bin {peak}: "
        f"{frequency / 1e6:.3f} MHz ({average[peak]:.1f} dB; tone at {args.tone / 1e6:.3f} MHz)"
    )
    rate = args.samples / elapsed / 1e6
    note = " on the CPU (simulated backend): not a GPU figure" if simulated else " on the GPU"
    print(f"throughput: {rate:.1f} Msamples/s{note} ({elapsed:.2f} s for {args.samples} samples)")
    if abs(frequency - args.tone) > bin_width:
        raise SystemExit(f"FAILED: the peak is {abs(frequency - args.tone) / 1e3:.1f} kHz from the tone")
    print("ok: the peak is at the tone")


if __name__ == "__main__":
    main()
