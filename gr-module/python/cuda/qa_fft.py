#!/usr/bin/env python3
#
# SPDX-License-Identifier: GPL-3.0-or-later
#
"""cuda.fft against fft.fft_vcc and fft.fft_vfc on random data."""

import numpy as np
from gnuradio import blocks, fft as gr_fft, gr_unittest

from gnuradio import cuda
from qa_support import run


class qa_fft(gr_unittest.TestCase):
    def setUp(self):
        self.rng = np.random.default_rng(99)

    def complex_data(self, n):
        return (self.rng.standard_normal(n) + 1j * self.rng.standard_normal(n)).astype(np.complex64)

    def test_fft_against_fft_vcc(self):
        for size in (64, 1024, 4096):
            vectors = 37
            data = self.complex_data(size * vectors)
            window = list(np.hanning(size).astype(np.float32))
            for forward, shift, taps in (
                (True, False, []),
                (True, True, window),
                (False, True, window),
                (False, False, []),
            ):
                got = run(
                    blocks.vector_source_c(data, False, size),
                    [cuda.fft(size, forward, taps, shift)],
                    blocks.vector_sink_c(size),
                )
                want = run(
                    blocks.vector_source_c(data, False, size),
                    [gr_fft.fft_vcc(size, forward, taps, shift)],
                    blocks.vector_sink_c(size),
                )
                scale = np.max(np.abs(want))
                np.testing.assert_allclose(
                    got, want, atol=1e-5 * scale, err_msg=f"size {size} forward {forward} shift {shift}"
                )

    def test_output_multiple_the_user_sets(self):
        # The batches stay whole multiples: powers of two of vectors would leave a tail the
        # last call's multiple cannot take, lost at the end of the stream.
        size, vectors = 64, 1001
        data = self.complex_data(size * vectors)
        for multiple in (3, 7, 13):
            results = []
            for make in (cuda.fft, gr_fft.fft_vcc):
                block = make(size, True, [], False)
                block.set_output_multiple(multiple)
                results.append(run(blocks.vector_source_c(data, False, size), [block], blocks.vector_sink_c(size)))
            got, want = results
            self.assertEqual(len(got), len(want), f"output multiple {multiple}")
            np.testing.assert_allclose(got, want, atol=1e-5 * np.max(np.abs(want)), err_msg=f"multiple {multiple}")

    def test_shift_against_fft_vcc_for_odd_and_even_sizes(self):
        # fft_vcc applies ifftshift before an inverse transform and fftshift after a forward
        # one; for odd sizes the two rotations differ. Real input goes to fft_vcc through
        # float_to_complex: GNU Radio 3.10's fft_vfc misplaces items for odd inverse shifts
        # (docs/PORTING.md), and cuda.fft follows fft_vcc.
        vectors = 9
        for size in (1, 5, 7, 8, 255, 256):
            for real_input in (False, True):
                for forward in (True, False):
                    for shift in (False, True):
                        for windowed in (False, True):
                            taps = list(self.rng.uniform(0.5, 1.5, size).astype(np.float32)) if windowed else []
                            if real_input:
                                data = self.rng.standard_normal(size * vectors).astype(np.float32)
                                source = blocks.vector_source_f(data, False, size)
                                cpu = [blocks.vector_to_stream(4, size), blocks.float_to_complex()]
                                cpu += [blocks.stream_to_vector(8, size)]
                                cpu_source = blocks.vector_source_f(data, False, size)
                            else:
                                data = self.complex_data(size * vectors)
                                source = blocks.vector_source_c(data, False, size)
                                cpu, cpu_source = [], blocks.vector_source_c(data, False, size)
                            got = run(
                                source,
                                [cuda.fft(size, forward, taps, shift, real_input)],
                                blocks.vector_sink_c(size),
                            )
                            want = run(
                                cpu_source,
                                cpu + [gr_fft.fft_vcc(size, forward, taps, shift)],
                                blocks.vector_sink_c(size),
                            )
                            np.testing.assert_allclose(
                                got,
                                want,
                                atol=1e-5 * max(1.0, np.max(np.abs(want))),
                                err_msg=f"size {size} real {real_input} forward {forward} shift {shift} "
                                f"window {windowed}",
                            )

    def test_real_input_fft_against_fft_vfc(self):
        size, vectors = 512, 21
        data = self.rng.standard_normal(size * vectors).astype(np.float32)
        got = run(
            blocks.vector_source_f(data, False, size),
            [cuda.fft(size, True, [], False, True)],
            blocks.vector_sink_c(size),
        )
        want = run(
            blocks.vector_source_f(data, False, size), [gr_fft.fft_vfc(size, True, [])], blocks.vector_sink_c(size)
        )
        np.testing.assert_allclose(got, want, atol=1e-5 * np.max(np.abs(want)))


if __name__ == "__main__":
    gr_unittest.run(qa_fft)
