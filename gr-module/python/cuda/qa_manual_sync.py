#!/usr/bin/env python3
#
# SPDX-License-Identifier: GPL-3.0-or-later
#
"""The reference module's manual-synchronisation API: blocks written in its style (GNU Radio
gr.sync_block and gr.basic_block subclasses with their own stream, cuda.io_signature_make,
wait_for_inputs/mark_outputs_ready or wait_for_work/mark_work_done around their CuPy work),
multiply_const_py and add_py, next to this module's C++ and CuPy blocks; CuPy on a GPU, NumPy
on the simulated backend."""

import gc
import weakref

import numpy as np
from gnuradio import analog, blocks, gr, gr_unittest

from gnuradio import cuda
from qa_support import LENGTHS, flowgraph_test

xp = cuda.array_module()


class scale_block(gr.sync_block):
    """The reference's custom GPU block, as its QA writes it (cp is CuPy, or NumPy here)."""

    def __init__(self, factor):
        sig_in = cuda.io_signature_make(1, 1, np.complex64)
        sig_out = cuda.io_signature_make(1, 1, np.complex64)
        gr.sync_block.__init__(self, "scale_block", in_sig=sig_in, out_sig=sig_out)
        self.factor = factor
        self.stream = cuda.new_stream()

    def work(self, input_items, output_items):
        cuda.wait_for_inputs(self.gateway, self.stream.ptr)
        with self.stream:
            d_in = cuda.as_cupy(input_items[0])
            d_out = cuda.as_cupy(output_items[0])
            xp.multiply(d_in, self.factor, out=d_out)
        cuda.mark_outputs_ready(self.gateway, self.stream.ptr)
        return len(input_items[0])


class scale_block_passing_self(scale_block):
    """The same block handing the helpers itself rather than its gateway."""

    def work(self, input_items, output_items):
        cuda.wait_for_inputs(self, self.stream.ptr)
        with self.stream:
            xp.multiply(cuda.as_cupy(input_items[0]), self.factor, out=cuda.as_cupy(output_items[0]))
        cuda.mark_outputs_ready(self, self.stream.ptr)
        return len(input_items[0])


class pair_sum_block(gr.basic_block):
    """A general block in the same style: out[i] = in[2i] + in[2i + 1], with the newer
    names wait_for_work/mark_work_done."""

    def __init__(self):
        sig = cuda.io_signature_make(1, 1, np.float32)
        gr.basic_block.__init__(self, "pair_sum_block", in_sig=sig, out_sig=sig)
        self.set_relative_rate(1, 2)
        self.stream = cuda.new_stream()

    def forecast(self, noutput_items, ninputs):
        return [2 * noutput_items] * ninputs

    def general_work(self, input_items, output_items):
        pairs = min(len(input_items[0]) // 2, len(output_items[0]))
        cuda.wait_for_work(self.gateway, self.stream)
        with self.stream:
            d_in = cuda.as_cupy(input_items[0])[: 2 * pairs].reshape(pairs, 2)
            xp.add(d_in[:, 0], d_in[:, 1], out=cuda.as_cupy(output_items[0])[:pairs])
        cuda.mark_work_done(self.gateway, self.stream)
        self.consume_each(2 * pairs)
        return pairs


class own_stream_block(cuda.sync_block):
    """One of this module's blocks calling the helpers, with its own stream (nothing to do)
    or with a second stream (the helpers wait for it)."""

    def __init__(self, second_stream):
        cuda.sync_block.__init__(self, "own_stream_block", [np.float32], [np.float32])
        self.second = cuda.new_stream() if second_stream else None

    def work(self, input_items, output_items):
        if self.second is None:
            cuda.wait_for_inputs(self.gateway, self.stream_handle)
            self.xp.subtract(input_items[0], 1.0, out=output_items[0])
            cuda.mark_outputs_ready(self.gateway, self.stream_handle)
        else:
            cuda.wait_for_inputs(self.gateway, self.second.ptr)
            with self.second:
                self.xp.subtract(input_items[0], 1.0, out=output_items[0])
            cuda.mark_outputs_ready(self.gateway, self.second.ptr)
        return len(output_items[0])


class qa_manual_sync(flowgraph_test):
    def run_chain(self, data, chain, sink):
        tb = gr.top_block()
        source = blocks.vector_source_c(data) if data.dtype == np.complex64 else blocks.vector_source_f(data)
        tb.connect(source, *chain, sink)
        tb.run()
        return np.array(sink.data())

    def test_reference_style_block_between_cpu_blocks(self):
        for n in LENGTHS:
            data = self.random(np.complex64, n)
            block = scale_block(2.5)
            got = self.run_chain(data, [block], blocks.vector_sink_c())
            np.testing.assert_allclose(got, data * 2.5, rtol=1e-6, err_msg=f"{n} items")

    def test_reference_style_blocks_between_gpu_blocks(self):
        # CPU -> C++ -> manual -> CuPy -> manual -> C++ -> CPU: every edge kind, in both
        # directions, next to stream-ordered blocks, with small calls that wrap the rings.
        data = self.random(np.complex64, 300_007)
        chain = [
            cuda.copy(8),
            scale_block(2.0),
            cuda.multiply_const_cupy(1j, np.complex64),
            cuda.multiply_const_py(0.5 + 0j),
            cuda.multiply_const_cc(-1),
        ]
        for block in chain:
            block.set_max_noutput_items(4099)
        got = self.run_chain(data, chain, blocks.vector_sink_c())
        np.testing.assert_allclose(got, data * 2.0 * 1j * 0.5 * -1, rtol=1e-6)

    def test_add_py_fan_in(self):
        data = self.random(np.float32, 200_003)
        tb = gr.top_block()
        source = blocks.vector_source_f(data)
        to_gpu = cuda.copy(4)
        doubled = cuda.multiply_const_py(2.0, np.float32)
        tripled = cuda.multiply_const_ff(3.0)
        adder = cuda.add_py(3, np.float32)
        sink = blocks.vector_sink_f()
        tb.connect(source, to_gpu)
        tb.connect(to_gpu, doubled, (adder, 0))
        tb.connect(to_gpu, tripled, (adder, 1))
        tb.connect(to_gpu, cuda.copy(4), (adder, 2))
        tb.connect(adder, sink)
        tb.run()
        np.testing.assert_allclose(np.array(sink.data()), data * 6, rtol=1e-6)

    def test_vector_items(self):
        # The blocks are made inline, referenced by nothing but the flowgraph, as in
        # tb.connect(source, cuda.multiply_const_py(...), sink): they live while it does.
        data = self.random(np.float32, 4 * 5001)
        for chain, expected in (
            (lambda: [cuda.multiply_const_py(-2.0, np.float32, 4)], data * -2.0),
            (lambda: [cuda.add_py(1, np.float32, 4)], data),
            (lambda: [cuda.multiply_const_py(-2.0, np.float32, 4), cuda.add_py(1, np.float32, 4)], data * -2.0),
        ):
            tb = gr.top_block()
            sink = blocks.vector_sink_f(4)
            tb.connect(blocks.vector_source_f(data, False, 4), *chain(), sink)
            gc.collect()
            tb.run()
            np.testing.assert_allclose(np.array(sink.data()), expected, rtol=1e-6)

    def test_inline_blocks_are_released_with_their_flowgraph(self):
        block = cuda.multiply_const_py(2.0, np.float32)
        alive = weakref.ref(block)
        tb = gr.top_block()
        tb.connect(blocks.vector_source_f(self.random(np.float32, 1000)), block, blocks.null_sink(4))
        del block
        gc.collect()
        self.assertIsNotNone(alive(), "freed while its flowgraph holds it")
        tb.run()
        del tb
        gc.collect()
        self.assertIsNone(alive(), "kept after its flowgraph was freed")

    def test_reference_style_general_block(self):
        data = self.random(np.float32, 100_001)
        block = pair_sum_block()
        block.set_max_noutput_items(777)
        got = self.run_chain(data, [cuda.copy(4), block, cuda.copy(4)], blocks.vector_sink_f())
        np.testing.assert_allclose(got, data[:-1:2] + data[1::2], rtol=1e-5)

    def test_helpers_on_this_modules_blocks(self):
        for second_stream in (False, True):
            data = self.random(np.float32, 100_003)
            block = own_stream_block(second_stream)
            got = self.run_chain(data, [cuda.copy(4), block, cuda.copy(4)], blocks.vector_sink_f())
            np.testing.assert_allclose(got, data - 1.0, rtol=1e-6, err_msg=f"second stream {second_stream}")

    def test_set_k_and_restart(self):
        data = self.random(np.float32, 10_007)
        block = cuda.multiply_const_py(3.0, np.float32)
        self.assertEqual(block.k(), 3.0)
        block.set_k(-4.0)
        self.assertEqual(block.k(), -4.0)
        tb = gr.top_block()
        sink = blocks.vector_sink_f()
        tb.connect(blocks.vector_source_f(data), block, sink)
        tb.run()
        tb.run()  # the second run finds the source at its end: nothing more
        np.testing.assert_allclose(np.array(sink.data()), data * -4.0, rtol=1e-6)

    def test_names_of_the_reference(self):
        self.assertIs(cuda.cuda_buffer.type, cuda.cuda_buffer_type)
        for name in ("CONST", "SIN", "COS", "SQR", "TRI", "SAW"):
            self.assertEqual(getattr(cuda, f"GR_{name}_WAVE"), getattr(analog, f"GR_{name}_WAVE"))
        for name in ("UNIFORM", "GAUSSIAN", "LAPLACIAN", "IMPULSE"):
            self.assertEqual(getattr(cuda, f"GR_{name}"), getattr(analog, f"GR_{name}"))
        self.assertEqual(int(cuda.GR_SIN_WAVE), 101)
        self.assertEqual(int(cuda.GR_GAUSSIAN), 201)
        bare = cuda.io_signature_make(1, 2, np.float32)
        listed = cuda.io_signature_make(2, 2, [(np.float32, 4), np.int16])
        # sizeof_stream_item(index): GNU Radio 3.10.12's binding has no sizeof_stream_items().
        self.assertEqual(bare.gr_io_signature().sizeof_stream_item(0), 4)
        self.assertEqual([listed.gr_io_signature().sizeof_stream_item(i) for i in (0, 1)], [16, 2])
        self.assertEqual(bare.gr_io_signature().max_streams(), 2)

    def test_register_cuda_stream(self):
        block = scale_block(1.0)
        with self.assertRaisesRegex(ValueError, "derive it from cuda.sync_block"):
            cuda.register_cuda_stream(block.gateway, block.stream.ptr)
        own = own_stream_block(False)
        cuda.register_cuda_stream(own.gateway, own.stream_handle)
        if not cuda.simulated():
            with self.assertRaisesRegex(ValueError, "run work\\(\\) on their own stream"):
                cuda.register_cuda_stream(own.gateway, cuda.new_stream().ptr)
        with self.assertRaisesRegex(ValueError, "not in a running flowgraph"):
            cuda.wait_for_inputs(block.gateway, 0)
        # The Python block itself stands for its gateway; anything else is refused by name.
        with self.assertRaisesRegex(ValueError, "derive it from cuda.sync_block"):
            cuda.register_cuda_stream(block, block.stream.ptr)
        cuda.register_cuda_stream(own, own.stream_handle)
        for helper in ("wait_for_inputs", "mark_outputs_ready", "wait_for_work", "mark_work_done"):
            with self.assertRaisesRegex(TypeError, f"cuda.{helper}: expected a GNU Radio block .* got int"):
                getattr(cuda, helper)(42, 0)

    def test_helpers_take_the_python_block_for_its_gateway(self):
        data = self.random(np.complex64, 50_001)
        got = self.run_chain(data, [cuda.copy(8), scale_block_passing_self(2.0), cuda.copy(8)], blocks.vector_sink_c())
        np.testing.assert_allclose(got, data * 2.0, rtol=1e-6)


if __name__ == "__main__":
    gr_unittest.run(qa_manual_sync)
