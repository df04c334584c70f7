#!/usr/bin/env python3
"""Fills the decoder block's enum drop-downs from the library's option table, so that GRC offers
exactly what the library accepts: runs `gpufec-info --params` and replaces %%OPTIONS:name%% and
%%LABELS:name%% in the YAML template. Usage: generate_params.py GPUFEC_INFO TEMPLATE OUTPUT"""
import subprocess
import sys


def main():
    info, template, output = sys.argv[1:4]
    table = subprocess.run([info, "--params"], capture_output=True, text=True, check=True).stdout
    text = open(template).read()
    for line in table.splitlines():
        cols = line.split("\t")
        if len(cols) < 5 or cols[1] != "enum":
            continue
        name, choices, labels = cols[0], cols[3].split("|"), cols[4].split(";")
        quoted = ", ".join("'" + label.replace("'", "''") + "'" for label in labels)
        text = text.replace(f"%%OPTIONS:{name}%%", "[" + ", ".join(choices) + "]")
        text = text.replace(f"%%LABELS:{name}%%", "[" + quoted + "]")
    if "%%" in text:
        sys.exit(f"generate_params.py: {template}: a placeholder the library does not fill: "
                 + text[text.index("%%"):][:40])
    open(output, "w").write(text)


if __name__ == "__main__":
    main()
