#!/usr/bin/env python3
"""Command-line contract of gpufec-sim and gpufec-info: every bad argument or file gives a
non-zero exit and a one-line message on stderr; a good run writes the documented JSON."""
import argparse
import json
import os
import subprocess
import sys
import tempfile

failures = 0


def check(cond, what):
    global failures
    if not cond:
        failures += 1
        print("FAIL:", what)


def run(cmd):
    return subprocess.run(cmd, capture_output=True, text=True, timeout=120)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--sim", required=True)
    ap.add_argument("--info", required=True)
    ap.add_argument("--data", required=True)
    a = ap.parse_args()
    tmp = tempfile.mkdtemp()
    bad_file = os.path.join(tmp, "bad.alist")
    with open(bad_file, "w") as f:
        f.write("7 3\n3 4\n3 2 2 2 1 1 1\n4 4 4\n1 2 9\n")
    base = ["--code", "mackay-1008-504", "--decoder", "nms", "--iterations", "5"]
    bad = [
        [],
        ["--decoder", "nms", "--iterations", "5", "--ebn0", "1:2:1"],
        base,
        ["--code", "mackay-1008-504", "--decoder", "bogus", "--iterations", "5", "--ebn0", "1:2:1"],
        ["--code", "mackay-1008-504", "--decoder", "nms", "--iterations", "0", "--ebn0", "1:2:1"],
        base + ["--ebn0", "2:1:1"],
        base + ["--ebn0", "1:2"],
        base + ["--ebn0", "a:b:c"],
        base + ["--ebn0", "1:2:1", "--p", "0.01:0.02:0.01"],
        base + ["--channel", "bsc", "--ebn0", "1:2:1"],
        base + ["--channel", "bsc", "--p", "0.4:0.6:0.1"],
        base + ["--channel", "rayleigh", "--ebn0", "1:2:1"],
        base + ["--ebn0", "1:2:1", "--threads", "0"],
        base + ["--ebn0", "1:2:1", "--norm", "2"],
        base + ["--ebn0", "1:2:1", "--backend", "tpu"],
        base + ["--ebn0", "1:2:1", "--bogus-flag"],
        base + ["--ebn0", "1:2:1", "extra"],
        ["--code", bad_file, "--decoder", "nms", "--iterations", "5", "--ebn0", "1:2:1"],
        ["--code", "/nonexistent.alist", "--decoder", "nms", "--iterations", "5", "--ebn0", "1:2:1"],
        base + ["--ebn0", "1:2:1", "--json", "/nonexistent-dir/x.json", "--max-frames", "10"],
        base + ["--ebn0", "0:3:1e-8"],
        base + ["--ebn0", "0:1:1e-300"],
        ["--code", "5gnr-bg1-z24", "--decoder", "gallager-b", "--iterations", "5", "--channel", "bsc",
         "--p", "0.01:0.01:0.01"],
    ]
    for args in bad:
        r = run([a.sim] + args)
        lines = [l for l in r.stderr.splitlines() if l.strip()]
        check(r.returncode != 0, f"exit 0 for {args}")
        check(len(lines) == 1 and lines[0].startswith("gpufec-sim: "), f"stderr {r.stderr!r} for {args}")
    r = run([a.sim, "--code", bad_file, "--decoder", "nms", "--iterations", "5", "--ebn0", "1:2:1"])
    check("line 5" in r.stderr, f"malformed file message does not name the line: {r.stderr!r}")
    # checked before simulating: nothing is simulated (no rows printed) when the output is unwritable
    r = run([a.sim] + base + ["--ebn0", "1:2:1", "--json", "/nonexistent-dir/x.json", "--max-frames", "10"])
    check(r.stdout.strip() == "", f"simulated before finding --json unwritable: {r.stdout!r}")
    r = run([a.sim] + base + ["--ebn0", "0:3:1e-8"])
    check("points" in r.stderr and "limit" in r.stderr, f"point-count message: {r.stderr!r}")
    r = run([a.sim, "--code", "5gnr-bg1-z24", "--decoder", "gallager-b", "--iterations", "5", "--channel", "bsc",
             "--p", "0.01:0.01:0.01"])
    check("punctured" in r.stderr, f"hard decoder on a punctured code: {r.stderr!r}")
    # throughput is measured work over measured time: idle threads add nothing
    mbps = {}
    for threads in (1, 64):
        out = os.path.join(tmp, f"t{threads}.json")
        r = run([a.sim] + base + ["--ebn0", "2:2:1", "--max-frames", "64", "--threads", str(threads),
                                  "--backend", "cpu", "--json", out])
        check(r.returncode == 0, f"--threads {threads}: {r.stderr}")
        mbps[threads] = json.load(open(out))["points"][0]["decoder_mbps"] if r.returncode == 0 else 0
    check(0 < mbps[64] < 4 * mbps[1], f"64 threads (2 of them busy) report {mbps[64]} Mb/s vs {mbps[1]} for one")

    out = os.path.join(tmp, "r.json")
    r = run([a.sim] + base + ["--ebn0", "1:3:1", "--max-frames", "64", "--min-frame-errors", "5",
                              "--backend", "cpu", "--json", out])
    check(r.returncode == 0, f"good run failed: {r.stderr}")
    if r.returncode == 0:
        j = json.load(open(out))
        for key in ["code", "decoder", "iterations", "norm", "offset", "channel", "min_frame_errors",
                    "max_frames", "backend", "seed", "threads"]:
            check(key in j["parameters"], f"parameter {key} missing")
        check(len(j["points"]) == 3, "three points expected")
        for p in j["points"]:
            for key in ["ebn0", "frames", "bit_errors", "frame_errors", "ber", "fer",
                        "mean_iterations", "decoder_mbps", "seconds"]:
                check(key in p, f"point field {key} missing")
        fers = [p["fer"] for p in j["points"]]
        check(fers[0] >= fers[-1], f"FER does not fall with Eb/N0: {fers}")
    r = run([a.sim] + base + ["--channel", "bsc", "--p", "0.02:0.04:0.02", "--max-frames", "64"])
    check(r.returncode == 0 and "0.02000" in r.stdout, f"bsc run failed: {r.stderr}")
    for dec in ["spa", "ms", "oms", "gallager-a", "gallager-b", "pgab"]:
        out = os.path.join(tmp, f"bsc_{dec}.json")
        r = run([a.sim, "--code", "mackay-1008-504", "--decoder", dec, "--iterations", "30", "--channel", "bsc",
                 "--p", "0.01:0.01:0.01", "--max-frames", "64", "--json", out])
        check(r.returncode == 0, f"bsc with {dec} failed: {r.stderr}")
        if r.returncode == 0:
            p = json.load(open(out))["points"][0]
            check(p["frames"] == 64 and p["fer"] < 0.2, f"bsc with {dec}: FER {p['fer']} at p=0.01")

    r = run([a.info, "--list-codes"])
    check(r.returncode == 0 and "mackay-8000-4000" in r.stdout and "wifi-1944-5_6" in r.stdout,
          "gpufec-info --list-codes")
    exported = os.path.join(tmp, "x.alist")
    r = run([a.info, "--code", "wifi-648-1_2", "--export-alist", exported])
    check(r.returncode == 0, f"export failed: {r.stderr}")
    r2 = run([a.info, "--code", exported])
    # N K rate edges dv_max dc_max punct short agree; Z and encoder kind are not in an alist.
    cols = lambda out: out.splitlines()[-1].split()[1:9]
    check(r2.returncode == 0 and cols(r.stdout) == cols(r2.stdout),
          f"exported matrix differs: {r.stdout!r} vs {r2.stdout!r}")
    r = run([a.info, "--code", bad_file])
    check(r.returncode != 0 and "line 5" in r.stderr, "gpufec-info bad file")
    r = run([a.info, "--help"])
    check(r.returncode == 0 and r.stdout.startswith("usage:"), f"gpufec-info --help: {r.returncode} {r.stderr!r}")
    r = run([a.info, "--code", "wifi-648-1_2:k=-1"])
    check(r.returncode != 0 and "positive integer" in r.stderr, f":k=-1: {r.stderr!r}")
    r = run([a.info, "--code", "x" * 512])
    check(r.returncode != 0 and "too long" in r.stderr and "malformed" not in r.stderr, f"long name: {r.stderr!r}")
    print("failures:", failures)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
