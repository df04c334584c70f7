#!/usr/bin/env python3
"""Converts the IEEE 802.16e alist matrices (../shared/codes/wimax/) into the compact QC prototype
tables the library embeds (data/codes/wimax/*.qc). Each matrix is checked to be exactly a
24-column array of Z x Z cyclically shifted identities (Z = N/24); anything else is an error.
Run once when the source tables change:  tools/import_wimax.py SRC_DIR DST_DIR"""
import os
import sys

RATES = {"0_5": "1_2", "0_66A": "2_3a", "0_66B": "2_3b", "0_75A": "3_4a", "0_75B": "3_4b", "0_83": "5_6"}


def read_alist(path):
    nums = []
    with open(path) as f:
        for line in f:
            line = line.split("#")[0]
            nums.append([int(t) for t in line.split()])
    nums = [l for l in nums if l]
    n, m = nums[0]
    col_lines = nums[4:4 + n]
    cols = [sorted(r - 1 for r in l if r) for l in col_lines]
    return n, m, cols


def to_qc(n, m, cols):
    z = n // 24
    nb, mb = 24, m // z
    table = [[-1] * nb for _ in range(mb)]
    ones = {}
    for j, rows in enumerate(cols):
        for r in rows:
            ones.setdefault((r // z, j // z), []).append((r % z, j % z))
    for (br, bc), pts in ones.items():
        shifts = {(c - r) % z for r, c in pts}
        if len(pts) != z or len(shifts) != 1 or len({r for r, _ in pts}) != z:
            raise ValueError(f"block ({br},{bc}) is not a shifted identity")
        table[br][bc] = shifts.pop()
    return z, mb, table


def main():
    src, dst = sys.argv[1], sys.argv[2]
    os.makedirs(dst, exist_ok=True)
    count = 0
    for name in sorted(os.listdir(src)):
        if not name.endswith(".alist"):
            continue
        _, n, rate = name[:-6].split("_", 2)
        z, mb, table = to_qc(*read_alist(os.path.join(src, name)))
        out = os.path.join(dst, f"wimax_{n}_{RATES[rate]}.qc")
        with open(out, "w") as f:
            f.write(f"# IEEE 802.16e LDPC, n={n}, rate {RATES[rate].replace('_', '/')}, Z={z}, "
                    f"{mb} x 24 blocks; converted from {name} by tools/import_wimax.py\n")
            for row in table:
                f.write(" ".join(str(s) for s in row) + "\n")
        count += 1
    print(f"converted {count} matrices")


if __name__ == "__main__":
    main()
