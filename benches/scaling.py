#!/usr/bin/env python3
"""Scaling benchmark (issue 15): time of every parser and operation against input size.

Runs `tessera batch` (the release binary unless --bin is given) on one request per operation and
rank (1k -> 100k leaves by default, each request one JSON line; for schedules, 1k -> 100k
statements of a chain of one transform) and prints seconds per rank and
the growth exponent between the two largest ranks (1.0 = linear, 2.0 = quadratic). The
process start-up is measured once (`size(1:1)`) and subtracted.

    python3 benches/scaling.py                      # builds --release first
    python3 benches/scaling.py --bin target/debug/tessera --ranks 1000,10000,100000
    python3 benches/scaling.py --only composition,left_inverse --repeat 5
"""
import argparse, json, math, subprocess, sys, time


def flat(n, strides):
    step = max(1, n // 20)
    two = [i % step == 0 for i in range(n)]
    shape = ",".join("2" if t else "1" for t in two)
    if strides == "mixed":
        st = ",".join(str((i * 7919) % 1000 + 1) for i in range(n))
    else:  # compact on the size-2 modes, 3 elsewhere
        k, out = 0, []
        for t in two:
            out.append(str(2 ** k) if t else "3")
            k += t
        st = ",".join(out)
    return f"({shape}):({st})"


def chain(n, kind):
    """A schedule of about n statements (one per line), one family per transform."""
    if kind == "split":
        lines = ["I0 = iter N"] + [f"A{k}, I{k+1} = split I{k} by 1" for k in range(n)]
    elif kind == "merge":
        lines = ["M0 = iter 3"]
        for k in range(n // 2):
            lines += [f"R{k} = iter 1", f"M{k+1} = merge M{k}, R{k}"]
    elif kind == "resize":
        lines = ["I0 = iter 7"] + [
            f"I{k+1} = resize I{k} by " + ("1, 0" if k % 2 == 0 else "0, -1") for k in range(n)
        ]
    else:  # swizzle
        lines = ["X0 = iter 4", "Y0 = iter 4"] + [
            f"X{k+1}, Y{k+1} = swizzle xor X{k}, Y{k}" for k in range(n)
        ]
    return "\n".join(lines) + "\n"


# Schedule requests (`tessera batch` `schedule`): parse, predicates, report, rendered as JSON.
SCHEDULES = {f"schedule ({k} chain)": (lambda k: lambda n: chain(n, k))(k)
             for k in ["split", "merge", "resize", "swizzle"]}

OPS = {
    "parse+print": lambda n: flat(n, "mixed"),
    "nested tuple": lambda n: "(" * 100 + ",".join(["(1,2)"] * (n // 2)) + ")" * 100,
    "coalesce": lambda n: f"coalesce({flat(n, 'mixed')})",
    "complement": lambda n: f"complement({flat(n, 'compact')})",
    "complement (refused)": lambda n: f"complement({flat(n, 'mixed')})",
    "composition": lambda n: f"composition({flat(n, 'compact')},{flat(n, 'compact')})",
    "left_inverse": lambda n: f"left_inverse({flat(n, 'compact')})",
    "right_inverse": lambda n: f"right_inverse({flat(n, 'compact')})",
    "logical_divide": lambda n: f"logical_divide({flat(n, 'compact')},2:1)",
    "logical_product": lambda n: f"logical_product({flat(n, 'compact')},2:1)",
    "blocked_product": lambda n: f"blocked_product({flat(n, 'compact')},{flat(n, 'compact')})",
    "max_common_vector": lambda n: f"max_common_vector({flat(n, 'compact')},{flat(n, 'compact')})",
}


INSTRUCTIONS = False  # --instructions: count instructions (callgrind) instead of time


def timed(binary, line):
    cmd = [binary, "batch"]
    if INSTRUCTIONS:
        cmd = ["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null"] + cmd
    t = time.perf_counter()
    r = subprocess.run(cmd, input=line.encode(), capture_output=True, timeout=600,
                       env={"TESSERA_MAX_INPUT_BYTES": str(1 << 30), "PATH": "/usr/bin:/bin"})
    dt = time.perf_counter() - t
    if INSTRUCTIONS:
        # callgrind prints `==PID== Collected : COUNT` on stderr; reported in 1e9 instructions.
        for row in r.stderr.decode(errors="replace").splitlines():
            if "Collected :" in row:
                dt = int(row.split(":")[-1].strip()) / 1e9
    return dt, r.stdout[:60].decode(errors="replace").strip()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bin", default=None)
    ap.add_argument("--ranks", default="1000,10000,100000")
    ap.add_argument("--repeat", type=int, default=3,
                    help="runs per cell; the minimum is kept (the machine is shared: noise only adds)")
    ap.add_argument("--only", default=None, help="comma-separated operation names to run")
    ap.add_argument("--instructions", action="store_true",
                    help="count instructions (callgrind, 1e9 units) instead of seconds: immune to load")
    a = ap.parse_args()
    global INSTRUCTIONS
    INSTRUCTIONS = a.instructions
    binary = a.bin
    if binary is None:
        subprocess.run(["cargo", "build", "--release", "-q", "-p", "tessera-cli"], check=True)
        binary = "target/release/tessera"
    ranks = [int(x) for x in a.ranks.split(",")]
    base = min(timed(binary, '{"id":0,"expr":"size(1:1)"}\n')[0] for _ in range(3))
    unit = "G instructions" if INSTRUCTIONS else "s"
    print(f"start-up {base*1000:.1f} {'M instructions' if INSTRUCTIONS else 'ms'} (subtracted); ranks {ranks}")
    print(f"| operation | " + " | ".join(f"rank {n}" for n in ranks) + " | exponent |")
    print("|---|" + "---|" * (len(ranks) + 1))
    jobs = [(name, "expr", make) for name, make in OPS.items()]
    jobs += [(name, "schedule", make) for name, make in SCHEDULES.items()]
    if a.only:
        keep = set(a.only.split(","))
        jobs = [j for j in jobs if j[0] in keep]
    for name, key, make in jobs:
        row = []
        for n in ranks:
            line = json.dumps({"id": 1, key: make(n)}) + "\n"
            runs = [timed(binary, line) for _ in range(max(1, a.repeat))]
            dt, out = min(runs)
            if key == "schedule" and ('"error"' in out or not out):
                print(f"  {name} at {n}: {out}", file=sys.stderr)
            row.append(max(dt - base, 1e-4))
        # Between the two largest ranks (the smallest are dominated by noise).
        k = math.log(row[-1] / row[-2]) / math.log(ranks[-1] / ranks[-2])
        print(f"| {name} | " + " | ".join(f"{t:.3f} {unit}" for t in row) + f" | {k:.2f} |", flush=True)


if __name__ == "__main__":
    sys.exit(main())
