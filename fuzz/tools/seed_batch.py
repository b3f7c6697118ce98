#!/usr/bin/env python3
"""Seeds fuzz/corpus/batch/ (the batch protocol target): JSON-lines batches made from the
repository's own examples (benches/corpus/cases.txt, examples/schedules/*.tsch,
examples/check/*.toml, the README's and docs' requests) and hostile lines like those of
crates/tessera-cli/tests/hostile.rs. Each file: one mode byte (bit 0 two threads, bit 1
sentinels, bits 2-3 the line limit; see fuzz/checks/batch.rs), then the lines.

Run from the repository root: python3 fuzz/tools/seed_batch.py
"""
import glob
import hashlib
import json
import os
import tomllib

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
OUT = os.path.join(ROOT, "fuzz", "corpus", "batch")
MAX = 4000  # the campaign's -max_len is 4096


def req(**kw):
    return json.dumps(kw, separators=(",", ":"), ensure_ascii=False)


def cases():
    out = []
    with open(os.path.join(ROOT, "benches", "corpus", "cases.txt")) as f:
        for line in f:
            if line.startswith("#") or not line.strip():
                continue
            op, _family, *args = line.rstrip("\n").split("\t")
            out.append(f"{op}({','.join(args)})")
    return sorted(set(out))


def batches():
    exprs = cases() + [
        "composition((6,2):(8,2),(4,3):(3,1))",
        "composition((4,6,8):(2,3,5),6:3)",
        "composition(20:2,(5,4):(4,1))",
        "coalesce((2,(1,6)):(1,(6,2)))",
        "coalesce((2,4):(1,2))",
        "complement1(128,16,2040)",
        "complement((8,2):(64,3),1808)",
        "logical_divide((9,(4,8)):(59,(13,1)),(3:3,(2,4):(1,8)))",
        "cosize(Sw<3,4,3> o 0 o (8,8):(64,1))",
        "right_inverse(Sw<3,4,3> o 5 o (8,8):(8,1))",
        "local_partition((8,8):(8,1),(2,2):(1,1),1)",
        "eval((4,4):(1,4),(5,1))",
        "make_ordered_layout((2,2),(0,0))",
        "size(4:1",
        "no_such(1)",
    ]
    ids = [1, "a", None, [1, 2], {"k": 1}, -7, 1.5, True]
    out = []
    # Expressions, a few per batch, with every id kind and both faces.
    for k in range(0, len(exprs), 6):
        lines = []
        for j, e in enumerate(exprs[k:k + 6]):
            kw = {"id": ids[(k + j) % len(ids)], "expr": e}
            if j % 3 == 1:
                kw["pycute"] = True
            if j % 4 == 2:
                kw["version"] = 1
            lines.append(req(**kw))
        out.append(lines)
    # Ragged and symbolic forms.
    out.append([
        req(id=1, expr="logical_divide((3,5):(5,1),2:1)", ragged=True),
        req(id=2, expr="local_tile((10,7):(7,1),(4,4),(0,0))", ragged=True, names=["m", "k"]),
        req(id=3, expr="logical_divide((M,K):(K,1),(128,64))", assume=["M % 128 == 0"]),
        req(id=4, expr="size((M,4):(1,M))", assume=[]),
    ])
    # Schedules.
    for p in sorted(glob.glob(os.path.join(ROOT, "examples", "schedules", "*.tsch"))):
        text = open(p).read()
        if len(text) < 1500:
            out.append([req(id=os.path.basename(p), schedule=text)])
    # TMA requests.
    out.append([
        req(id=1, tma={"dtype": "f16", "shape": [4096, 4096], "box": [128, 128], "swizzle": "128B"}),
        req(id=2, tma={"dtype": "f16", "shape": [64, 64], "box": [64, 64]}),
        req(id=3, tma={"dtype": "f32", "shape": [100, 37], "box": [32, 8], "swizzle": "64B"}),
    ])
    # Kernel configurations.
    for p in sorted(glob.glob(os.path.join(ROOT, "examples", "check", "*.toml"))):
        with open(p, "rb") as f:
            cfg = tomllib.load(f)
        line = req(id=os.path.basename(p), check=cfg)
        if len(line) < MAX:
            out.append([line])
    out.append([req(id=1, check_cutlass="cutlass3x_sm90_tensorop_gemm_f16_f16_f32_f16_f16_128x128x64_1x2x1_0_tnn_align8_warpspecialized_cooperative_epi_tma", problem=["M", 4096, "K"])])
    # Hostile lines (the classes of hostile.rs, small).
    chain = " o 0 o ".join(["Sw<1,0,1>"] * 40) + " o 0 o 4:1"
    out.append([
        "", "   ", "[1,\"size(4:1)\"]", "[]", "{}", "null", "{\"id\":1}",
        "{\"id\":1,\"expr\":\"1\",\"expr\":\"2\"}",
        "{\"id\":1,\"tma\":{\"dtype\":\"f16\",\"dtype\":\"f32\",\"shape\":[64,64],\"box\":[8,8]}}",
        "{\"id\":1,\"tma\":{\"dtype\":\"f16\",\"shape\":[18446744073709551617,64],\"box\":[8,8]}}",
        "{\"id\":\"h\",\"tma\":{\"dtype\":\"f16\",\"shape\":[1e30],\"box\":[8]}}",
        "{\"id\":1,\"expr\":\"(2,\\u00003)\"}", "{\"id\":2,\"expr\":\"\\u001b[2J\"}",
        "{\"id\":1,\"version\":2,\"expr\":\"1\"}",
        "{\"id\":1,\"expr\":\"1\",\"schedule\":\"I0 = iter 2\"}",
        "{\"id\": 1, \"expr\": ",
        req(id="c", expr=f"cosize({chain})"),
        req(id="p", expr="(" * 300),
        req(id="z", expr="i / 0"),
    ])
    return out


def main():
    os.makedirs(OUT, exist_ok=True)
    n = 0
    for k, lines in enumerate(batches()):
        for mode in sorted({0, [2, 1, 3, 2 | 4, 2 | 8][k % 5]}):
            body = ("\n".join(lines) + "\n").encode()
            if len(body) + 1 > MAX:
                continue
            data = bytes([mode]) + body
            name = hashlib.sha1(data).hexdigest()
            with open(os.path.join(OUT, name), "wb") as f:
                f.write(data)
            n += 1
    # A line that is not UTF-8 beside a good one.
    data = b"\x00" + b"{\"id\":1,\"expr\":\"\xff\"}\n{\"id\":2,\"expr\":\"1\"}\n"
    with open(os.path.join(OUT, hashlib.sha1(data).hexdigest()), "wb") as f:
        f.write(data)
    print(f"{n + 1} seeds in {OUT}")


if __name__ == "__main__":
    main()
