#!/usr/bin/env python3
#
# SPDX-License-Identifier: GPL-3.0-or-later
#
"""Blocks on several devices: every GPU block takes a `device`, its memory goes there, and
edges between blocks on different devices carry the right samples (peer to peer), with
fan-out and restarts as on one device.

The simulated backend has two devices (GRCUDA_SIMULATED_DEVICES), so CI runs every test
across two. On a machine with one GPU the flowgraphs run with every block on it (the
devices there are), and the placement tests check device 0 alone.
"""

import gc
import inspect
import os
import subprocess
import sys
import time

import numpy as np
from gnuradio import blocks, gr, gr_unittest

from gnuradio import cuda

DEVICE_COUNT = cuda.device_count()
#: The devices the tests spread blocks over: the first two there are.
FIRST, SECOND = 0, min(1, DEVICE_COUNT - 1)


def free_memory(device):
    """Free memory of \\p device, after CuPy hands back what its pool keeps for reuse."""
    if not cuda.simulated():
        import cupy

        with cupy.cuda.Device(device):
            cupy.get_default_memory_pool().free_all_blocks()
    return cuda.free_device_memory(device)


def random_complex(count, seed):
    rng = np.random.default_rng(seed)
    return (rng.standard_normal(count) + 1j * rng.standard_normal(count)).astype(np.complex64)


class scale_on_device(cuda.sync_block):
    """A CuPy block that checks, in work(), that it runs on its own device."""

    def __init__(self, k, device):
        cuda.sync_block.__init__(self, "scale_on_device", [np.complex64], [np.complex64], device=device)
        self.k = np.complex64(k)
        self.devices_seen = set()

    def work(self, input_items, output_items):
        if self.xp is not np:
            self.devices_seen.add(self.xp.cuda.Device().id)
            self.devices_seen.add(input_items[0].device.id)
            self.devices_seen.add(output_items[0].device.id)
        self.xp.multiply(input_items[0], self.k, out=output_items[0])
        return len(output_items[0])


def block_classes():
    """Every GPU block class of the module: the C++ blocks' bindings and the CuPy blocks."""
    bases = {"basic_block", "sync_block", "decim_block", "interp_block", "python_gateway"}
    return {
        name: value
        for name, value in vars(cuda).items()
        if isinstance(value, type)
        and (issubclass(value, gr.gr_python.basic_block) or name.endswith("_cupy"))
        and name not in bases
    }


class qa_devices(gr_unittest.TestCase):
    def test_every_block_takes_a_device_last(self):
        for name, cls in sorted(block_classes().items()):
            with self.subTest(block=name):
                if name.endswith("_cupy"):
                    parameters = list(inspect.signature(cls.__init__).parameters.values())
                    self.assertEqual(parameters[-1].name, "device")
                    self.assertEqual(parameters[-1].default, cuda.default_device)
                else:
                    # pybind11's signature line: "__init__(self, ..., device: int = -1) -> None"
                    signatures = [line for line in cls.__init__.__doc__.splitlines() if "(self" in line]
                    self.assertTrue(signatures, cls.__init__.__doc__)
                    for signature in signatures:
                        self.assertIn("device: int = -1)", signature)

    def test_a_device_the_backend_lacks_is_refused(self):
        makes = [
            lambda d: cuda.multiply_const_cc(2, device=d),
            lambda d: cuda.fft(64, device=d),
            lambda d: cuda.fir_filter_ccf(1, [1.0, 2.0], device=d),
            lambda d: cuda.expression_ff("in0 * 2", device=d),
            lambda d: cuda.multiply_const_cupy(2, device=d),
            lambda d: scale_on_device(2, d),
        ]
        for device in (DEVICE_COUNT, DEVICE_COUNT + 7, -2):
            for index, make in enumerate(makes):
                with self.subTest(device=device, block=index):
                    with self.assertRaises(ValueError) as refused:
                        make(device)
                    message = str(refused.exception)
                    self.assertIn(f"device {device} is refused", message)
                    self.assertIn(f"ordinals 0 to {DEVICE_COUNT - 1}", message)
                    self.assertIn("-1 for the default device", message)

    def test_device_ordinal_resolves_the_default(self):
        self.assertEqual(cuda.device_ordinal(cuda.default_device), cuda.device_ordinal())
        self.assertEqual(cuda.device_ordinal(SECOND), SECOND)
        self.assertEqual(scale_on_device(1, SECOND).device, SECOND)
        self.assertEqual(scale_on_device(1, cuda.default_device).device, cuda.device_ordinal())

    def test_chain_across_devices(self):
        data = random_complex(100_003, 1)
        taps = np.random.default_rng(2).standard_normal(31).astype(np.float32)
        tb = gr.top_block()
        source, sink = blocks.vector_source_c(data), blocks.vector_sink_f()
        python_block = scale_on_device(0.5 - 1j, SECOND)
        tb.connect(
            source,
            cuda.multiply_const_cc(2 + 1j, device=FIRST),
            cuda.fir_filter_ccf(1, taps.tolist(), device=SECOND),
            python_block,
            cuda.multiply_const_cupy(3, device=FIRST),
            cuda.complex_to_mag_squared(device=SECOND),
            sink,
        )
        tb.run()
        scaled = data * np.complex64(2 + 1j)
        filtered = np.convolve(scaled, taps)[: len(data)]
        expected = np.abs(filtered * np.complex64(0.5 - 1j) * 3) ** 2
        np.testing.assert_allclose(sink.data(), expected, rtol=1e-4, atol=1e-3)
        if not cuda.simulated():
            self.assertEqual(python_block.devices_seen, {SECOND})

    def test_fan_out_to_readers_on_both_devices(self):
        data = np.random.default_rng(4).standard_normal(250_001).astype(np.float32)
        tb = gr.top_block()
        source = blocks.vector_source_f(data)
        writer = cuda.multiply_const_ff(2.0, device=FIRST)
        sinks = []
        tb.connect(source, writer)
        for index, device in enumerate((FIRST, SECOND, SECOND)):
            sink = blocks.vector_sink_f()
            tb.connect(writer, cuda.multiply_const_ff(float(index + 1), device=device), sink)
            sinks.append(sink)
        tb.run()
        for index, sink in enumerate(sinks):
            with self.subTest(reader=index):
                np.testing.assert_array_equal(sink.data(), data * np.float32(2.0) * np.float32(index + 1))

    def test_restart_and_rebuild_across_devices(self):
        data = np.random.default_rng(5).standard_normal(50_000).astype(np.float32)
        for cycle in range(3):
            tb = gr.top_block()
            source, sink = blocks.vector_source_f(data), blocks.vector_sink_f()
            tb.connect(
                source,
                cuda.multiply_const_ff(2.0, device=SECOND),
                cuda.multiply_const_ff(3.0, device=FIRST),
                cuda.add_ff(1, device=SECOND),
                sink,
            )
            for run in range(2):
                with self.subTest(cycle=cycle, run=run):
                    sink.reset()
                    source.rewind()
                    tb.start()
                    tb.wait()
                    np.testing.assert_array_equal(sink.data(), data * np.float32(6.0))

    def test_buffers_and_block_memory_go_to_the_block_device(self):
        """A block's output ring, the ring of a CPU writer it reads and its own device
        memory (filter taps) are on its device; the other device gives nothing; all of it
        comes back."""

        # 2001 taps: overlap-save in one kernel of libgrcuda's, which the first run loads.
        # cuFFT (longer filters) loads its kernels lazily, as call sizes first need them, so
        # the second run could hold more than the first left loaded.
        def held_while_running():
            tb = gr.top_block()
            source = blocks.vector_source_c(random_complex(4096, 6), True)
            fir = cuda.fir_filter_ccf(1, [0.5] * 2001, device=SECOND)
            tb.connect(source, fir, cuda.null_sink(8, device=SECOND))
            tb.start()
            try:
                # The driver loads a kernel at its first launch: a run stopped before the
                # filter's first call would leave it to the next run.
                deadline = time.monotonic() + 30
                while fir.nitems_written(0) == 0 and time.monotonic() < deadline:
                    time.sleep(0.001)
                self.assertGreater(fir.nitems_written(0), 0, "the filter never ran")
                return {device: before[device] - free_memory(device) for device in before}
            finally:
                tb.stop()
                tb.wait()

        before = {device: free_memory(device) for device in {FIRST, SECOND}}
        held_while_running()  # the first run also loads kernels, which stay loaded
        gc.collect()
        before = {device: free_memory(device) for device in before}
        held = held_while_running()
        gc.collect()
        # Two rings of at least the floor (the filter's input and output) and the taps.
        self.assertGreaterEqual(held[SECOND], 2 * 1024 * 1024 + 2001 * 8)
        if SECOND != FIRST:
            self.assertEqual(held[FIRST], 0)
        for device, free in before.items():
            self.assertEqual(free_memory(device), free, f"device {device} did not get its memory back")

    def test_readers_without_peer_access_read_a_mirror(self):
        """GPUs that cannot read each other's memory (simulated: the backend's devices
        without peer access): a block on the other device reads a copy of the buffer made
        through host memory, so the samples arrive as with peer access, at other addresses
        than the writer's ring; with peer access the reader's addresses are the writer's."""
        script = (
            "import sys\n"
            "import numpy as np\n"
            "from gnuradio import blocks, cuda, gr\n"
            "class scale(cuda.sync_block):\n"
            "    def __init__(self, k, device):\n"
            "        cuda.sync_block.__init__(self, 'scale', [np.float32], [np.float32], device=device)\n"
            "        self.k, self.inputs, self.outputs = np.float32(k), [], []\n"
            "    def work(self, input_items, output_items):\n"
            "        self.inputs.append(input_items[0].__array_interface__['data'][0])\n"
            "        self.outputs.append(output_items[0].__array_interface__['data'][0])\n"
            "        self.xp.multiply(input_items[0], self.k, out=output_items[0])\n"
            "        return len(output_items[0])\n"
            "data = np.random.default_rng(8).standard_normal(300001).astype(np.float32)\n"
            "tb = gr.top_block()\n"
            "source, sink = blocks.vector_source_f(data), blocks.vector_sink_f()\n"
            "first, second = scale(2.0, 0), scale(3.0, 1)\n"
            "tb.connect(source, first, second, cuda.multiply_const_ff(0.5, device=0),\n"
            "           cuda.fir_filter_fff(1, [1.0], device=1), sink)\n"
            "tb.run()\n"
            "np.testing.assert_allclose(np.array(sink.data()), data * 3, rtol=1e-6)\n"
            # Both start at item 0 of the first block's ring, or of the second's mirror of it.
            "print('in place:', second.inputs[0] == first.outputs[0])\n"
        )
        for access, expected in (("none", "in place: False"), ("all", "in place: True")):
            with self.subTest(peer_access=access):
                environment = dict(os.environ, GRCUDA_BACKEND="simulated", GRCUDA_PEER_ACCESS=access)
                finished = subprocess.run(
                    [sys.executable, "-c", script], env=environment, capture_output=True, text=True, timeout=120
                )
                output = finished.stdout + finished.stderr
                self.assertEqual(finished.returncode, 0, output)
                self.assertIn(expected, output)


if __name__ == "__main__":
    gr_unittest.run(qa_devices)
