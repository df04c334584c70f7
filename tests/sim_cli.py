#!/usr/bin/env python3
"""Command-line contract of gpufec-sim and gpufec-info: every bad argument or file gives a
non-zero exit and a one-line message on stderr; a good run writes the documented JSON."""
import argparse
import json
import os
import signal
import subprocess
import sys
import tempfile
import time

failures = 0


def check(cond, what):
    global failures
    if not cond:
        failures += 1
        print("FAIL:", what)


def run(cmd):
    return subprocess.run(cmd, capture_output=True, text=True, timeout=120)


def mpi_env():
    """Open MPI on a CI machine: as root, more ranks than cores, one host, no ssh."""
    env = dict(os.environ)
    env.update(OMPI_ALLOW_RUN_AS_ROOT="1", OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1", OMPI_MCA_rmaps_base_oversubscribe="1",
               OMPI_MCA_plm="isolated", OMPI_MCA_btl_vader_single_copy_mechanism="none")
    return env


def mpi_runs(a, tmp, sweep, stats, alone):
    """Issue 22: `mpirun -np 2` ends every point where one process ends it (CPU backend), and a run
    interrupted under mpirun resumes, alone, to the same statistics."""
    out = os.path.join(tmp, "mpi2.json")
    r = subprocess.run([a.mpirun, "-np", "2", a.sim] + sweep + ["--threads", "2", "--json", out],
                       capture_output=True, text=True, timeout=300, env=mpi_env())
    check(r.returncode == 0 and "MPI: 2 ranks" in r.stdout, f"mpirun -np 2: exit {r.returncode}, {r.stderr[-800:]!r}")
    got = stats(out) if r.returncode == 0 else None
    check(got == alone, f"mpirun -np 2 {got} != one process {alone}")
    print("MPI: 2 ranks x 2 threads gave one process's statistics" if got == alone else "MPI: differs")
    part = os.path.join(tmp, "mpi_part.json")
    proc = subprocess.Popen([a.mpirun, "-np", "2", a.sim] + sweep + ["--json", part], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, env=mpi_env())
    deadline = time.time() + 120
    while time.time() < deadline and proc.poll() is None:
        if os.path.exists(part) and len(json.load(open(part))["points"]) >= 2:
            break
        time.sleep(0.05)
    proc.send_signal(signal.SIGINT)
    _, err = proc.communicate(timeout=120)
    saved = json.load(open(part))
    check(not saved["complete"] and saved["points"][-1]["partial"] and "--resume" in err,
          f"SIGINT to mpirun: exit {proc.returncode}, {err[-800:]!r}, last point {saved['points'][-1:]}")
    r = run([a.sim] + sweep + ["--threads", "3", "--resume", part])
    check(r.returncode == 0 and stats(part) == alone,
          f"resumed after mpirun: {r.returncode} {r.stderr!r}: {stats(part) if r.returncode == 0 else None} != {alone}")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--sim", required=True)
    ap.add_argument("--info", required=True)
    ap.add_argument("--data", required=True)
    ap.add_argument("--bench")
    ap.add_argument("--mpirun")
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
    # Issue 21: each of these crashed, invented results or was silently changed. Every family:
    # another output than information bits (the heap was overrun), a decoder or option of another
    # family; a code that cannot encode (BER 0.28 was printed with exit 0).
    turbo = ["--code", "lte-turbo-40", "--decoder", "maxlogmap", "--iterations", "4", "--ebn0", "1:1:1"]
    nb = ["--code", "nb-gf16-504", "--decoder", "min-max", "--iterations", "4", "--ebn0", "1:1:1"]
    ldpc = base + ["--ebn0", "1:1:1"]
    issue21 = [(args + ["--param", "output=" + out], "output=info") for args in (ldpc, turbo, nb)
               for out in ("codeword", "full-codeword")]
    issue21 += [
        (["--code", "nb-gf64-60000", "--decoder", "min-max", "--iterations", "4", "--ebn0", "8:8:1"], "cannot encode"),
        (["--code", "lte-turbo-40", "--decoder", "nms", "--iterations", "4", "--ebn0", "1:1:1"], "maxlogmap|logmap"),
        (["--code", "wifi-648-1_2", "--decoder", "maxlogmap", "--iterations", "4", "--ebn0", "1:1:1"], "spa|ms|nms"),
        (["--code", "nb-gf16-504", "--decoder", "nms", "--iterations", "4", "--ebn0", "1:1:1"], "min-max"),
        (turbo + ["--precision", "int8"], "--precision"),
        (turbo + ["--norm", "0.5"], "--norm"),
        (turbo + ["--schedule", "flooding"], "--schedule"),
        (nb + ["--param", "extrinsic_scale=0.5"], "extrinsic_scale"),
        (ldpc + ["--param", "arithmetic=int8"], "arithmetic"),
    ]
    for args, word in issue21:
        r = run([a.sim] + args)
        lines = [l for l in r.stderr.splitlines() if l.strip()]
        check(r.returncode == 2 and len(lines) == 1 and word in lines[0] and r.stdout.strip() == "",
              f"{args}: exit {r.returncode}, stderr {r.stderr!r}, stdout {r.stdout[-200:]!r}")
        if a.bench and "--ebn0" in args and "output=" not in " ".join(args):
            b = [x for x in args if x not in ("--ebn0", "1:1:1", "8:8:1")]
            r = run([a.bench] + b + ["--frames", "4", "--repeat", "1", "--backend", "cpu"])
            check(r.returncode == 2 and word.split("|")[0] in r.stderr, f"gpufec-bench {b}: exit {r.returncode}, {r.stderr!r}")
    # Issue 22: the same statistics for any number of threads and any batch (frames in fixed units,
    # each made from its own counters); Ctrl-C keeps what is done and --resume ends where an
    # uninterrupted run ends.
    stats = lambda path: [(p["ebn0"], p["frames"], p["frame_errors"], p["bit_errors"], p["iterations"])  # noqa: E731
                          for p in json.load(open(path))["points"]]
    sweep = ["--code", "wifi-648-1_2", "--decoder", "nms", "--iterations", "10", "--ebn0", "1.5:3:0.5",
             "--min-frame-errors", "40", "--max-frames", "150000", "--seed", "5", "--backend", "cpu", "--no-progress"]
    runs = {}
    for name, extra in (("t1", ["--threads", "1", "--batch", "32"]), ("t4", ["--threads", "4", "--batch", "96"])):
        out = os.path.join(tmp, name + ".json")
        r = run([a.sim] + sweep + extra + ["--json", out])
        check(r.returncode == 0, f"sweep {name}: {r.stderr}")
        runs[name] = stats(out) if r.returncode == 0 else None
    check(runs["t1"] is not None and runs["t1"] == runs["t4"], f"threads 1 and 4 differ: {runs}")
    check(runs["t1"] is not None and len(runs["t1"]) == 4, f"sweep points: {runs['t1']}")
    # PGaB draws its perturbations from (seed, frame number): any thread count, the same statistics
    pgab = ["--code", "regular-4-8-1296", "--decoder", "pgab", "--iterations", "100", "--channel", "bsc",
            "--p", "0.04:0.05:0.01", "--min-frame-errors", "30", "--max-frames", "20000", "--seed", "3",
            "--backend", "cpu", "--no-progress"]
    pg = {}
    for t in ("1", "4"):
        out = os.path.join(tmp, "pgab" + t + ".json")
        r = run([a.sim] + pgab + ["--threads", t, "--batch", "64", "--json", out])
        check(r.returncode == 0, f"PGaB --threads {t}: {r.stderr}")
        pg[t] = [(p["frames"], p["frame_errors"], p["bit_errors"], p["iterations"])
                 for p in json.load(open(out))["points"]] if r.returncode == 0 else None
    check(pg["1"] is not None and pg["1"] == pg["4"] and pg["1"][0][1] > 0, f"PGaB threads 1 vs 4: {pg}")
    part = os.path.join(tmp, "part.json")
    proc = subprocess.Popen([a.sim] + sweep + ["--threads", "2", "--json", part], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)
    deadline = time.time() + 120
    while time.time() < deadline and proc.poll() is None:  # interrupt once the first points are saved
        if os.path.exists(part) and len(json.load(open(part))["points"]) >= 2:
            break
        time.sleep(0.05)
    proc.send_signal(signal.SIGINT)
    _, err = proc.communicate(timeout=120)
    check(proc.returncode == 130 and "--resume" in err, f"SIGINT: exit {proc.returncode}, {err!r}")
    saved = json.load(open(part))
    check(not saved["complete"] and saved["points"][-1]["partial"], f"interrupted file: {saved['points'][-1:]}")
    r = run([a.sim] + sweep + ["--threads", "1", "--resume", part])
    check(r.returncode == 0 and "resumed" in r.stdout, f"--resume: {r.returncode} {r.stderr!r}")
    check(r.returncode == 0 and stats(part) == runs["t1"] and json.load(open(part))["complete"],
          f"resumed {stats(part) if r.returncode == 0 else None} != uninterrupted {runs['t1']}")
    other_seed = [("6" if i > 0 and sweep[i - 1] == "--seed" else w) for i, w in enumerate(sweep)]
    r = run([a.sim] + other_seed + ["--resume", part])
    check(r.returncode == 2 and "other settings" in r.stderr, f"--resume with another seed: {r.stderr!r}")
    if a.mpirun:
        mpi_runs(a, tmp, sweep, stats, runs["t1"])
    else:  # a build without MPI refuses a launcher's processes (each would run the whole sweep)
        env = dict(os.environ, OMPI_COMM_WORLD_SIZE="2", OMPI_COMM_WORLD_RANK="0")
        r = subprocess.run([a.sim] + sweep + ["--max-frames", "64"], capture_output=True, text=True, timeout=60, env=env)
        check(r.returncode == 2 and "without MPI" in r.stderr, f"no-MPI build under a launcher: {r.returncode} {r.stderr!r}")
        print("MPI: not built (no MPI found at configure time): refusal under a launcher tested, mpirun runs not")
    # Modulations: Gray QPSK is two BPSK channels, and at the same Eb/N0 its max-log LLRs are BPSK's
    # values on the same noise, so a min-sum decoder counts exactly the same errors; 16-QAM needs
    # more; the erasure channel below the (3,6) threshold 0.429 leaves no error, above 1/2 every frame.
    mod = {}
    for m in ("bpsk", "qpsk", "16qam"):
        out = os.path.join(tmp, m + ".json")
        r = run([a.sim] + sweep[:6] + ["--ebn0", "2:2:1", "--modulation", m, "--min-frame-errors", "30", "--seed", "2",
                                       "--backend", "cpu", "--no-progress", "--json", out])
        check(r.returncode == 0, f"--modulation {m}: {r.stderr}")
        mod[m] = json.load(open(out)) if r.returncode == 0 else None
    if all(mod.values()):
        counts = {m: [(p["frames"], p["frame_errors"], p["bit_errors"]) for p in mod[m]["points"]] for m in mod}
        check(counts["bpsk"] == counts["qpsk"], f"QPSK {counts['qpsk']} != BPSK {counts['bpsk']}")
        check(mod["16qam"]["points"][0]["fer"] > 10 * mod["bpsk"]["points"][0]["fer"], "16-QAM no worse than BPSK")
        check(mod["qpsk"]["parameters"]["modulation"] == "qpsk", "modulation not recorded")
    out = os.path.join(tmp, "bec.json")
    r = run([a.sim, "--code", "regular-3-6-1008", "--decoder", "spa", "--iterations", "50", "--channel", "bec", "--p",
             "0.3:0.6:0.3", "--keep-going", "--min-frame-errors", "20", "--max-frames", "640", "--backend", "cpu",
             "--no-progress", "--json", out])
    pts = json.load(open(out))["points"] if r.returncode == 0 else []
    check(len(pts) == 2 and pts[0]["frame_errors"] == 0 and pts[1]["fer"] == 1.0, f"BEC: {r.stderr} {pts}")
    for bad_args, word in ((["--channel", "bsc", "--p", "0.01:0.01:0.01", "--modulation", "qpsk"], "carries bits"),
                           (["--ebn0", "1:1:1", "--modulation", "8psk"], "8psk"),
                           (["--channel", "bec", "--p", "0.5:1.2:0.1"], "erasure probabilities")):
        r = run([a.sim] + sweep[:6] + bad_args)
        check(r.returncode == 2 and word in r.stderr, f"{bad_args}: {r.stderr!r}")
    # Pictures: gpufec-sim --plot redraws the PNG after every point through gpufec-plot (beside it),
    # which overlays AFF3CT traces; bad files get one line and status 2.
    plot = os.path.join(os.path.dirname(os.path.abspath(a.sim)), "gpufec-plot")
    have_mpl = subprocess.run(["/usr/bin/python3", "-c", "import matplotlib"], capture_output=True).returncode == 0
    if not have_mpl:  # bootstrap.sh installs it; a bare GPU machine has none
        print("SKIPPED: the gpufec-plot checks (no matplotlib for /usr/bin/python3)")

    png, res = os.path.join(tmp, "c.png"), os.path.join(tmp, "c.json")
    r = run([a.sim] + sweep[:6] + ["--ebn0", "1:2:0.5", "--min-frame-errors", "10", "--backend", "cpu", "--no-progress",
                                   "--json", res, "--plot", png])
    check(not have_mpl or r.returncode == 0 and "--plot" not in r.stderr and os.path.exists(png) and
          open(png, "rb").read(8) == b"\x89PNG\r\n\x1a\n", f"--plot: {r.stderr!r}")
    trace = os.path.join(a.data, "LDPC_N576_K288_hlayered_NMS_i100_WiMAX.txt")
    r = run([plot, res, res, "--reference", trace, "--metric", "fer", "-o", os.path.join(tmp, "d.png")])
    check(not have_mpl or r.returncode == 0 and os.path.getsize(os.path.join(tmp, "d.png")) > 10000, f"gpufec-plot: {r.stderr!r}")
    for args, word in (([bad_file], "not a gpufec-sim result"), ([res, "--reference", bad_file], "no trace rows"),
                       ([res, "--reference", "/nonexistent"], "--reference")):
        r = run([plot] + args + ["-o", os.path.join(tmp, "e.png")])
        check(r.returncode == 2 and len(r.stderr.strip().splitlines()) == 1 and (word in r.stderr or not have_mpl),
              f"gpufec-plot {args}: {r.returncode} {r.stderr!r}")
    r = run([a.sim] + sweep[:6] + ["--ebn0", "1:1:1", "--plot", png])
    check(r.returncode == 2 and "--json" in r.stderr, f"--plot without --json: {r.stderr!r}")
    # --all-zero: refused where the decoder saturates asymmetrically (fixed point), the same
    # statistics for any thread count where it runs.
    for args, word in ((["--code", "lte-turbo-1024", "--decoder", "maxlogmap", "--iterations", "4", "--ebn0", "1:1:1",
                         "--backend", "cpu", "--param", "arithmetic=int16"], "int16"),
                       (sweep[:6] + ["--ebn0", "1:1:1", "--precision", "int8", "--backend", "cpu"], "int8")):
        r = run([a.sim] + args + ["--all-zero"])
        check(r.returncode == 2 and "--all-zero" in r.stderr and word in r.stderr, f"--all-zero {args}: {r.stderr!r}")
    # int8p16 saturates symmetrically (+-2047): taken, by its precision, not its variant's text
    r = run([a.sim] + sweep[:6] + ["--ebn0", "2:2:1", "--precision", "int8p16", "--backend", "cpu", "--all-zero",
                                   "--max-frames", "20", "--no-progress"])
    check(r.returncode == 0, f"--all-zero at int8p16: {r.returncode} {r.stderr!r}")
    az = {}
    for t in ("1", "3"):
        out = os.path.join(tmp, f"az{t}.json")
        r = run([a.sim] + sweep[:6] + ["--ebn0", "1.5:2.5:0.5", "--min-frame-errors", "20", "--all-zero", "--threads", t,
                                       "--backend", "cpu", "--no-progress", "--json", out])
        check(r.returncode == 0, f"--all-zero --threads {t}: {r.stderr}")
        az[t] = stats(out) if r.returncode == 0 else None
    check(az["1"] is not None and az["1"] == az["3"] and az["1"][0][2] > 0, f"--all-zero threads 1 vs 3: {az}")
    # A batch larger than the frames to simulate is clamped, not allocated.
    r = run([a.sim] + base + ["--ebn0", "2:2:1", "--batch", "1000000", "--max-frames", "8", "--backend", "cpu"])
    check(r.returncode == 0, f"--batch 1000000 --max-frames 8: {r.returncode} {r.stderr!r}")
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
    # throughput is measured work over measured time: the rates of the threads that decoded are
    # summed, idle threads add nothing (64 threads, 2 batches of 32 frames: at most 2 busy). The
    # count, not a timing, is checked, so the machine's load cannot flip the test.
    out = os.path.join(tmp, "t64.json")
    r = run([a.sim] + base + ["--ebn0", "2:2:1", "--max-frames", "64", "--threads", "64", "--batch", "32",
                              "--backend", "cpu", "--json", out])
    check(r.returncode == 0, f"--threads 64: {r.stderr}")
    if r.returncode == 0:
        p = json.load(open(out))["points"][0]
        check(1 <= p["busy_threads"] <= 2 and p["decoder_mbps"] > 0,
              f"64 threads, 2 batches: {p['busy_threads']} busy, {p['decoder_mbps']} Mb/s")
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
    # The README's code counts are the library's (issue 21: it said 259 when there were 260).
    rows = [l for l in run([a.info, "--list-codes"]).stdout.splitlines() if not l.startswith("#")]
    binary = sum(l.rstrip().endswith("GF(2)") for l in rows)
    readme = open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "README.md")).read()
    check(f"{binary} built-in binary LDPC codes ({len(rows)} built-in codes" in readme,
          f"README does not say {binary} binary LDPC codes, {len(rows)} in all")
    r = run([a.info, "--help"])
    check(r.returncode == 0 and r.stdout.startswith("usage:"), f"gpufec-info --help: {r.returncode} {r.stderr!r}")
    # issue 21: --help explains each option; --params has a header and integer ranges as
    # integers; a turbo code's row has no LDPC columns of zeros; --export-alist on a turbo code
    # names the reason (the family), not the build or backend
    check(len(r.stdout.splitlines()) > 10 and "--export-alist FILE" in r.stdout and "--params" in r.stdout,
          f"gpufec-info --help is not a help text: {r.stdout!r}")
    r = run([a.info, "--params"])
    lines = r.stdout.splitlines()
    check(lines and lines[0].startswith("# name\t"), f"--params header: {lines[:1]}")
    check(all("e+" not in l.split("\t")[3] for l in lines[1:] if l.split("\t")[1] != "float"),
          "--params prints an integer range in exponent form")
    check(any(l.startswith("max_batch\t") and "0..4294967295" in l for l in lines), "max_batch range")
    r = run([a.info, "--code", "lte-turbo-1024:crc=24a"])
    row = r.stdout.splitlines()[-1].split()
    check(r.returncode == 0 and row[4:7] == ["-", "-", "-"] and "turbo" in r.stdout, f"turbo row: {r.stdout!r}")
    r = run([a.info, "--code", "lte-turbo-40", "--export-alist", os.path.join(tmp, "t.alist")])
    check(r.returncode == 2 and "binary LDPC" in r.stderr and "build" not in r.stderr, f"turbo export: {r.stderr!r}")
    r = run([a.info, "--code", "wifi-648-1_2:k=-1"])
    check(r.returncode != 0 and "positive integer" in r.stderr, f":k=-1: {r.stderr!r}")
    r = run([a.info, "--code", "x" * 512])
    check(r.returncode != 0 and "too long" in r.stderr and "malformed" not in r.stderr, f"long name: {r.stderr!r}")
    print("failures:", failures)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
