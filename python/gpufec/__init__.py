"""gr-gpufec: error-correcting decoders on NVIDIA GPUs (CUDA), with a CPU backend that gives the
same answers.

Blocks: decoder(code, options) and encoder(code) for any code; pdu_decoder; nr_tb_decoder (5G NR
transport blocks in PDUs; nr_tb underneath). For each family of
families(): <family>_decoder, <family>_encoder, and the gr-fec
definitions <family>_decoder_def, <family>_encoder_def (and fec_decoder_def.make,
fec_encoder_def.make). Helpers: builtin_codes(), code_info(name), cuda_available().
"""
from .gpufec_python import *  # noqa: F401,F403
from .nr_tb_decoder import nr_tb_decoder  # noqa: F401


def _options(pairs):
    return " ".join(f"{k}={int(v) if isinstance(v, bool) else v}" for k, v in pairs.items() if v is not None)


def _check_family(code, family, label, what):
    found = code_info(code)["family"]
    if found != family:
        raise ValueError(f"gpufec.{family}_{what}: code '{code}' is a {found} code; this block takes {label} codes: "
                         f"use gpufec.{found}_{what} (or gpufec.{what}, which takes any)")


def _family_blocks(fam):
    """A family's Python conveniences: the family-neutral blocks with the family's code check and its
    algorithm option named `algorithm`; every other option by its library name, defaults the
    library's (gpufec-info --params)."""
    family, label, algorithm_option = fam["name"], fam["label"], fam["algorithm_option"]

    def make_decoder(code, algorithm=None, max_iterations=None, *, sign_convention="positive_one", llr_scale=1.0,
                     stats_interval=0, drop_failed=False, output_all_bits=False, input_type="float", harq_processes=0,
                     **options):
        _check_family(code, family, label, "decoder")
        text = _options({algorithm_option: algorithm, "max_iterations": max_iterations,
                         "input_type": "float32" if input_type == "float" else input_type,
                         "output": "codeword" if output_all_bits else None, **options})
        return decoder(code, text, sign_convention, llr_scale, stats_interval, drop_failed, harq_processes)

    def make_encoder(code):
        _check_family(code, family, label, "encoder")
        return encoder(code)

    def make_decoder_def(code, algorithm=None, max_iterations=None, info="code", sign_convention="positive_one",
                         llr_scale=1.0, **options):
        _check_family(code, family, label, "decoder")
        return fec_decoder_def.make(code, _options({algorithm_option: algorithm, "max_iterations": max_iterations,
                                                    **options}), info, sign_convention, llr_scale)

    def make_encoder_def(code):
        _check_family(code, family, label, "encoder")
        return fec_encoder_def.make(code)

    make_decoder.__doc__ = (
        f"{label} decoder block: gpufec.decoder for {label} codes. algorithm: the library's {algorithm_option}; "
        "further decoder options by their library names (gpufec-info --params), e.g. backend='cuda'. "
        "input_type 'float' or 'int8' sets the stream type; output_all_bits emits the n transmitted bits. "
        "The block's own settings: sign_convention, llr_scale, stats_interval, drop_failed, harq_processes "
        "(5G NR: HARQ combining keyed by harq_process stream tags; gpufec.decoder's help).")
    make_encoder.__doc__ = f"{label} encoder block: gpufec.encoder for {label} codes (k bits in, n out per frame)."
    make_decoder_def.__doc__ = (
        f"A gr-fec decoder definition (fec.extended_decoder and friends) for a {label} code; info='last' takes the "
        "last k codeword bits as information, as gr-fec's parity-check-matrix encoder places them.")
    make_encoder_def.__doc__ = f"A gr-fec encoder definition (fec.extended_encoder and friends) for a {label} code."
    for suffix, fn in (("decoder", make_decoder), ("encoder", make_encoder), ("decoder_def", make_decoder_def),
                       ("encoder_def", make_encoder_def)):
        fn.__name__ = fn.__qualname__ = f"{family}_{suffix}"
        globals()[fn.__name__] = fn


for _fam in families():
    _family_blocks(_fam)


def code_parameter(code, which):
    """One size of a code, as GRC's Code Parameter block gives it to flowgraph variables: which =
    "rate" (k/n, a float), "n" (transmitted bits per frame), "k" or "n_full" (ints)."""
    if not isinstance(code, str):  # GRC's first pass over a flowgraph, before the code variable exists
        raise TypeError(f"gpufec.code_parameter: code must be a string, not {type(code).__name__}")
    if which not in ("rate", "n", "k", "n_full"):
        raise ValueError(f"gpufec.code_parameter: which={which!r}: must be rate, n, k or n_full")
    return code_info(code)[which]


def simulate(code, decoder, iterations, ebn0=None, esn0=None, p=None, channel="awgn", modulation="bpsk",
             min_frame_errors=100, max_frames=1000000, seed=1, backend="auto", threads=None, all_zero=False,
             max_time_per_point=None, keep_going=True, options=None, sim=None):
    """Error rates of a code and decoder, from gpufec-sim (the same engine, the same frames for a
    seed whatever the threads or backend; docs/simulator.md). One of ebn0, esn0 (AWGN) or p (BSC,
    BEC) lists the points, equally spaced. options: further decoder options by name, e.g.
    {"norm": 0.8, "precision": "int8"}. keep_going (default True here, unlike the tool): simulate
    every point, also after one without frame errors. sim: the gpufec-sim program (default: the
    GPUFEC_SIM environment variable, else gpufec-sim on PATH).

    Returns a dict of numpy arrays "x" (the points), "ber", "fer", "frames", "frame_errors",
    "bit_errors", "mean_iterations", "simulated_mbps", and "parameters" (the run's settings)."""
    import json
    import os
    import shutil
    import subprocess
    import tempfile

    import numpy as np

    given = [(name, v) for name, v in (("ebn0", ebn0), ("esn0", esn0), ("p", p)) if v is not None]
    if len(given) != 1:
        raise ValueError("gpufec.simulate: give exactly one of ebn0, esn0 or p")
    name, values = given[0]
    points = np.atleast_1d(np.asarray(values, dtype=float))
    if points.size == 0 or not np.all(np.isfinite(points)):
        raise ValueError(f"gpufec.simulate: {name} must list finite numbers")
    step = points[1] - points[0] if points.size > 1 else 1.0
    if points.size > 1 and (step <= 0 or np.max(np.abs(np.diff(points) - step)) > 1e-9 * max(1.0, abs(step))):
        raise ValueError(f"gpufec.simulate: {name} must be increasing in equal steps (one sweep, one seed)")
    program = sim or os.environ.get("GPUFEC_SIM") or shutil.which("gpufec-sim")
    if not program:
        raise RuntimeError("gpufec.simulate: gpufec-sim not found (install gr-gpufec or set GPUFEC_SIM)")
    args = [program, "--code", str(code), "--decoder", str(decoder), "--iterations", str(int(iterations)),
            "--channel", channel, f"--{name}", f"{points[0]!r}:{points[-1]!r}:{step!r}",
            "--min-frame-errors", str(int(min_frame_errors)), "--max-frames", str(int(max_frames)),
            "--seed", str(int(seed)), "--backend", backend, "--no-progress"]
    if channel == "awgn":
        args += ["--modulation", modulation]
    if threads:
        args += ["--threads", str(int(threads))]
    if all_zero:
        args.append("--all-zero")
    if keep_going:
        args.append("--keep-going")
    if max_time_per_point:
        args += ["--max-time-per-point", str(float(max_time_per_point))]
    for key, value in (options or {}).items():
        args += ["--param", f"{key}={value}"]
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "result.json")
        r = subprocess.run(args + ["--json", path], capture_output=True, text=True)
        if r.returncode != 0:
            lines = [line for line in r.stderr.splitlines() if line.strip()]
            raise RuntimeError(lines[-1] if lines else f"gpufec-sim exited with status {r.returncode}")
        with open(path) as f:
            doc = json.load(f)
    pts = doc["points"]
    out = {"x": np.array([q[doc["parameters"].get("range_of", name)] for q in pts], dtype=float)}
    for key in ("ber", "fer", "mean_iterations", "simulated_mbps"):
        out[key] = np.array([q[key] for q in pts], dtype=float)
    for key in ("frames", "frame_errors", "bit_errors"):
        out[key] = np.array([q[key] for q in pts], dtype=np.int64)
    out["parameters"] = doc["parameters"]
    return out
