#!/usr/bin/env python3
#
# SPDX-License-Identifier: GPL-3.0-or-later
#
"""fft, stream_to_vector, vector_to_stream, complex_to_mag(_squared) and nlog10_ff against
GNU Radio's CPU blocks on random data."""

import numpy as np
from gnuradio import blocks, fft as gr_fft, gr, gr_unittest

from gnuradio import cuda


def run(source, chain, sink):
    tb = gr.top_block()
    tb.connect(source, *chain, sink)
    tb.run()
    return np.array(sink.data())


class qa_spectrum_blocks(gr_unittest.TestCase):
    def setUp(self):
        self.rng = np.random.default_rng(99)

    def complex_data(self, n):
        return (self.rng.standard_normal(n) + 1j * self.rng.standard_normal(n)).astype(np.complex64)

    def test_fft_against_fft_vcc(self):
        for size in (64, 1024, 4096):
            vectors = 37
            data = self.complex_data(size * vectors)
            window = list(np.hanning(size).astype(np.float32))
            for forward, shift, taps in ((True, False, []), (True, True, window), (False, True, window), (False, False, [])):
                got = run(blocks.vector_source_c(data, False, size),
                          [cuda.fft(size, forward, taps, shift)], blocks.vector_sink_c(size))
                want = run(blocks.vector_source_c(data, False, size),
                           [gr_fft.fft_vcc(size, forward, taps, shift)], blocks.vector_sink_c(size))
                scale = np.max(np.abs(want))
                np.testing.assert_allclose(got, want, atol=1e-5 * scale,
                                           err_msg=f"size {size} forward {forward} shift {shift}")

    def test_real_input_fft_against_fft_vfc(self):
        size, vectors = 512, 21
        data = self.rng.standard_normal(size * vectors).astype(np.float32)
        got = run(blocks.vector_source_f(data, False, size), [cuda.fft(size, True, [], False, True)],
                  blocks.vector_sink_c(size))
        want = run(blocks.vector_source_f(data, False, size), [gr_fft.fft_vfc(size, True, [])],
                   blocks.vector_sink_c(size))
        np.testing.assert_allclose(got, want, atol=1e-5 * np.max(np.abs(want)))

    def test_stream_to_vector_and_back(self):
        data = self.complex_data(128 * 1000 + 77)
        got = run(blocks.vector_source_c(data), [cuda.stream_to_vector(8, 128), cuda.vector_to_stream(8, 128)],
                  blocks.vector_sink_c())
        np.testing.assert_array_equal(got, data[: 128 * 1000])

    def test_magnitudes_and_decibels(self):
        for n in (1, 999, 250_001):
            data = self.complex_data(n)
            for gpu, cpu in ((cuda.complex_to_mag, blocks.complex_to_mag), (cuda.complex_to_mag_squared, blocks.complex_to_mag_squared)):
                got = run(blocks.vector_source_c(data), [gpu()], blocks.vector_sink_f())
                want = run(blocks.vector_source_c(data), [cpu()], blocks.vector_sink_f())
                np.testing.assert_allclose(got, want, rtol=1e-5)
            power = np.abs(data).astype(np.float32) ** 2
            got = run(blocks.vector_source_f(power), [cuda.nlog10_ff(10, 1, -3)], blocks.vector_sink_f())
            want = run(blocks.vector_source_f(power), [blocks.nlog10_ff(10, 1, -3)], blocks.vector_sink_f())
            np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-4)


if __name__ == "__main__":
    gr_unittest.run(qa_spectrum_blocks)
