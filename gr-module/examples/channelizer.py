#!/usr/bin/env python3
#
# SPDX-License-Identifier: GPL-3.0-or-later
#
"""Channelizer on the GPU: tones in noise at known channels from the CPU, channel powers back.

    tones + noise (CPU) -> pfb_channelizer_vector_ccf, 64 channels -> |x|^2 of each
    64-vector (both GPU) -> averaging and detection (CPU)

With --streams the channelizer is pfb_channelizer_ccf, one output per channel as GNU
Radio's, joined again by streams_to_vector on the GPU (the form channelizer.grc draws).

Prints the channels that carry energy and the throughput, and exits non-zero when they are
not the channels of the tones. Runs on the GPU when there is one, else on libgrcuda's
simulated backend.
"""

import argparse
import time

import numpy as np
from gnuradio import analog, blocks, gr

from gnuradio import cuda


class channelizer(gr.top_block):
    def __init__(self, samples, channels, sample_rate, tone_channels, streams):
        gr.top_block.__init__(self, "GPU channelizer")
        self.add = blocks.add_cc()
        for port, channel in enumerate(tone_channels):
            # Channel c is centred on c * sample_rate / channels (modulo the sample rate).
            frequency = channel * sample_rate / channels
            self.connect(analog.sig_source_c(sample_rate, analog.GR_COS_WAVE, frequency, 1.0), (self.add, port))
        self.connect(analog.noise_source_c(analog.GR_GAUSSIAN, 0.5, 42), (self.add, len(tone_channels)))
        self.head = blocks.head(gr.sizeof_gr_complex, samples)
        self.power = cuda.complex_to_mag_squared(channels)
        self.powers = blocks.vector_sink_f(channels)
        if streams:
            self.channelizer = cuda.pfb_channelizer_ccf(channels)
            self.to_vectors = cuda.streams_to_vector(gr.sizeof_gr_complex, channels)
            self.connect(self.add, self.head, self.channelizer)
            for channel in range(channels):
                self.connect((self.channelizer, channel), (self.to_vectors, channel))
            self.connect(self.to_vectors, self.power, self.powers)
        else:
            self.channelizer = cuda.pfb_channelizer_vector_ccf(channels)
            self.connect(self.add, self.head, self.channelizer, self.power, self.powers)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--samples", type=int, default=1 << 22)
    parser.add_argument("--channels", type=int, default=64)
    parser.add_argument("--sample-rate", type=float, default=64e6)
    parser.add_argument("--tones", type=int, nargs="+", default=[3, 17, 40, 58])
    parser.add_argument("--streams", action="store_true", help="one channelizer output per channel")
    args = parser.parse_args()

    gr.logging().set_default_level(gr.log_levels.info)
    simulated = cuda.simulated()
    flowgraph = channelizer(args.samples, args.channels, args.sample_rate, args.tones, args.streams)
    started = time.perf_counter()
    flowgraph.run()
    elapsed = time.perf_counter() - started

    steps = np.array(flowgraph.powers.data()).reshape(-1, args.channels)
    if len(steps) != args.samples // args.channels:
        raise SystemExit(f"FAILED: {len(steps)} outputs per channel, not {args.samples // args.channels}")
    powers = steps.mean(axis=0)
    busy = sorted(int(c) for c in np.flatnonzero(powers > 10 * np.median(powers)))
    print(f"channels with energy: {busy} (tones in {sorted(args.tones)})")
    rate = args.samples / elapsed / 1e6
    note = " on the CPU (simulated backend): not a GPU figure" if simulated else " on the GPU"
    print(f"throughput: {rate:.1f} Msamples/s{note} ({elapsed:.2f} s for {args.samples} samples)")
    if busy != sorted(args.tones):
        raise SystemExit("FAILED: the channels with energy are not the tones' channels")
    print("ok: energy in exactly the tones' channels")


if __name__ == "__main__":
    main()
