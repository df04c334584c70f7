#!/usr/bin/env python3
"""The shipped examples work: the .grc compiles with grcc against our block YAML (built-in code
and custom-file variants) and the generated flowgraph runs; the demo script decodes."""
import os
import re
import shutil
import subprocess
import sys
import tempfile
import unittest

SRC = os.environ.get("GPUFEC_SOURCE_DIR", os.path.join(os.path.dirname(__file__), "..", "..", ".."))
BUILD = os.environ.get("GPUFEC_BUILD_DIR", "")
GRC = os.path.join(SRC, "examples", "ldpc_awgn_demo.grc")


def grc_env():
    env = dict(os.environ)
    blocks = os.path.join(BUILD, "grc") if BUILD else ""
    env["GRC_BLOCKS_PATH"] = blocks + os.pathsep + env.get("GRC_BLOCKS_PATH", "")
    return env


class qa_examples(unittest.TestCase):
    def compile_grc(self, path, out):
        r = subprocess.run(["grcc", "-o", out, path], capture_output=True, text=True, env=grc_env())
        self.assertEqual(r.returncode, 0, r.stdout + r.stderr)
        py = [f for f in os.listdir(out) if f.endswith(".py")]
        self.assertEqual(len(py), 1)
        return os.path.join(out, py[0])

    @unittest.skipIf(shutil.which("grcc") is None, "grcc not installed")
    def test_grc_compiles_and_runs(self):
        with tempfile.TemporaryDirectory() as out:
            py = self.compile_grc(GRC, out)
            text = open(py).read()
            self.assertIn("gpufec.ldpc_encoder('mackay-1008-504')", text)
            self.assertIn("gpufec.ldpc_decoder('mackay-1008-504', 'nms', 20, 0.75, 0.5, 'auto', 0,", text)
            self.assertIn("'auto', 'float32')", text)  # schedule, precision (block defaults)
            r = subprocess.run([sys.executable, py], capture_output=True, text=True, timeout=300)
            self.assertEqual(r.returncode, 0, r.stderr)

    @unittest.skipIf(shutil.which("grcc") is None, "grcc not installed")
    def test_grc_custom_matrix_file(self):
        matrix = os.path.join(SRC, "tests", "data", "96.33.966.alist")
        text = open(GRC).read()
        text = text.replace("    code: mackay_1008_504\n",
                            f"    code: file\n    code_file: {matrix}\n")
        self.assertEqual(text.count("code: file"), 2)
        with tempfile.TemporaryDirectory() as out:
            path = os.path.join(out, "custom.grc")
            open(path, "w").write(text)
            py = self.compile_grc(path, out)
            gen = open(py).read()
            self.assertIn(f"gpufec.ldpc_encoder('{matrix}')", gen)
            self.assertIn(f"gpufec.ldpc_decoder('{matrix}'", gen)

    def test_demo_script(self):
        demo = os.path.join(SRC, "examples", "ldpc_awgn_demo.py")
        r = subprocess.run([sys.executable, demo, "--frames", "300", "--ebn0", "3"],
                           capture_output=True, text=True, timeout=300)
        self.assertEqual(r.returncode, 0, r.stderr)
        before = float(re.search(r"BER before FEC\s+(\S+)", r.stdout).group(1))
        after = float(re.search(r"BER after FEC\s+(\S+)", r.stdout).group(1))
        self.assertGreater(before, 0.03)
        self.assertLess(after, before / 20)
        self.assertRegex(r.stdout, r"backend\s+(cpu|cuda)")
        self.assertRegex(r.stdout, r"decoder\s+[0-9.]+ Mb/s")


if __name__ == "__main__":
    unittest.main()
