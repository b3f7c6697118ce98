#!/usr/bin/env bash
# On a Hopper (or later) GPU with nvcc: builds tma_swizzle.cu and writes its table to $OUT/tma_swizzle.tsv
# (copy it to crates/tessera/tests/data/tma_swizzle_hw.tsv, header lines kept).
set -eu
here=$(cd "$(dirname "$0")" && pwd)
OUT=${OUT:-out}
mkdir -p "$OUT"
cap=$(nvidia-smi --query-gpu=compute_cap --format=csv,noheader | head -1 | tr -d .)
nvcc -O2 -std=c++17 -arch="sm_${cap}a" -o /tmp/tma_swizzle "$here/tma_swizzle.cu" -lcuda
gpu=$(nvidia-smi --query-gpu=name,driver_version,compute_cap --format=csv,noheader | head -1)
{
  echo "# TMA box placement in shared memory, measured by tools/tma_swizzle_hw on: $gpu; $(nvcc --version | tail -1)"
  echo "# status	dtype	swizzle	box(outermost first)	elements	fnv64 of positions	footprint	missing	duplicates	first16 positions | status dtype swizzle box CUresult"
  POSITIONS=$OUT/positions.txt /tmp/tma_swizzle 2>/tmp/stderr.txt || { tail -3 /tmp/stderr.txt >&2; exit 1; }
} > "$OUT/tma_swizzle.tsv"
wc -l "$OUT/tma_swizzle.tsv"
