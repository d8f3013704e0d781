#!/usr/bin/env python3
#
# SPDX-License-Identifier: GPL-3.0-or-later
#
"""Spectrum on the GPU: a tone plus noise from the CPU, power spectrum in dB back.

    signal source + noise (CPU) -> cuda.logpwrfft_c (GPU: GNU Radio's Log Power FFT, the
    windowed FFT, |X|^2 and 10*log10 in one block) -> averaging and peak search (CPU)

With --blocks the GPU part is built from separate blocks instead, as an example of
chaining them: stream_to_vector -> windowed FFT -> |X|^2 -> 10*log10.

Prints the detected peak frequency, the throughput and an ok line (gr-cuda's logger names
the device). Runs on the GPU when there is one, else on libgrcuda's simulated backend.
"""

import argparse
import time

import numpy as np
from gnuradio import analog, blocks, gr

from gnuradio import cuda


class spectrum(gr.top_block):
    def __init__(self, samples, fft_size, sample_rate, tone, separate_blocks):
        gr.top_block.__init__(self, "GPU spectrum")
        self.source = analog.sig_source_c(sample_rate, analog.GR_COS_WAVE, tone, 1.0)
        self.noise = analog.noise_source_c(analog.GR_GAUSSIAN, 0.5, 42)
        self.add = blocks.add_cc()
        self.head = blocks.head(gr.sizeof_gr_complex, samples)
        if separate_blocks:
            window = list(np.hanning(fft_size).astype(np.float32))
            self.gpu_chain = [
                cuda.stream_to_vector(gr.sizeof_gr_complex, fft_size),
                cuda.fft(fft_size, True, window, True),
                cuda.complex_to_mag_squared(fft_size),
                cuda.nlog10_ff(10, fft_size, 0),
            ]
        else:
            # Every vector (frame rate = sample rate / fft_size), DC in the middle.
            self.gpu_chain = [
                cuda.logpwrfft_c(
                    sample_rate,
                    fft_size,
                    ref_scale=2.0,
                    frame_rate=sample_rate / fft_size,
                    avg_alpha=1.0,
                    average=False,
                    shift=True,
                )
            ]
        self.average = blocks.vector_sink_f(fft_size)
        self.connect(self.source, (self.add, 0))
        self.connect(self.noise, (self.add, 1))
        self.connect(self.add, self.head, *self.gpu_chain, self.average)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--samples", type=int, default=1 << 24)
    parser.add_argument("--fft-size", type=int, default=4096)
    parser.add_argument("--sample-rate", type=float, default=32e6)
    parser.add_argument("--tone", type=float, default=5.3e6)
    parser.add_argument("--blocks", action="store_true", help="separate GPU blocks instead of cuda.logpwrfft_c")
    args = parser.parse_args()

    # GNU Radio's debug lines (which buffers it replaced) are for developers, not for a demo.
    gr.logging().set_default_level(gr.log_levels.info)
    # gr-cuda's logger says once which device runs the flowgraph, and why when it is the CPU.
    simulated = cuda.simulated()
    flowgraph = spectrum(args.samples, args.fft_size, args.sample_rate, args.tone, args.blocks)
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
