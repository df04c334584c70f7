#!/usr/bin/env python3
"""Fills the decoder block's enum drop-downs and hide rules from the library's option table, so
that GRC offers exactly what the library accepts and shows an option only where it matters: runs
`gpufec-info --params` and replaces in the YAML template:
  %%OPTIONS:name%%, %%LABELS:name%%  an enum's choices and labels;
  %%HIDE:name:level%%                its hide rule (level: how it shows where it applies);
  %%CODES:family%%                  a family's built-in codes (gpufec-info --names family),
                                     comma-separated;
  %%RANGE:name%%                    a numeric option's range, as a GRC assert;
  %%APPLIES:name%%, %%DEFAULT:name%% the condition under which it matters and its default, as
                                     Python expressions, so that the generated call passes the
                                     default for a hidden option (suffix _DQ: double quotes, for
                                     the C++ template's single-quoted YAML string).
Usage: generate_params.py GPUFEC_INFO TEMPLATE OUTPUT"""
import re
import subprocess
import sys


def condition(applies, q="'"):
    """Python condition from the library's "opt=a|b&opt2=c" ("-": always)."""
    if applies == "-":
        return "True"
    terms = []
    for term in applies.split("&"):
        option, values = term.split("=")
        terms.append(f"{option} in (" + ", ".join(q + v + q for v in values.split("|")) + ",)")
    return " and ".join(terms)


def literal(kind, value, q="'"):
    return q + value + q if kind == "enum" else value


def hide_rule(applies, level):
    if applies == "-":
        return level
    return "${ '" + level + "' if " + condition(applies) + " else 'all' }"


def main():
    info, template, output = sys.argv[1:4]
    table = subprocess.run([info, "--params"], capture_output=True, text=True, check=True).stdout
    text = open(template).read()
    for line in table.splitlines():
        if line.startswith("#"):  # the header
            continue
        cols = line.split("\t")
        if len(cols) >= 8:
            name, kind, default, applies = cols[0], cols[1], cols[2], cols[7]
            text = re.sub(r"%%HIDE:" + re.escape(name) + r":(none|part)%%",
                          lambda m: hide_rule(applies, m.group(1)), text)
            text = text.replace(f"%%APPLIES:{name}%%", condition(applies))
            text = text.replace(f"%%APPLIES_DQ:{name}%%", condition(applies, '"'))
            text = text.replace(f"%%DEFAULT:{name}%%", literal(kind, default))
            text = text.replace(f"%%DEFAULT_DQ:{name}%%", literal(kind, default, '"'))
            if kind != "enum" and ".." in cols[3]:
                lo, hi = cols[3].split("..")
                text = text.replace(f"%%RANGE:{name}%%", "${ " + lo + " <= " + name + " <= " + hi + " }")
        if len(cols) < 5 or cols[1] != "enum":
            continue
        name, choices, labels = cols[0], cols[3].split("|"), cols[4].split(";")
        quoted = ", ".join("'" + label.replace("'", "''") + "'" for label in labels)
        text = text.replace(f"%%OPTIONS:{name}%%", "[" + ", ".join(choices) + "]")
        text = text.replace(f"%%LABELS:{name}%%", "[" + quoted + "]")
    for family in set(re.findall(r"%%CODES:(\w+)%%", text)):
        names = subprocess.run([info, "--names", family], capture_output=True, text=True, check=True).stdout.splitlines()
        names = [line.split("\t")[0] for line in names if line.strip()]
        text = text.replace(f"%%CODES:{family}%%", ", ".join(names))
    if "%%" in text:
        sys.exit(f"generate_params.py: {template}: a placeholder the library does not fill: "
                 + text[text.index("%%"):][:40])
    open(output, "w").write(text)


if __name__ == "__main__":
    main()
