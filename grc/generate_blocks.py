#!/usr/bin/env python3
"""Writes every family's GRC encoder and decoder block from the library, so that no parameter
list is written by hand: the families (gpufec-info --families), their built-in codes with N, K
and rate (--names), and every decoder option with its type, default, range or choices, labels and
when it matters (--params). Each family's short description (default code, what its encoder and
decoder do) is lib/<family>/grc_block.txt. Every generated block instantiates the same C++
blocks, gpufec::decoder (the options as the library's name=value text) and gpufec::encoder.

Usage: generate_blocks.py GPUFEC_INFO SOURCE_DIR OUTPUT_DIR
Writes gpufec_<family>_decoder.block.yml and gpufec_<family>_encoder.block.yml for every family,
and gpufec.tree.yml."""
import os
import subprocess
import sys

# Options the block sets itself from its own parameters (stream type, framing).
FRAMED = {"input_type", "input_scale", "output"}
# Parameters shown without expanding the block.
PROMINENT = {"max_iterations", "backend"}
ENUM_HIDE_LEVEL = "part"


def run(info, *args):
    return subprocess.run([info, *args], capture_output=True, text=True, check=True).stdout


def q(text):
    """A YAML single-quoted scalar."""
    return "'" + str(text).replace("'", "''") + "'"


def read_params(info):
    params = {}
    for line in run(info, "--params").splitlines():
        if line.startswith("#") or not line.strip():
            continue
        c = line.split("\t")
        params[c[0]] = dict(name=c[0], kind=c[1], default=c[2], range=c[3], labels=c[4], help=c[5],
                            family=c[6], applies=c[7])
    return params


def read_families(info):
    out = []
    for line in run(info, "--families").splitlines():
        c = line.split("\t")
        out.append(dict(name=c[0], label=c[1], algorithm=c[2],
                        options=[] if c[3] == "-" else c[3].split(",")))
    return out


def read_codes(info, family):
    codes = []
    for line in run(info, "--names", family).splitlines():
        c = line.split("\t")
        codes.append((c[0], int(c[1]), int(c[2]), float(c[3])))
    return codes


def read_description(source, family):
    path = os.path.join(source, "lib", family, "grc_block.txt")
    d = {}
    for line in open(path):
        key, _, value = line.partition(":")
        if value:
            d[key.strip()] = value.strip()
    for key in ("default_code", "decoder", "encoder"):
        if key not in d:
            sys.exit(f"generate_blocks.py: {path}: no '{key}:' line")
    return d


class Block:
    """The parameters of one family's decoder block, by GRC id, from the option table."""

    def __init__(self, fam, params):
        self.fam = fam
        self.params = params
        self.grc_id = {fam["algorithm"]: "algorithm"}  # library name -> parameter id
        names = [fam["algorithm"], "max_iterations"]
        names += [o for o in fam["options"] if o != fam["algorithm"]]
        names += [p["name"] for p in params.values() if p["family"] == "common"]
        self.shown = []
        for n in names:
            p = params[n]
            if n in FRAMED or p["help"].endswith("(measurements)") or n in [s["name"] for s in self.shown]:
                continue
            self.shown.append(p)
        self.known = {p["name"] for p in self.shown}

    def pid(self, name):
        return self.grc_id.get(name, name)

    def condition(self, applies, quote="'"):
        """The Python condition under which an option matters, over this block's parameters; a
        term on an option the block does not show (another family's) is dropped."""
        if applies == "-":
            return None
        terms = []
        for term in applies.split("&"):
            option, values = term.split("=")
            if option not in self.known:
                continue
            terms.append(f"{self.pid(option)} in (" + ", ".join(quote + v + quote for v in values.split("|")) + ",)")
        return " and ".join(terms) or None

    def value(self, p, quote="'"):
        """The parameter's value where it matters, else the library's default."""
        cond = self.condition(p["applies"], quote)
        default = quote + p["default"] + quote if p["kind"] == "enum" else p["default"]
        pid = self.pid(p["name"])
        return f"${{ {pid} if {cond} else {default} }}" if cond else f"${{ {pid} }}"


def label_of(p):
    h = p["help"]
    for stop in (";", " ("):
        h = h.split(stop)[0]
    return h[:1].upper() + h[1:]


def code_parameters(codes, description):
    options = [c[0] for c in codes] + ["file"]
    labels = [f"{n}  (N={nn}, K={k}, R={r:.3f})" for n, nn, k, r in codes] + ["Matrix file..."]
    lines = ["-   id: code", "    label: Code", "    dtype: string",
             f"    default: {q(description['default_code'])}",
             "    options: [" + ", ".join(q(o) for o in options) + "]",
             "    option_labels: [" + ", ".join(q(lab) for lab in labels) + "]",
             "-   id: code_file", "    label: Code File", "    dtype: file_open", "    default: ''",
             "    hide: ${ 'none' if code == 'file' else 'all' }"]
    return lines


CODE_PY = "${ code_file if code() == 'file' else code }"
CODE_CPP = '${ __import__("json").dumps(code_file() if code() == "file" else code()) }'


def decoder_yaml(fam, params, codes, description):
    b = Block(fam, params)
    out = [f"id: gpufec_{fam['name']}_decoder", f"label: {fam['label']} Decoder (gpufec)", "category: '[gpufec]'",
           "flags: [python, cpp]", "", "parameters:"]
    out += code_parameters(codes, description)
    out += ["-   id: input_type", "    label: Input Type", "    dtype: enum", "    default: float",
            "    options: [float, int8]", "    option_labels: [Float, Byte (int8)]", "    option_attributes:",
            "        port: [float, byte]"]
    asserts = ["- ${ code != 'file' or len(code_file) > 0 }"]
    for p in b.shown:
        pid = b.pid(p["name"])
        cond = b.condition(p["applies"])
        if pid == "algorithm" or p["name"] in PROMINENT:
            level = "none"
        elif p["kind"] != "enum" and cond:
            level = "none"  # a number that matters only for some choices: show it when it does
        else:
            level = ENUM_HIDE_LEVEL
        out += [f"-   id: {pid}", f"    label: {q('Algorithm' if pid == 'algorithm' else label_of(p))}"]
        if p["kind"] == "enum":
            choices = p["range"].split("|")
            out += ["    dtype: enum", f"    default: {q(p['default'])}",
                    "    options: [" + ", ".join(q(c) for c in choices) + "]",
                    "    option_labels: [" + ", ".join(q(lab) for lab in p["labels"].split(";")) + "]"]
        else:
            out += [f"    dtype: {'float' if p['kind'] == 'float' else 'int'}", f"    default: {q(p['default'])}"]
            if ".." in p["range"]:
                lo, hi = p["range"].split("..")
                asserts.append(f"- ${{ {'not (' + cond + ') or ' if cond else ''}{lo} <= {pid} <= {hi} }}")
        hide = f"${{ '{level}' if {cond} else 'all' }}" if cond else level
        if hide != "none":
            out.append(f"    hide: {q(hide) if cond else hide}")
    out += ["-   id: sign_convention", "    label: Soft-bit Sign", "    dtype: enum", "    default: positive_one",
            "    options: [positive_one, positive_zero]",
            "    option_labels: ['Positive = 1 (GNU Radio soft decoders)', 'Positive = 0 (LLR ln P0/P1)']",
            "-   id: llr_scale", "    label: LLR Scale", "    dtype: float", "    default: '1.0'", "    hide: part",
            "-   id: output_all_bits", "    label: Output", "    dtype: enum", "    default: 'False'",
            "    options: ['False', 'True', info-packed, codeword-packed]",
            "    option_labels: [Information bits (k), Transmitted codeword (n), 'Information bits, 8 per byte',"
            " 'Transmitted codeword, 8 per byte']",
            "-   id: drop_failed", "    label: Failed Frames", "    dtype: enum", "    default: 'False'",
            "    options: ['False', 'True']", "    option_labels: [Pass on (tagged gpufec_ok = False), Drop]",
            "-   id: stats_interval", "    label: Stats Every (frames)", "    dtype: int", "    default: '0'",
            "    hide: part",
            "-   id: harq_processes", "    label: HARQ Processes (by tag)", "    dtype: int", "    default: '0'",
            "    hide: part"]
    asserts += ["- ${ llr_scale > 0 }", "- ${ stats_interval >= 0 }", "- ${ 0 <= harq_processes <= 1024 }"]
    out += ["", "inputs:", "-   label: soft", "    domain: stream", "    dtype: ${ input_type.port }",
            "outputs:", "-   label: bits", "    domain: stream", "    dtype: byte",
            "-   label: stats", "    domain: message", "    id: stats", "    optional: true", "", "asserts:"]
    out += asserts
    # The options text: every shown option (the library's default where it does not matter).
    py_terms, cpp_terms = [], []
    for p in b.shown:
        if p["kind"] == "enum":
            py_terms.append("'" + f"{p['name']}={b.value(p)}" + "'")  # Mako fills it before Python reads it
            cpp_terms.append(f'"{p["name"]}={b.value(p, chr(34))}"')
        else:
            py_terms.append(f"'{p['name']}=%s' % ({b.value(p)},)")
            cpp_terms.append(f'"{p["name"]}=" + std::to_string({b.value(p, chr(34))})')
    py_terms += ["'input_type=${ \"int8\" if input_type == \"int8\" else \"float32\" }'",
                 "'output=${ \"codeword\" if output_all_bits == \"True\" else \"info\" if output_all_bits == \"False\" "
                 "else output_all_bits }'"]
    cpp_terms += ['"input_type=${ "int8" if input_type == "int8" else "float32" }"',
                  '"output=${ "codeword" if output_all_bits == "True" else "info" if output_all_bits == "False" '
                  'else output_all_bits }"']
    py_make = (f"gpufec.decoder({CODE_PY}, ' '.join(({', '.join(py_terms)},)), '${{sign_convention}}', "
               "${llr_scale}, ${stats_interval}, ${drop_failed}, ${harq_processes})")
    cpp_make = (f"this->${{id}} = gr::gpufec::decoder::make({CODE_CPP}, std::string() + "
                + ' + " " + '.join(cpp_terms)
                + ', "${sign_convention}", ${llr_scale}, ${stats_interval}, ${drop_failed.lower()}, ${harq_processes});')
    out += ["", "templates:", "    imports: from gnuradio import gpufec", f"    make: {q(py_make)}",
            "    callbacks:", "    - set_max_iterations(${max_iterations})", "",
            "cpp_templates:", "    includes: ['#include <gnuradio/gpufec/decoder.h>']",
            "    declarations: 'gr::gpufec::decoder::sptr ${id};'", f"    make: {q(cpp_make)}",
            "    link: ['gnuradio-gpufec']", "    callbacks:", "    - set_max_iterations(${max_iterations})", ""]
    doc = [description["decoder"], "",
           "Input: n soft bits per frame, frame-aligned (the first sample is the first soft bit of a frame), or a "
           "tagged stream: a packet_len tag starts a packet, frames start at it and every n soft bits after it; what "
           "is left of a packet that cannot fill a frame, and anything between packets, is skipped. Output: k "
           "information bits per frame (one bit per byte), or the n transmitted bits of the decided word, either "
           "packed eight per byte if chosen (first bit in the most significant, each frame's last byte padded with "
           "zeros; packed on the GPU before the copy back). Input "
           "Type Byte takes signed bytes whose LLR is value x LLR Scale. Soft-bit Sign: GNU Radio's soft "
           "demodulators emit positive values for bit 1 (the default here).",
           "Backend Auto uses a CUDA GPU when one is usable and falls back to the CPU (logged). Every output "
           "frame's first bit carries the tags gpufec_frame, gpufec_iterations and gpufec_ok; Failed Frames = Drop "
           "emits only decoded frames. A decoder whose last 64 frames all failed logs a warning naming the likely "
           "causes.",
           "HARQ Processes > 0 (5G NR rate-matched codes): a frame whose first soft bit carries a harq_process tag "
           "is combined with that process's earlier transmissions (rv tag 0..3, harq_new clears) and decoded; at "
           "most that many processes are kept.", "", "Options (the library's names, gpufec-info --params):"]
    doc += [f"  {p['name']}: {p['help']}" for p in b.shown]
    out += ["documentation: |-"] + ["    " + line if line else "" for line in doc] + ["", "file_format: 1"]
    return "\n".join(out) + "\n"


def encoder_yaml(fam, codes, description):
    out = [f"id: gpufec_{fam['name']}_encoder", f"label: {fam['label']} Encoder (gpufec)", "category: '[gpufec]'",
           "flags: [python, cpp]", "", "parameters:"]
    out += code_parameters(codes, description)
    out += ["", "inputs:", "-   label: bits", "    domain: stream", "    dtype: byte", "outputs:",
            "-   label: coded", "    domain: stream", "    dtype: byte", "", "asserts:",
            "- ${ code != 'file' or len(code_file) > 0 }", "", "templates:",
            "    imports: from gnuradio import gpufec", f"    make: {q(f'gpufec.encoder({CODE_PY})')}", "",
            "cpp_templates:", "    includes: ['#include <gnuradio/gpufec/encoder.h>']",
            "    declarations: 'gr::gpufec::encoder::sptr ${id};'",
            f"    make: {q(f'this->${{id}} = gr::gpufec::encoder::make({CODE_CPP});')}",
            "    link: ['gnuradio-gpufec']", "", "documentation: |-", "    " + description["encoder"], "",
            "file_format: 1"]
    return "\n".join(out) + "\n"


def main():
    info, source, outdir = sys.argv[1:4]
    params = read_params(info)
    families = read_families(info)
    tree = ["'[gpufec]':", "- gpufec_encoder", "- gpufec_decoder"]
    for fam in families:
        codes = read_codes(info, fam["name"])
        description = read_description(source, fam["name"])
        for kind, text in (("encoder", encoder_yaml(fam, codes, description)),
                           ("decoder", decoder_yaml(fam, params, codes, description))):
            with open(os.path.join(outdir, f"gpufec_{fam['name']}_{kind}.block.yml"), "w") as f:
                f.write(text)
            tree.append(f"- gpufec_{fam['name']}_{kind}")
    tree += ["- gpufec_pdu_decoder", "- gpufec_nr_tb_decoder", "- variable_gpufec_ldpc_decoder_def", "- variable_gpufec_decoder_def",
             "- variable_gpufec_encoder_def", "- variable_gpufec_code_parameter"]
    with open(os.path.join(outdir, "gpufec.tree.yml"), "w") as f:
        f.write("\n".join(tree) + "\n")


if __name__ == "__main__":
    main()
