#!/usr/bin/env python3
#
# SPDX-License-Identifier: GPL-3.0-or-later
#
"""Checks the spectra that the C++ flowgraph of spectrum_cpp.grc wrote: the mean spectrum's
peak is at the tone's bin (3/16 of the sample rate, 1024 bins with DC in the middle), 30 dB
or more above the median bin, and every frame of 1024 bins is there. Exits non-zero when it
is off.

Run: spectrum_cpp_check.py [spectrum_cpp.f32]
"""

import sys

import numpy

BINS = 1024
SAMPLES = 1 << 20
TONE_BIN = BINS // 2 + BINS * 3 // 16


def main(path):
    spectra = numpy.fromfile(path, dtype=numpy.float32)
    frames = spectra.size // BINS
    if spectra.size != SAMPLES or frames == 0:
        sys.exit(f"{path}: {spectra.size} values, expected {SAMPLES} ({SAMPLES // BINS} spectra of {BINS} bins)")
    mean = spectra.reshape(frames, BINS).mean(axis=0)
    peak = int(numpy.argmax(mean))
    above = mean[peak] - numpy.median(mean)
    print(
        f"{frames} spectra of {BINS} bins; the peak is at bin {peak} (the tone's: {TONE_BIN}), {above:.1f} dB above the median"
    )
    if peak != TONE_BIN or above < 30:
        sys.exit("the C++ flowgraph's spectrum is off")
    print("ok: the peak is at the tone")


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "spectrum_cpp.f32")
