#!/usr/bin/env python3
#
# SPDX-License-Identifier: GPL-3.0-or-later
#
"""The CuPy math blocks (multiply_const_cupy, add_cupy, fft_cupy, complex_to_mag_cupy,
complex_to_mag_squared_cupy, nlog10_cupy) against GNU Radio's CPU blocks and NumPy, on random
data of lengths that are not multiples of the buffer sizes."""


import numpy as np
from gnuradio import blocks, fft as gr_fft, gr, gr_unittest

from gnuradio import cuda
from qa_support import flowgraph_test

LENGTHS = (1, 4095, 100_003)

# (dtype, GNU Radio vector source, sink and block-name suffix)
CPU_TYPES = {
    np.complex64: (blocks.vector_source_c, blocks.vector_sink_c, "cc"),
    np.float32: (blocks.vector_source_f, blocks.vector_sink_f, "ff"),
    np.int32: (blocks.vector_source_i, blocks.vector_sink_i, "ii"),
    np.int16: (blocks.vector_source_s, blocks.vector_sink_s, "ss"),
}


def run(source, chain, sink):
    """Runs source -> chain -> sink; the caller keeps the Python blocks of chain alive."""
    tb = gr.top_block()
    tb.connect(source, *chain, sink)
    tb.run()
    return np.array(sink.data())


class qa_cupy_math_blocks(flowgraph_test):
    seed = 2024

    def through(self, dtype, data, chain, vlen=1, sink_vlen=None, sink_dtype=None):
        source_of, _, _ = CPU_TYPES[dtype]
        _, sink_of, _ = CPU_TYPES[sink_dtype or dtype]
        source = source_of(data.tolist() if data.dtype.kind == "i" else data, False, vlen)
        return run(source, chain, sink_of(sink_vlen or vlen))

    def assert_matches(self, got, want, dtype, rtol=1e-6):
        if np.dtype(dtype).kind == "i":
            np.testing.assert_array_equal(got, want)
        else:
            np.testing.assert_allclose(got, want, rtol=rtol, atol=rtol)

    def test_multiply_const_against_multiply_const_xx(self):
        constants = {np.complex64: 0.5 - 2j, np.float32: -3.25, np.int32: 1_000_003, np.int16: -7}
        for dtype, k in constants.items():
            suffix = CPU_TYPES[dtype][2]
            for vlen in (1, 3):
                for length in LENGTHS:
                    data = self.random(dtype, length * vlen)
                    ours = cuda.multiply_const_cupy(k, dtype, vlen)
                    got = self.through(dtype, data, [ours], vlen)
                    theirs = getattr(blocks, "multiply_const_" + suffix)(k, vlen)
                    want = self.through(dtype, data, [theirs], vlen)
                    self.assert_matches(got, want, dtype)
                    with np.errstate(over="ignore"):
                        self.assert_matches(got, data * np.dtype(dtype).type(k), dtype)

    def test_multiply_const_setter(self):
        block = cuda.multiply_const_cupy(2, np.int16)
        self.assertEqual(block.k(), 2)
        block.set_k(-5)
        self.assertEqual(block.k(), -5)
        data = self.random(np.int16, 5000)
        got = self.through(np.int16, data, [block])
        np.testing.assert_array_equal(got, data * np.int16(-5))
        complex_block = cuda.multiply_const_cupy(1j)
        complex_block.set_k(2 - 1j)
        self.assertEqual(complex_block.k(), 2 - 1j)

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
            np.testing.assert_array_equal(np.array(sink.data(), np.uint8).view(np.int8),
                                          streams[0] + streams[1] + streams[2])

    def test_fft_against_fft_vcc(self):
        for size in (16, 257, 1024):
            vectors = 67
            data = self.random(np.complex64, size * vectors)
            window = self.rng.random(size).astype(np.float32)
            for forward in (True, False):
                for shift in (False, True):
                    for taps in ([], window):
                        ours = cuda.fft_cupy(size, forward, taps, shift)
                        got = self.through(np.complex64, data, [ours], size)
                        theirs = gr_fft.fft_vcc(size, forward, list(taps), shift)
                        want = self.through(np.complex64, data, [theirs], size)
                        scale = np.max(np.abs(want))
                        label = f"size {size} forward {forward} shift {shift} window {len(taps)}"
                        np.testing.assert_allclose(got, want, atol=2e-6 * scale, err_msg=label)
                        windowed = data.reshape(-1, size) * (taps if len(taps) else 1)
                        if forward:
                            spectrum = np.fft.fft(windowed, axis=1)
                            expected = np.fft.fftshift(spectrum, axes=1) if shift else spectrum
                        else:
                            shifted = np.fft.ifftshift(windowed, axes=1) if shift else windowed
                            expected = np.fft.ifft(shifted, axis=1, norm="forward")
                        np.testing.assert_allclose(got.reshape(-1, size), expected, atol=2e-6 * scale, err_msg=label)

    def test_fft_real_input_against_fft_vfc(self):
        for size in (64, 1000):
            data = self.random(np.float32, size * 41)
            window = self.rng.random(size).astype(np.float32)
            for forward in (True, False):
                for shift in (False, True):
                    for taps in ([], window):
                        ours = cuda.fft_cupy(size, forward, taps, shift, True)
                        got = self.through(np.float32, data, [ours], size, sink_dtype=np.complex64)
                        theirs = gr_fft.fft_vfc(size, forward, list(taps), shift)
                        want = self.through(np.float32, data, [theirs], size, sink_dtype=np.complex64)
                        np.testing.assert_allclose(got, want, atol=2e-6 * np.max(np.abs(want)),
                                                   err_msg=f"size {size} forward {forward} shift {shift}")

    def test_fft_real_input_odd_size_as_complex(self):
        # GNU Radio 3.10.5.1's fft_vfc drops the last input of an odd-sized reverse shifted
        # transform; real input is transformed here as fft_vcc transforms it.
        size = 255
        data = self.random(np.float32, size * 9)
        window = self.rng.random(size).astype(np.float32)
        for forward in (True, False):
            ours = cuda.fft_cupy(size, forward, window, True, True)
            got = self.through(np.float32, data, [ours], size, sink_dtype=np.complex64)
            theirs = gr_fft.fft_vcc(size, forward, list(window), True)
            want = self.through(np.complex64, data.astype(np.complex64), [theirs], size)
            np.testing.assert_allclose(got, want, atol=2e-6 * np.max(np.abs(want)))

    def test_fft_many_batch_sizes(self):
        """Calls of changing sizes reuse and replace the per-batch plans."""
        size = 128
        data = self.random(np.complex64, size * 3001)
        ours = cuda.fft_cupy(size, True, None, True)
        source = blocks.vector_source_c(data, False, size)
        source.set_max_noutput_items(13)
        got = run(source, [ours], blocks.vector_sink_c(size))
        want = np.fft.fftshift(np.fft.fft(data.reshape(-1, size), axis=1), axes=1)
        np.testing.assert_allclose(got.reshape(-1, size), want, atol=2e-6 * np.max(np.abs(want)))

    def test_complex_to_mag_and_mag_squared(self):
        for vlen in (1, 4):
            for length in LENGTHS:
                data = self.random(np.complex64, length * vlen)
                for ours, theirs, expected in (
                        (cuda.complex_to_mag_cupy(vlen), blocks.complex_to_mag(vlen), np.abs(data)),
                        (cuda.complex_to_mag_squared_cupy(vlen), blocks.complex_to_mag_squared(vlen),
                         data.real * data.real + data.imag * data.imag)):
                    got = self.through(np.complex64, data, [ours], vlen, sink_dtype=np.float32)
                    want = self.through(np.complex64, data, [theirs], vlen, sink_dtype=np.float32)
                    np.testing.assert_allclose(got, want, rtol=1e-6, atol=1e-7)
                    np.testing.assert_allclose(got, expected, rtol=1e-6, atol=1e-7)

    def test_nlog10_against_nlog10_ff(self):
        info = np.finfo(np.float32)
        for n, vlen, k in ((1.0, 1, 0.0), (10.0, 1, 0.0), (20.0, 3, -30.5), (-2.5, 2, 7.0)):
            for length in LENGTHS:
                data = np.abs(self.random(np.float32, length * vlen)) * 1e3
                data[::7] *= 1e-30
                outside = np.zeros(len(data), bool)
                outside[1::11] = outside[2::13] = outside[3::17] = outside[4::19] = True
                data[1::11], data[2::13], data[3::17], data[4::19] = 0.0, -4.0, np.inf, 1e-42
                ours = cuda.nlog10_cupy(n, vlen, k)
                got = self.through(np.float32, data, [ours], vlen)
                want = self.through(np.float32, data, [blocks.nlog10_ff(n, vlen, k)], vlen)
                # GNU Radio computes n/log2(10) * log2(max(x, FLT_MIN) * 10^(k/n)) with VOLK,
                # whose kernels give varying results for infinity and read denormals (the
                # product for x = 0 when k < 0) as 2^-127 * 1.mantissa.
                compared = ~outside | ((data != np.inf) & (k == 0))
                np.testing.assert_allclose(got[compared], want[compared], rtol=1e-5, atol=1e-4 * abs(n))
                expected = n * np.log10(np.clip(data, info.tiny, info.max)) + k
                np.testing.assert_allclose(got, expected, rtol=1e-5, atol=1e-5 * abs(n))

    def test_gpu_chain_with_cpp_blocks_and_cpu_neighbours(self):
        size = 256
        data = self.random(np.complex64, size * 500)
        window = np.hanning(size).astype(np.float32)
        chain = [cuda.multiply_const_cupy(0.25, np.complex64, size), cuda.copy(8 * size), cuda.fft_cupy(size, True, window, True),
                 cuda.complex_to_mag_squared_cupy(size), cuda.nlog10_cupy(10.0, size, -3.0)]
        got = self.through(np.complex64, data, chain, size, sink_dtype=np.float32)
        cpu = [blocks.multiply_const_cc(0.25, size), gr_fft.fft_vcc(size, True, list(window), True),
               blocks.complex_to_mag_squared(size), blocks.nlog10_ff(10.0, size, -3.0)]
        want = self.through(np.complex64, data, cpu, size, sink_dtype=np.float32)
        np.testing.assert_allclose(got, want, rtol=1e-4, atol=1e-3)

    def test_arguments_are_checked(self):
        checks = (
            (TypeError, "multiply_const_cupy supports complex64, float32, int32 and int16, not float64",
             lambda: cuda.multiply_const_cupy(1, np.float64)),
            (TypeError, "takes a real number", lambda: cuda.multiply_const_cupy(1j, np.float32)),
            (TypeError, "must be an integer", lambda: cuda.multiply_const_cupy(1.5, np.int32)),
            (ValueError, "does not fit in int16", lambda: cuda.multiply_const_cupy(40_000, np.int16)),
            (ValueError, "vlen must be between 1 and 2\\^29 - 1 .*, got 0", lambda: cuda.multiply_const_cupy(1, np.float32, 0)),
            (TypeError, "add_cupy supports complex64, float32, int32, int16 and int8, not uint16",
             lambda: cuda.add_cupy(2, np.uint16)),
            (TypeError, "add_cupy supports .*, not 'no such type'", lambda: cuda.add_cupy(2, "no such type")),
            (ValueError, "num_inputs must be between 1 and 2\\^16, got 0", lambda: cuda.add_cupy(0)),
            (ValueError, "window must have fft_size \\(8\\) taps, or none, got 3", lambda: cuda.fft_cupy(8, True, [1, 2, 3])),
            (ValueError, "fft_size must be between 1 and 2\\^27, got 0", lambda: cuda.fft_cupy(0)),
            (TypeError, "fft_size must be an integer", lambda: cuda.fft_cupy(8.0)),
            (TypeError, "vlen must be an integer", lambda: cuda.complex_to_mag_cupy("4")),
            (ValueError, "vlen must be between 1 and 2\\^28 - 1 .*, got -1", lambda: cuda.complex_to_mag_squared_cupy(-1)),
            (TypeError, "n must be a number", lambda: cuda.nlog10_cupy("10")),
            (TypeError, "k .* is complex", lambda: cuda.nlog10_cupy(10, 1, 1j)),
        )
        for error, message, make in checks:
            with self.assertRaisesRegex(error, message):
                make()


if __name__ == "__main__":
    gr_unittest.run(qa_cupy_math_blocks)
