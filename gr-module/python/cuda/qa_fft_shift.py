#!/usr/bin/env python3
#
# SPDX-License-Identifier: GPL-3.0-or-later
#
"""fft_shift against numpy.fft.fftshift on random data, even and odd sizes."""

import numpy as np
from gnuradio import blocks, gr, gr_unittest

from gnuradio import cuda


class qa_fft_shift(gr_unittest.TestCase):
    def setUp(self):
        self.rng = np.random.default_rng(5)

    def test_fft_shift_matches_numpy(self):
        for size in (8, 1024, 1025):
            data = (self.rng.standard_normal(size * 33) + 1j * self.rng.standard_normal(size * 33)).astype(np.complex64)
            tb = gr.top_block()
            sink = blocks.vector_sink_c(size)
            tb.connect(blocks.vector_source_c(data, False, size), cuda.fft_shift(size), sink)
            tb.run()
            want = np.fft.fftshift(data.reshape(-1, size), axes=1).ravel()
            np.testing.assert_array_equal(np.array(sink.data(), dtype=np.complex64), want)


if __name__ == "__main__":
    gr_unittest.run(qa_fft_shift)
