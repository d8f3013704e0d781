#!/usr/bin/env python3
#
# SPDX-License-Identifier: GPL-3.0-or-later
#
"""cuda.expression_ff/_cc/_cf/_fc against NumPy on random data: every operator and
function, every type combination, several inputs, vectors, parameters changed between runs
and while the flowgraph runs, and bad expressions refused with the block's name."""

import time

import numpy as np
from gnuradio import blocks, gr, gr_unittest

from gnuradio import cuda
from qa_support import flowgraph_test

LENGTH = 10_007  # not a multiple of any block, vector or buffer size
BLOCKS = {"ff": cuda.expression_ff, "cc": cuda.expression_cc, "cf": cuda.expression_cf, "fc": cuda.expression_fc}
SOURCES = {"f": blocks.vector_source_f, "c": blocks.vector_source_c}
SINKS = {"f": blocks.vector_sink_f, "c": blocks.vector_sink_c}
K = 0.75

FLOAT_FUNCTIONS = {
    "sin": np.sin,
    "cos": np.cos,
    "tan": np.tan,
    "atan": np.arctan,
    "sinh": np.sinh,
    "cosh": np.cosh,
    "tanh": np.tanh,
    "exp": np.exp,
    "log": np.log,
    "log10": np.log10,
    "sqrt": np.sqrt,
    "fabs": np.abs,
}

# (types, expression, number of inputs, NumPy reference of the inputs and k)
CASES = [
    ("ff", "(in0 * in1 + k) * in0 - in1", 2, lambda x, k: (x[0] * x[1] + k) * x[0] - x[1]),
    ("ff", "in0 / in1 - -in0 * 2.5f + 1e-1", 2, lambda x, k: x[0] / x[1] + x[0] * 2.5 + 0.1),
    ("ff", "asin(in0 - 1) + acos(in1 - 1)", 2, lambda x, k: np.arcsin(x[0] - 1) + np.arccos(x[1] - 1)),
    (
        "ff",
        "floor(in0 * 8) + ceil(in1 * 8) + trunc(in0 * 8 - 8)",
        2,
        lambda x, k: np.floor(x[0] * 8) + np.ceil(x[1] * 8) + np.trunc(x[0] * 8 - 8),
    ),
    ("ff", "pow(in0, in1) + atan2(in0 - 1, in1 - 1)", 2, lambda x, k: x[0] ** x[1] + np.arctan2(x[0] - 1, x[1] - 1)),
    (
        "ff",
        "fmin(in0, in1) * fmax(in0, in1) + fmod(in0 * 8, in1) + hypot(in0, in1)",
        2,
        lambda x, k: np.minimum(x[0], x[1]) * np.maximum(x[0], x[1]) + np.fmod(x[0] * 8, x[1]) + np.hypot(x[0], x[1]),
    ),
    ("ff", "in0 + in1 + in2 - in3 * k", 4, lambda x, k: x[0] + x[1] + x[2] - x[3] * k),
    ("ff", "abs(in0 - 1) + real(in0) + imag(in0) + norm(in0)", 1, lambda x, k: np.abs(x[0] - 1) + x[0] + x[0] ** 2),
    ("cc", "(in0 * in1 + k) * conj(in0)", 2, lambda x, k: (x[0] * x[1] + k) * np.conj(x[0])),
    ("cc", "in0 / in1 - in0 + -in1", 2, lambda x, k: x[0] / x[1] - x[0] - x[1]),
    ("cc", "complex(real(in0), imag(in1)) * 2", 2, lambda x, k: (x[0].real + 1j * x[1].imag) * 2),
    (
        "cc",
        "polar(abs(in0), arg(in1)) + norm(in0)",
        2,
        lambda x, k: np.abs(x[0]) * np.exp(1j * np.angle(x[1])) + np.abs(x[0]) ** 2,
    ),
    ("cc", "in0 * polar(1, k) + in1 + in2", 3, lambda x, k: x[0] * np.exp(1j * k) + x[1] + x[2]),
    ("cf", "abs(in0) + arg(in1)", 2, lambda x, k: np.abs(x[0]) + np.angle(x[1])),
    ("cf", "real(in0) * imag(in0) - norm(in0) / k", 1, lambda x, k: x[0].real * x[0].imag - np.abs(x[0]) ** 2 / k),
    ("cf", "sin(real(in0)) + sqrt(abs(in0 * in1))", 2, lambda x, k: np.sin(x[0].real) + np.sqrt(np.abs(x[0] * x[1]))),
    ("fc", "complex(in0, in1)", 2, lambda x, k: x[0] + 1j * x[1]),
    ("fc", "polar(in0, in1) + in0 * k", 2, lambda x, k: x[0] * np.exp(1j * x[1]) + x[0] * k),
    ("fc", "conj(in0) / complex(in1, in0)", 2, lambda x, k: x[0] / (x[1] + 1j * x[0])),
] + [("ff", f"{name}(in0)", 1, lambda x, k, f=function: f(x[0])) for name, function in FLOAT_FUNCTIONS.items()]


class qa_expression(flowgraph_test):
    def inputs(self, letter, count, n):
        """Floats in [0.1, 1.9] (inside every function's domain), complex parts in [-2, 2]."""
        if letter == "f":
            return [self.rng.uniform(0.1, 1.9, n).astype(np.float32) for _ in range(count)]
        return [
            (self.rng.uniform(-2, 2, n) + 1j * self.rng.uniform(-2, 2, n)).astype(np.complex64) for _ in range(count)
        ]

    def run_block(self, types, block, data, vlen=1):
        tb = gr.top_block()
        sink = SINKS[types[1]](vlen)
        for port, values in enumerate(data):
            tb.connect(SOURCES[types[0]](values.tolist(), False, vlen), (block, port))
        tb.connect(block, sink)
        tb.run()
        return np.array(sink.data())

    def check(self, types, text, count, reference, vlen=1, n=LENGTH):
        data = self.inputs(types[0], count, n * vlen)
        block = BLOCKS[types](text, count, vlen, {"k": K})
        got = self.run_block(types, block, data, vlen)
        want = reference([x.astype(np.complex128 if types[0] == "c" else np.float64) for x in data], K)
        want = np.broadcast_to(want, (n * vlen,))
        if types[1] == "f":
            want = np.real(want)
        np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-5, err_msg=f"{types} {text!r} vlen {vlen}")

    def test_every_operator_function_and_type_combination(self):
        for types, text, count, reference in CASES:
            with self.subTest(types=types, text=text):
                self.check(types, text, count, reference)
        called = " ".join(text for _, text, _, _ in CASES)
        for name in list(FLOAT_FUNCTIONS) + [
            "asin",
            "acos",
            "floor",
            "ceil",
            "trunc",
            "pow",
            "atan2",
            "fmin",
            "fmax",
            "fmod",
            "hypot",
            "conj",
            "abs",
            "arg",
            "real",
            "imag",
            "norm",
            "polar",
            "complex",
        ]:
            self.assertIn(name + "(", called)
        self.assertEqual({types for types, *_ in CASES}, set(BLOCKS))

    def test_vectors(self):
        for types, text, count, reference in CASES[:: max(1, len(CASES) // 6)]:
            with self.subTest(types=types, text=text):
                self.check(types, text, count, reference, vlen=7, n=333)

    def test_parameters_between_runs(self):
        block = cuda.expression_ff("in0 * gain + offset", 1, 1, {"gain": 2.0, "offset": -1.0})
        self.assertEqual(block.text(), "in0 * gain + offset")
        self.assertEqual(sorted(block.parameter_names()), ["gain", "offset"])
        self.assertEqual(block.parameter("gain"), 2.0)
        (data,) = self.inputs("f", 1, LENGTH)
        for gain, offset in ((2.0, -1.0), (-0.5, 3.25)):
            block.set_parameters({"gain": gain, "offset": offset})
            self.assertEqual(block.parameter("offset"), offset)
            got = self.run_block("ff", block, [data])
            np.testing.assert_allclose(got, data * gain + offset, rtol=1e-6)
        with self.assertRaisesRegex(ValueError, r'^cuda\.expression_ff: name "k" is not a parameter'):
            block.set_parameter("k", 1.0)
        with self.assertRaisesRegex(ValueError, "gain, offset"):
            block.parameter("k")
        # NaN, infinity and values beyond a float's range would only make NaN or infinite
        # output; the parameter keeps its value.
        for value in (float("nan"), float("-inf"), 1e300):
            with self.assertRaisesRegex(ValueError, r'^cuda\.expression_ff: parameters: "gain" must be finite'):
                block.set_parameter("gain", value)
        self.assertEqual(block.parameter("gain"), -0.5)
        with self.assertRaisesRegex(ValueError, '"k" must be finite, got NaN'):
            cuda.expression_ff("in0 * k", 1, 1, {"k": float("nan")})
        # GRC sets them all at once: one bad entry changes none of them.
        for bad in ({"gain": 5.0, "zz": 1.0}, {"offset": 7.0, "gain": float("nan")}):
            with self.assertRaises(ValueError):
                block.set_parameters(bad)
            self.assertEqual((block.parameter("gain"), block.parameter("offset")), (-0.5, 3.25))

    def test_scaling_complex_samples_by_floats_as_cpp(self):
        # Each part by the float, as std::complex<float> and NumPy do; a complex division
        # would square the float (zeros at 1e20, infinities at 1e-25).
        (data,) = self.inputs("c", 1, LENGTH)
        for k in (3.0, 1e20, 1e-25, -0.7):
            for text, reference in (
                ("in0 / k", lambda x: (x.real / np.float32(k)) + 1j * (x.imag / np.float32(k))),
                ("in0 * k", lambda x: (x.real * np.float32(k)) + 1j * (x.imag * np.float32(k))),
            ):
                with self.subTest(text=text, k=k):
                    got = self.run_block("cc", cuda.expression_cc(text, 1, 1, {"k": k}), [data])
                    want = reference(data).astype(np.complex64)
                    self.assertTrue(np.all(np.isfinite(got)))
                    np.testing.assert_allclose(got, want, rtol=2e-7, atol=0)

    def test_expressions_over_several_lines(self):
        (data,) = self.inputs("f", 1, LENGTH)
        block = cuda.expression_ff("in0 *\n  k\n", 1, 1, {"k": 2.0})
        np.testing.assert_array_equal(self.run_block("ff", block, [data]), data * np.float32(2.0))

    def test_set_parameter_while_running(self):
        n = 1 << 18
        (data,) = self.inputs("c", 1, 4096)
        block = cuda.expression_cc("in0 * k", 1, 1, {"k": 1.0})
        tb = gr.top_block()
        sink = blocks.vector_sink_c()
        # Throttled, so that the flowgraph still runs when the parameter changes.
        tb.connect(blocks.vector_source_c(data.tolist(), True), blocks.throttle(8, 2e5), blocks.head(8, n), block, sink)
        tb.start()
        deadline = time.monotonic() + 60
        while len(sink.data()) == 0 and time.monotonic() < deadline:
            time.sleep(0.01)
        block.set_parameter("k", -2.0)
        tb.wait()
        got = np.array(sink.data())
        self.assertEqual(len(got), n)
        source = np.resize(data, n)
        old, new = got == source, np.isclose(got, source * -2.0, rtol=1e-6)
        self.assertTrue(np.all(old | new))
        self.assertTrue(old[0] and new[-1], "the change must fall inside the run")
        switch = np.argmax(new)
        self.assertTrue(np.all(new[switch:]), "after the change every item uses the new value")

    def test_bad_expressions_and_types_name_the_block(self):
        refusals = [
            ("ff", "in0 * * k", "(column 7)"),
            ("cf", "in0 * 2", "real(...)"),
            ("cc", "sin(in0)", "sin takes float arguments"),
            ("fc", "in0 + in1", "in1 is not an input"),
            ("ff", "in0 * gain", 'unknown name "gain"'),
            ("cc", "sine(in0)", 'unknown function "sine"'),
            ("ff", "", "empty"),
            ("ff", "in0 * 010", "leading zero, which C++ reads as octal"),
            ("ff", "in0 *\n * k", "(line 2, column 2)"),
        ]
        for types, text, fragment in refusals:
            with self.subTest(types=types, text=text):
                with self.assertRaises(ValueError) as raised:
                    BLOCKS[types](text, 1, 1, {"k": 1.0})
                message = str(raised.exception)
                self.assertTrue(message.startswith(f"cuda.expression_{types}: expression: "), message)
                self.assertIn(fragment, message)
        with self.assertRaisesRegex(ValueError, r"\n    in0 \* \* k\n          \^$"):
            cuda.expression_ff("in0 * * k", 1, 1, {"k": 1.0})
        # libgrcuda takes C strings: text after a NUL would be dropped without a word.
        with self.assertRaisesRegex(ValueError, r"^cuda\.expression_ff: text holds a NUL character \(at 3\)"):
            cuda.expression_ff("in0\x00; evil", 1, 1, {})
        with self.assertRaisesRegex(ValueError, "a parameter's name holds a NUL character"):
            cuda.expression_ff("in0 * k", 1, 1, {"k\x00;evil": 1.0})
        with self.assertRaisesRegex(ValueError, "name holds a NUL character"):
            cuda.expression_ff("in0 * k", 1, 1, {"k": 1.0}).set_parameter("k\x00", 2.0)


if __name__ == "__main__":
    gr_unittest.run(qa_expression)
