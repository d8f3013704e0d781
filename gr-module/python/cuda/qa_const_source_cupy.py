#!/usr/bin/env python3
#
# SPDX-License-Identifier: GPL-3.0-or-later
#
"""const_source_cupy against analog's constant source, every type."""

import numpy as np
from gnuradio import analog, gr_unittest

from gnuradio import cuda
from qa_support import collect, flowgraph_test


class qa_const_source_cupy(flowgraph_test):
    seed = 77

    def test_const_source_against_analog_const_wave(self):
        cpu = {
            np.complex64: analog.sig_source_c,
            np.float32: analog.sig_source_f,
            np.int32: analog.sig_source_i,
            np.int16: analog.sig_source_s,
        }
        values = {np.complex64: 1.5 - 0.25j, np.float32: -2.75, np.int32: -123_456, np.int16: 321}
        for dtype, value in values.items():
            for length in (1, 4097, 100_003):
                ours = cuda.const_source_cupy(value, dtype)
                got, _ = collect(ours, length, dtype)
                theirs = cpu[dtype](0, analog.GR_CONST_WAVE, 0, 0, value)
                want, _ = collect(theirs, length, dtype)
                np.testing.assert_array_equal(got, want)
                np.testing.assert_array_equal(got, np.full(length, value, dtype))
        ours = cuda.const_source_cupy(-5, np.int8)
        got, _ = collect(ours, 10_001, np.int8)
        np.testing.assert_array_equal(got, np.full(10_001, -5, np.int8))

    def test_const_source_setter(self):
        block = cuda.const_source_cupy(1.0, np.float32)
        self.assertEqual(block.const(), 1.0)
        block.set_const(-0.5)
        self.assertEqual(block.const(), -0.5)
        got, _ = collect(block, 5000, np.float32)
        np.testing.assert_array_equal(got, np.full(5000, -0.5, np.float32))


if __name__ == "__main__":
    gr_unittest.run(qa_const_source_cupy)
