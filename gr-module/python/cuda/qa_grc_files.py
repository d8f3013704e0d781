#!/usr/bin/env python3
#
# SPDX-License-Identifier: GPL-3.0-or-later
#
"""Every block has a GRC file under a [CUDA] subcategory, so GRC's block tree shows it where
a GNU Radio user looks for it, and a Device field that reaches the block's constructor."""

import glob
import os

import yaml
from gnuradio import gr_unittest

GRC_DIRECTORY = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "grc")

SUBCATEGORIES = {
    "Sources and Sinks",
    "Stream Operators",
    "Math Operators",
    "Fourier Analysis",
    "Measurement Tools",
    "Type Converters",
    "Filters",
    "Modulators",
    "Resamplers",
    "Channelizers",
    "Python (CuPy)",
}


def block_files():
    return sorted(glob.glob(os.path.join(GRC_DIRECTORY, "cuda_*.block.yml")))


def category(path):
    with open(path, encoding="utf-8") as text:
        for line in text:
            if line.startswith("category:"):
                return line.split(":", 1)[1].strip().strip("'\"")
    return None


class qa_grc_files(gr_unittest.TestCase):
    def test_every_block_file_sits_in_a_cuda_subcategory(self):
        files = block_files()
        self.assertGreater(len(files), 20, GRC_DIRECTORY)
        for path in files:
            with self.subTest(block=os.path.basename(path)):
                found = category(path)
                self.assertIsNotNone(found, "no category line")
                root, _, subcategory = found.partition("/")
                self.assertEqual(root, "[CUDA]")
                self.assertIn(subcategory, SUBCATEGORIES)

    def test_cupy_blocks_sit_together(self):
        for path in block_files():
            with self.subTest(block=os.path.basename(path)):
                cupy = path.endswith("_cupy.block.yml")
                self.assertEqual(category(path) == "[CUDA]/Python (CuPy)", cupy)

    def test_every_gpu_block_file_passes_its_device(self):
        # The reference module's manual-synchronisation blocks run on the default device.
        default_device_only = {"cuda_add_py.block.yml", "cuda_multiply_const_py.block.yml"}
        for path in block_files():
            name = os.path.basename(path)
            if name in default_device_only:
                continue
            with self.subTest(block=name):
                with open(path, encoding="utf-8") as text:
                    block = yaml.safe_load(text)
                device = [p for p in block["parameters"] if p["id"] == "device"]
                self.assertEqual(len(device), 1, "no Device parameter")
                self.assertEqual((device[0]["dtype"], str(device[0]["default"])), ("int", "-1"))
                self.assertIn("${ device >= -1 }", block.get("asserts", []))
                # The constructor call, without the setter lines some templates add after it.
                make = block["templates"]["make"].splitlines()
                constructor = "\n".join(line for line in make if not line.strip().startswith("self."))
                self.assertIn("device=${device}", constructor)
                if "cpp_templates" in block:
                    self.assertIn("${device})", block["cpp_templates"]["make"])

    def test_cpp_templates_write_lists_evaluated(self):
        # In C++ output a list parameter's text is a Python expression (a list, a variable,
        # firdes.low_pass(...)): the templates write its evaluated items (taps()), since
        # slicing the text's brackets off works for list literals only.
        for path in block_files():
            with self.subTest(block=os.path.basename(path)):
                with open(path, encoding="utf-8") as text:
                    block = yaml.safe_load(text)
                cpp = yaml.safe_dump(block.get("cpp_templates", {}))
                self.assertNotIn("[1:-1]", cpp)
                self.assertNotIn("str(taps)", cpp)

    def test_every_cpp_block_is_in_a_cpp_example(self):
        # scripts/gr-module-qa generates, builds and runs these C++ flowgraphs.
        examples = os.path.join(GRC_DIRECTORY, "..", "examples")
        used = set()
        for name in ("spectrum_cpp", "filters_cpp", "blocks_cpp"):
            with open(os.path.join(examples, name + ".grc"), encoding="utf-8") as text:
                used |= {block["id"] for block in yaml.safe_load(text)["blocks"]}
        for path in block_files():
            with open(path, encoding="utf-8") as text:
                block = yaml.safe_load(text)
            if "cpp_templates" in block:
                with self.subTest(block=block["id"]):
                    self.assertIn(block["id"], used)


if __name__ == "__main__":
    gr_unittest.run(qa_grc_files)
