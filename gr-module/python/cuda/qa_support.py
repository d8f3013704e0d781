#
# SPDX-License-Identifier: GPL-3.0-or-later
#
"""What the QA files of the Python blocks share (not a test itself; CMake skips it).

flowgraph_test: a time limit per test, so that a flowgraph that hangs fails its test instead
of stalling the whole run, and a seeded random generator with the data types blocks take.
"""

import signal

import numpy as np
from gnuradio import gr_unittest


class flowgraph_test(gr_unittest.TestCase):
    time_limit = 300  # seconds per test
    seed = 0

    def setUp(self):
        signal.signal(signal.SIGALRM, lambda *_: self.fail(f"the flowgraph hung (over {self.time_limit} s)"))
        signal.alarm(self.time_limit)
        self.rng = np.random.default_rng(self.seed)

    def tearDown(self):
        signal.alarm(0)

    def random(self, dtype, n):
        """\\p n random items of \\p dtype: normal for floats and complex, the full range for
        integers."""
        dtype = np.dtype(dtype)
        if dtype == np.complex64:
            return (self.rng.standard_normal(n) + 1j * self.rng.standard_normal(n)).astype(np.complex64)
        if dtype == np.float32:
            return self.rng.standard_normal(n).astype(np.float32)
        info = np.iinfo(dtype)
        return self.rng.integers(info.min, info.max, n, endpoint=True).astype(dtype)
