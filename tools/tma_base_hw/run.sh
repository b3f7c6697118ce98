#!/usr/bin/env bash
# On a Hopper (or later) GPU with nvcc: builds tma_base.cu and writes $OUT/tma_base.tsv (copy it to
# crates/tessera/tests/data/tma_base_hw.tsv, header lines kept). One process per case.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
OUT=${OUT:-out}
mkdir -p "$OUT"
cap=$(nvidia-smi --query-gpu=compute_cap --format=csv,noheader | head -1 | tr -d .)
nvcc -O2 -std=c++17 -arch="sm_${cap}a" -o /tmp/tma_base "$here/tma_base.cu" -lcuda
gpu=$(nvidia-smi --query-gpu=name,driver_version,compute_cap --format=csv,noheader | head -1)
{
  echo "# TMA destination offsets, measured by tools/tma_base_hw on: $gpu; $(nvcc --version | tail -1)"
  echo "# ok swizzle offset elements stray positions | fault swizzle offset error | refused swizzle offset CUresult"
  for sw in none 32B 64B 128B; do
    for off in 0 16 32 48 64 80 96 112 128 256 384 512 640 768 896 1024 1152 1280 1408 1536 1664 1792 1920; do
      timeout 10 /tmp/tma_base "$sw" "$off" || echo "crash	$sw	$off	$?"
    done
  done
} > "$OUT/tma_base.tsv"
wc -l "$OUT/tma_base.tsv"
