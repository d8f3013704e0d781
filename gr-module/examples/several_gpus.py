#!/usr/bin/env python3
#
# SPDX-License-Identifier: GPL-3.0-or-later
#
"""A flowgraph over two GPUs: a filter on the first, the spectrum of its output on the second.

    noisy tone (CPU) -> fir_filter_ccf, low-pass (device 0) -> fft(1024) -> |X|^2 (device 1)
    -> averaged spectrum (CPU)

The fft block on device 1 reads the filter's buffer on device 0 in place (peer access). Each
block's `device` argument places it; nothing else changes. Prints the devices, the bin of
the tone and the throughput, and exits non-zero when the tone is not where it should be or
the filter's stop band is not attenuated. With one GPU every block runs on it; without one,
on libgrcuda's simulated backend (two simulated devices).
"""

import argparse
import time

import numpy as np
from gnuradio import analog, blocks, filter as gr_filter, gr
from gnuradio.fft import window

from gnuradio import cuda

FFT_SIZE = 1024


class two_gpus(gr.top_block):
    def __init__(self, samples, sample_rate, tone, first, second):
        gr.top_block.__init__(self, "two GPUs")
        taps = gr_filter.firdes.low_pass(1.0, sample_rate, 0.2 * sample_rate, 0.05 * sample_rate)
        self.add = blocks.add_cc()
        self.connect(analog.sig_source_c(sample_rate, analog.GR_COS_WAVE, tone, 1.0), (self.add, 0))
        self.connect(analog.noise_source_c(analog.GR_GAUSSIAN, 1.0, 7), (self.add, 1))
        self.head = blocks.head(gr.sizeof_gr_complex, samples)
        self.low_pass = cuda.fir_filter_ccf(1, taps, device=first)
        self.to_vectors = cuda.stream_to_vector(gr.sizeof_gr_complex, FFT_SIZE, device=first)
        self.fft = cuda.fft(FFT_SIZE, True, window.blackmanharris(FFT_SIZE), True, device=second)
        self.power = cuda.complex_to_mag_squared(FFT_SIZE, device=second)
        self.spectra = blocks.vector_sink_f(FFT_SIZE)
        self.connect(self.add, self.head, self.low_pass, self.to_vectors, self.fft, self.power, self.spectra)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--samples", type=int, default=1 << 22)
    parser.add_argument("--sample-rate", type=float, default=32e6)
    parser.add_argument("--tone", type=float, default=3e6, help="Hz, inside the pass band (0.2 of the rate)")
    args = parser.parse_args()

    gr.logging().set_default_level(gr.log_levels.info)
    first, second = 0, min(1, cuda.device_count() - 1)
    backend = "the simulated backend" if cuda.simulated() else "GPU"
    print(f"filter on {backend} device {first}, spectrum on device {second} ({cuda.device_count()} device(s))")
    tb = two_gpus(args.samples, args.sample_rate, args.tone, first, second)
    started = time.perf_counter()
    tb.run()
    seconds = time.perf_counter() - started

    spectrum = np.asarray(tb.spectra.data(), dtype=np.float64).reshape(-1, FFT_SIZE).mean(axis=0)
    spectrum_db = 10 * np.log10(spectrum + 1e-30)
    expected_bin = FFT_SIZE // 2 + round(args.tone / args.sample_rate * FFT_SIZE)
    peak = int(np.argmax(spectrum_db))
    # The pass band ends at 0.25 of the rate (cutoff plus half the transition): compare the
    # noise floor well inside it with the floor well outside it.
    offsets = (np.arange(FFT_SIZE) - FFT_SIZE // 2) / FFT_SIZE
    inside = np.median(spectrum_db[np.abs(offsets) < 0.15])
    outside = np.median(spectrum_db[np.abs(offsets) > 0.35])
    print(f"tone at bin {peak} (expected {expected_bin}); stop band {inside - outside:.1f} dB below the pass band")
    print(f"{args.samples / seconds / 1e6:.1f} Msamples/s through the flowgraph ({seconds:.2f} s)")
    if peak != expected_bin or inside - outside < 40:
        raise SystemExit("the spectrum is wrong: see the figures above")


if __name__ == "__main__":
    main()
