#!/usr/bin/env python3
"""Turns a run of `run.sh` (its OUT directory) into `crates/tessera/tests/data/banks_hw.tsv`: one
line per case with the access in `tessera banks`'s words and the hardware's counts (instructions
executed and shared-memory wavefronts, read by ncu). `tests/gpu/banks_hardware.rs` checks Tessera's
analysis and simulator against every line.

Counters used (Nsight Compute names): `l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum`
(ld.shared and ldmatrix), `..._op_st.sum` (st.shared), `smsp__inst_executed_op_shared_ld.sum`,
`smsp__inst_executed_op_shared_st.sum`, `smsp__inst_executed_op_ldsm.sum`.
Usage: collect.py OUTDIR DEST.tsv
"""

from __future__ import annotations

import csv
import sys
from collections import defaultdict
from pathlib import Path


def main() -> None:
    src, dest = Path(sys.argv[1]), Path(sys.argv[2])
    counters: dict[int, dict[str, str]] = defaultdict(dict)
    with open(src / "ncu.csv") as f:
        for row in csv.reader(f):
            if row and row[0].isdigit():
                counters[int(row[0])][row[-3]] = row[-1]
    lines = (src / "cases.tsv").read_text().splitlines()[1:]
    if len(lines) != len(counters):
        sys.exit(f"{len(lines)} cases but {len(counters)} profiled launches")
    gpu = (src / "gpu.txt").read_text().strip().replace("\n", "; ")

    def num(c: dict[str, str], k: str) -> int:
        return int(float(c[k]))

    with open(dest, "w") as out:
        out.write(
            f"# Shared-memory wavefronts measured by tools/banks_hw (run.sh, collect.py): {gpu}\n"
        )
        out.write(
            "# kind\tsmem\taccess\tdtype\tinstr\thw_instructions\thw_wavefronts\n"
        )
        for i, line in enumerate(lines):
            _, kind, smem, access, dtype, instr, _, _, _ = line.split("\t")
            c = counters[i]
            wf = "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_"
            if instr.startswith("st."):
                n, w = (
                    num(c, "smsp__inst_executed_op_shared_st.sum"),
                    num(c, wf + "st.sum"),
                )
            elif instr.startswith("ldmatrix"):
                n, w = num(c, "smsp__inst_executed_op_ldsm.sum"), num(c, wf + "ld.sum")
            else:
                n, w = (
                    num(c, "smsp__inst_executed_op_shared_ld.sum"),
                    num(c, wf + "ld.sum"),
                )
            out.write(f"{kind}\t{smem}\t{access}\t{dtype}\t{instr}\t{n}\t{w}\n")
    print(f"{len(lines)} cases -> {dest}")


if __name__ == "__main__":
    main()
