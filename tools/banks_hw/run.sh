#!/usr/bin/env bash
# On a machine with an NVIDIA GPU, nvcc and Nsight Compute (ncu): replays every case of gen.py
# and counts its shared-memory wavefronts with the hardware counters. Writes into $OUT (default
# ./out): gpu.txt (nvidia-smi, nvcc and ncu versions), ncu.csv (the counters, one row per kernel
# launch and metric), timing.tsv (clock64 cycles of REPS repetitions, a fallback where the
# counters cannot be read), log.txt.
# Usage: OUT=dir bash tools/banks_hw/run.sh   (then python3 tools/banks_hw/collect.py dir)
set -u
here=$(cd "$(dirname "$0")" && pwd)
OUT=${OUT:-out}
mkdir -p "$OUT"
exec > >(tee "$OUT/log.txt") 2>&1
work=$(mktemp -d)
python3 "$here/gen.py" "$work" || exit 1
{ nvidia-smi --query-gpu=name,driver_version,compute_cap --format=csv,noheader; nvcc --version | tail -1; ncu --version | tail -1; } > "$OUT/gpu.txt" 2>&1
cat "$OUT/gpu.txt"
cap=$(nvidia-smi --query-gpu=compute_cap --format=csv,noheader | head -1 | tr -d .)
arch=sm_${cap}
nvcc -O2 -std=c++17 -arch="$arch" -o "$work/banks_hw" "$here/banks_hw.cu" || exit 1
cp "$work/cases.tsv" "$OUT/cases.tsv"
"$work/banks_hw" "$work/cases.tsv" "$work/addrs.bin" 1000 "$OUT/timing.tsv" || echo "timing run failed"
full=l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum,smsp__inst_executed_op_shared_ld.sum,smsp__inst_executed_op_shared_st.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ldsm.sum,smsp__inst_executed_op_ldsm.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared.sum
basic=l1tex__data_pipe_lsu_wavefronts_mem_shared.sum,smsp__inst_executed_op_shared_ld.sum,smsp__inst_executed_op_shared_st.sum
for metrics in "$full" "$basic"; do
  if timeout 420 ncu --csv --print-units base --kernel-name bank_access --metrics "$metrics" \
      --log-file "$OUT/ncu.csv" "$work/banks_hw" "$work/cases.tsv" "$work/addrs.bin" 1 "$work/x.tsv"; then
    echo "ncu ok with $metrics"
    break
  fi
  echo "ncu failed with $metrics"
  ncu --query-metrics 2>&1 | grep -i shared | head -40
done
wc -l "$OUT"/*
