#!/usr/bin/env python3
"""List every sm80/sm89/sm90 GEMM kernel the CUTLASS library generator emits, with its fields.

    python3 tools/oracle/cutlass_kernels.py      # writes crates/tessera/tests/data/cutlass_kernels.tsv

Runs the generator of the `nvidia-cutlass` wheel (`cutlass_library`, fetched with `pip download
--no-deps` into tools/.cache/, as tools/oracle/generate.py does) for architectures 80, 89 and 90a
with CUDA 12.9 and `--kernels all`, and writes one JSON object per GEMM operation: its procedural
name (what `cutlass_profiler` prints) and the fields the generator built it from (arch, element
and layout and alignment of A/B/C/D, accumulator, tile, cluster, stages, warp count, instruction
shape, kernel and epilogue schedule, tile scheduler) into tools/.cache/cutlass_kernels.jsonl, and
the committed test data: one line per kernel, `NAME<TAB>arch<TAB>alignments A,B,C,D as emitted
<TAB>warp count`, the fields a name does not spell (C and D alignments are those the emitter
passes to the builder: 16 bytes for a TMA epilogue, `get_tma_alignment`).
`tessera check --cutlass NAME` must parse every name to the generator's fields
(crates/tessera/tests/gpu/check_cutlass.rs).
"""
import json
import os
import subprocess
import sys
import types
import zipfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.abspath(os.path.join(HERE, "..", ".."))
CACHE = os.path.join(ROOT, "tools", ".cache")
WHEEL = ("nvidia-cutlass", "4.2.0.0")
OUT = os.path.join(ROOT, "crates", "tessera", "tests", "data", "cutlass_kernels.tsv")
FULL = os.path.join(CACHE, "cutlass_kernels.jsonl")  # every field, for tools (not committed)


def unpack():
    wdir = os.path.join(CACHE, "wheels")
    os.makedirs(wdir, exist_ok=True)
    name = WHEEL[0].replace("-", "_") + "-" + WHEEL[1]
    have = [f for f in os.listdir(wdir) if f.startswith(name)]
    if not have:
        subprocess.run([sys.executable, "-m", "pip", "download", "--no-deps", "-d", wdir,
                        f"{WHEEL[0]}=={WHEEL[1]}"], check=True)
        have = [f for f in os.listdir(wdir) if f.startswith(name)]
    udir = os.path.join(CACHE, "cutlass_whl")
    if not os.path.exists(os.path.join(udir, "cutlass_library", "generator.py")):
        with zipfile.ZipFile(os.path.join(wdir, have[0])) as z:
            z.extractall(udir, [n for n in z.namelist() if n.startswith("cutlass_library/") and n.endswith(".py")])
    return udir


def main():
    udir = unpack()
    sys.path.insert(0, udir)
    from cutlass_library import generator as g  # noqa: E402
    from cutlass_library.library import (DataTypeNames, ShortLayoutTypeNames, OperationKind,  # noqa: E402
                                         get_tma_alignment, is_tma_epilogue, OpcodeClass)

    rows = []
    seen = set()
    for arch_list in ["80", "89", "90a"]:
        args = g.define_parser().parse_args([
            "--operations", "gemm", "--architectures", arch_list, "--kernels", "all",
            "--cuda-version", "12.9.0", "--curr-build-dir", "/tmp", "--build-dir", "/tmp"])
        manifest = g.Manifest(args)
        {"80": g.GenerateSM80, "89": g.GenerateSM89, "90a": g.GenerateSM90}[arch_list](manifest, args.cuda_version)
        for _, by_cc in manifest.operations.get(OperationKind.Gemm, {}).items():
            for _, ops in by_cc.items():
                for op in ops:
                    name = op.procedural_name()
                    if name in seen:
                        continue
                    seen.add(name)
                    td = op.tile_description
                    mi = td.math_instruction
                    ac, ad = op.C.alignment, op.D.alignment
                    if op.is_3x and is_tma_epilogue(op.epilogue_schedule) and mi.opcode_class != OpcodeClass.Simt:
                        ac, ad = get_tma_alignment(op.C.element), get_tma_alignment(op.D.element)
                    row = {
                        "name": name,
                        "arch": op.arch,
                        "gemm_kind": op.gemm_kind.name,
                        "a": [DataTypeNames[op.A.element], ShortLayoutTypeNames[op.A.layout], op.A.alignment],
                        "b": [DataTypeNames[op.B.element], ShortLayoutTypeNames[op.B.layout], op.B.alignment],
                        "c": [DataTypeNames[op.C.element], ShortLayoutTypeNames[op.C.layout], ac],
                        "d": [DataTypeNames[op.D.element], ShortLayoutTypeNames[op.D.layout], ad],
                        "accumulator": DataTypeNames[op.accumulator_type()],
                        "math": mi.math_operation.name,
                        "opcode": mi.opcode_class.name,
                        "instruction": list(mi.instruction_shape),
                        "tile": list(td.threadblock_shape),
                        "warps": list(td.warp_count),
                        "cluster": list(td.cluster_shape),
                        "stages": td.stages,
                        "kernel_schedule": op.kernel_schedule.name if op.is_3x else None,
                        "epilogue_schedule": op.epilogue_schedule.name if op.is_3x else None,
                        "tile_scheduler": op.tile_scheduler.name if op.is_3x else None,
                    }
                    rows.append(row)
    rows.sort(key=lambda r: r["name"])
    os.makedirs(CACHE, exist_ok=True)
    with open(FULL, "w") as f:
        for r in rows:
            f.write(json.dumps(r, separators=(",", ":")) + "\n")
    with open(OUT, "w") as f:
        f.write("# generated by tools/oracle/cutlass_kernels.py from nvidia-cutlass %s (cutlass_library, "
                "--architectures 80/89/90a --kernels all --cuda-version 12.9.0)\n" % WHEEL[1])
        f.write("# name\tarch\talignment A,B,C,D\twarps M,N,K\n")
        for r in rows:
            al = ",".join(str(r[k][2]) for k in "abcd")
            f.write("%s\t%d\t%s\t%s\n" % (r["name"], r["arch"], al, ",".join(map(str, r["warps"]))))
    print(f"{len(rows)} GEMM kernels -> {os.path.relpath(OUT, ROOT)}")


if __name__ == "__main__":
    main()
