#!/usr/bin/env python3
#
# SPDX-License-Identifier: GPL-3.0-or-later
#
"""add_cupy against blocks.add_XX and NumPy, on random data."""

import numpy as np
from gnuradio import blocks, gr, gr_unittest

from gnuradio import cuda
from qa_support import CPU_TYPES, cpu_comparison_test


class qa_add_cupy(cpu_comparison_test):
    seed = 2024

    def test_add_against_add_xx(self):
        for dtype in CPU_TYPES:
            source_of, sink_of, suffix = CPU_TYPES[dtype]
            for inputs, vlen, length in ((2, 1, 100_003), (3, 1, 4095), (4, 5, 20_011), (1, 2, 777)):
                streams = [self.random(dtype, length * vlen) for _ in range(inputs)]
                ours, theirs = cuda.add_cupy(inputs, dtype, vlen), getattr(blocks, "add_" + suffix)(vlen)
                tb = gr.top_block()
                sinks = sink_of(vlen), sink_of(vlen)
                for port, stream in enumerate(streams):
                    stream = stream.tolist() if stream.dtype.kind == "i" else stream
                    tb.connect(source_of(stream, False, vlen), (ours, port))
                    tb.connect(source_of(stream, False, vlen), (theirs, port))
                tb.connect(ours, sinks[0])
                tb.connect(theirs, sinks[1])
                tb.run()
                self.assert_matches(np.array(sinks[0].data()), np.array(sinks[1].data()), dtype)
                with np.errstate(over="ignore"):
                    self.assert_matches(np.array(sinks[0].data()), sum(streams[1:], streams[0]), dtype, rtol=1e-5)

    def test_add_bytes_against_numpy(self):
        streams = [self.rng.integers(-128, 128, 30_001).astype(np.int8) for _ in range(3)]
        block, sink = cuda.add_cupy(3, np.int8), blocks.vector_sink_b()
        tb = gr.top_block()
        for port, stream in enumerate(streams):
            tb.connect(blocks.vector_source_b(stream.view(np.uint8).tolist()), (block, port))
        tb.connect(block, sink)
        tb.run()
        with np.errstate(over="ignore"):
            np.testing.assert_array_equal(
                np.array(sink.data(), np.uint8).view(np.int8), streams[0] + streams[1] + streams[2]
            )

    def test_arguments_are_checked(self):
        checks = (
            (
                TypeError,
                "add_cupy supports complex64, float32, int32, int16 and int8, not uint16",
                lambda: cuda.add_cupy(2, np.uint16),
            ),
            (TypeError, "add_cupy supports .*, not 'no such type'", lambda: cuda.add_cupy(2, "no such type")),
            (ValueError, "num_inputs must be between 1 and 2\\^16, got 0", lambda: cuda.add_cupy(0)),
        )
        for error, message, make in checks:
            with self.assertRaisesRegex(error, message):
                make()


if __name__ == "__main__":
    gr_unittest.run(qa_add_cupy)
