#!/usr/bin/env bash
# Build and run the harness on a machine with an sm_90+ GPU and the CUDA driver (no toolkit
# needed: the few driver declarations are in the source). Writes data/casesSEED.txt.
#   tools/tma_driver_check/run_on_gpu.sh 50000 1 2      # uniform generator, seeds 1 and 2
#   MODE=v tools/tma_driver_check/run_on_gpu.sh 50000 8 # generator biased towards valid cases
set -euo pipefail
cd "$(dirname "$0")"
n=${1:-30000}; shift || true
gcc -O1 tma_driver_check.c -o /tmp/tma_driver_check -l:libcuda.so.1
gcc -O1 tma_probe.c -o /tmp/tma_probe -l:libcuda.so.1
mkdir -p data
for s in "${@:-1}"; do /tmp/tma_driver_check "$n" "$s" ${MODE:-} > "data/cases$s.txt"; done
/tmp/tma_probe > data/probe.txt
nvidia-smi --query-gpu=name,driver_version,compute_cap --format=csv > data/gpu.txt
