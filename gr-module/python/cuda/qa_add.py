#!/usr/bin/env python3
#
# SPDX-License-Identifier: GPL-3.0-or-later
#
"""cuda.add_XX against blocks.add_XX on random data."""

import numpy as np
from gnuradio import blocks, gr, gr_unittest

from gnuradio import cuda


class qa_add(gr_unittest.TestCase):
    def setUp(self):
        self.rng = np.random.default_rng(5)

    def test_add_against_gnuradio(self):
        cases = {
            "ff": (
                cuda.add_ff,
                blocks.add_ff,
                blocks.vector_source_f,
                blocks.vector_sink_f,
                lambda n: self.rng.standard_normal(n).astype(np.float32),
            ),
            "ss": (
                cuda.add_ss,
                blocks.add_ss,
                blocks.vector_source_s,
                blocks.vector_sink_s,
                lambda n: self.rng.integers(-(2**15), 2**15, n).astype(np.int16),
            ),
            "ii": (
                cuda.add_ii,
                blocks.add_ii,
                blocks.vector_source_i,
                blocks.vector_sink_i,
                lambda n: self.rng.integers(-(2**31), 2**31, n).astype(np.int32),
            ),
            "cc": (
                cuda.add_cc,
                blocks.add_cc,
                blocks.vector_source_c,
                blocks.vector_sink_c,
                lambda n: (self.rng.standard_normal(n) + 1j * self.rng.standard_normal(n)).astype(np.complex64),
            ),
        }
        for suffix, (gpu, cpu, source, sink, random) in cases.items():
            for inputs in (1, 3, 17):
                n = 10_007
                data = [random(n) for _ in range(inputs)]
                results = []
                # GNU Radio's add takes its input count from the connections; ours as an argument.
                for adder in (gpu(inputs), cpu()):
                    tb = gr.top_block()
                    snk = sink()
                    for port, values in enumerate(data):
                        # Each GPU input gets its own CPU source (one CPU output per GPU block).
                        tb.connect(source(values), (adder, port))
                    tb.connect(adder, snk)
                    tb.run()
                    results.append(np.array(snk.data()))
                if suffix in ("ff", "cc"):
                    np.testing.assert_allclose(
                        results[0], results[1], rtol=1e-5, atol=1e-5, err_msg=f"{suffix} x{inputs}"
                    )
                else:
                    np.testing.assert_array_equal(results[0], results[1], err_msg=f"{suffix} x{inputs}")


if __name__ == "__main__":
    gr_unittest.run(qa_add)
