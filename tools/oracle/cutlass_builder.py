#!/usr/bin/env python3
"""Cross-check `tessera check` against CUTLASS's own CollectiveBuilder, compiled host-only with g++.

    python3 tools/oracle/cutlass_builder.py [--count 96] [--jobs 2]
        # writes crates/tessera/tests/data/cutlass_builder.jsonl

For a deterministic sample of the sm90 TMA warp-specialized GEMMs the CUTLASS library generator
emits (tools/.cache/cutlass_kernels.jsonl, written by tools/oracle/cutlass_kernels.py), it
instantiates the epilogue and mainloop CollectiveBuilders exactly as the generator's emitter does
(`StageCountAutoCarveout<sizeof(epilogue SharedStorage)>`, `EpilogueTileAuto`,
LinearCombination) and the kernel (`GemmUniversal`), compiles host-only with g++ and the headers
of the nvidia-cutlass, nvidia-cuda-runtime/nvcc/cccl wheels (tools/oracle/generate.py fetches
them into tools/.cache), and records what the builder derived: the stage count,
`sizeof(CollectiveEpilogue::SharedStorage)`, `sizeof(GemmKernel::SharedStorage)` and
`MaxThreadsPerBlock`. Device-only names (threadIdx, __syncthreads, two runtime calls) are stubbed;
nothing runs on a GPU. `tests/check_builder.rs` compares tessera's derivation with every row.
"""
import argparse
import concurrent.futures as cf
import json
import os
import re
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import generate  # noqa: E402  (wheel fetching and include paths)

ROOT = os.path.abspath(os.path.join(HERE, "..", ".."))
KERNELS = os.path.join(ROOT, "tools", ".cache", "cutlass_kernels.jsonl")  # from cutlass_kernels.py
OUT = os.path.join(ROOT, "crates", "tessera", "tests", "data", "cutlass_builder.jsonl")

TYPES = {"f16": "cutlass::half_t", "bf16": "cutlass::bfloat16_t", "f32": "float", "tf32": "cutlass::tfloat32_t",
         "e4m3": "cutlass::float_e4m3_t", "e5m2": "cutlass::float_e5m2_t", "s8": "int8_t", "u8": "uint8_t",
         "s32": "int32_t", "void": "void"}
LAYOUT = {"t": "cutlass::layout::RowMajor", "n": "cutlass::layout::ColumnMajor"}
KSCHED = {"TmaWarpSpecialized": "KernelTmaWarpSpecialized", "TmaWarpSpecializedCooperative": "KernelTmaWarpSpecializedCooperative",
          "TmaWarpSpecializedPingpong": "KernelTmaWarpSpecializedPingpong",
          "TmaWarpSpecializedFP8FastAccum": "KernelTmaWarpSpecializedFP8FastAccum",
          "TmaWarpSpecializedCooperativeFP8FastAccum": "KernelTmaWarpSpecializedCooperativeFP8FastAccum",
          "TmaWarpSpecializedPingpongFP8FastAccum": "KernelTmaWarpSpecializedPingpongFP8FastAccum"}
ESCHED = {"TmaWarpSpecialized": "cutlass::epilogue::TmaWarpSpecialized",
          "TmaWarpSpecializedCooperative": "cutlass::epilogue::TmaWarpSpecializedCooperative",
          "NoSmemWarpSpecialized": "cutlass::epilogue::NoSmemWarpSpecialized"}

PRELUDE = r'''
#include <cstdio>
struct HostDim3 { unsigned x = 0, y = 0, z = 0; };
static HostDim3 threadIdx, blockIdx, gridDim, blockDim;
inline void __syncthreads() {}
inline void __syncwarp(unsigned = 0) {}
#include "cutlass/cutlass.h"
#include "cute/tensor.hpp"
#include "cutlass/gemm/dispatch_policy.hpp"
#include "cutlass/gemm/collective/collective_builder.hpp"
#include "cutlass/epilogue/collective/collective_builder.hpp"
#include "cutlass/gemm/kernel/gemm_universal_decl.h"
#include "cutlass/gemm/kernel/tile_scheduler.hpp"
namespace cutlass::gemm::kernel {
template <class P, class = void> struct IsCutlass3ArrayKernel : cute::false_type { };
template <class P> struct IsCutlass3ArrayKernel<P, cute::void_t<typename P::UnderlyingProblemShape>> : cute::true_type { };
}
#include "cutlass/gemm/kernel/sm90_gemm_tma_warpspecialized.hpp"
#include "cutlass/gemm/kernel/sm90_gemm_tma_warpspecialized_cooperative.hpp"
#include "cutlass/gemm/kernel/sm90_gemm_tma_warpspecialized_pingpong.hpp"
using namespace cute;
template <class TA, class LA, int AA, class TB, class LB, int AB, class TC, class LC, int AC, class TD, class LD, int AD,
          class Acc, class Tile, class Cluster, class KS, class ES>
void run(const char* name) {
  using Epi = typename cutlass::epilogue::collective::CollectiveBuilder<cutlass::arch::Sm90, cutlass::arch::OpClassTensorOp,
    Tile, Cluster, cutlass::epilogue::collective::EpilogueTileAuto, Acc, Acc, TC, LC, AC, TD, LD, AD, ES>::CollectiveOp;
  using Main = typename cutlass::gemm::collective::CollectiveBuilder<cutlass::arch::Sm90, cutlass::arch::OpClassTensorOp,
    TA, LA, AA, TB, LB, AB, Acc, Tile, Cluster,
    cutlass::gemm::collective::StageCountAutoCarveout<static_cast<int>(sizeof(typename Epi::SharedStorage))>, KS>::CollectiveOp;
  using K = cutlass::gemm::kernel::GemmUniversal<Shape<int,int,int,int>, Main, Epi>;
  printf("{\"name\":\"%s\",\"stages\":%d,\"epilogue_shared_storage\":%zu,\"kernel_shared_storage\":%zu,\"threads\":%d}\n",
         name, (int)Main::DispatchPolicy::Stages, sizeof(typename Epi::SharedStorage), sizeof(typename K::SharedStorage),
         (int)K::MaxThreadsPerBlock);
}
'''
EPILOGUE = r'''
extern "C" cudaError_t cudaGetLastError() { return cudaSuccess; }
extern "C" cudaError_t cudaMemsetAsync(void*, int, size_t, cudaStream_t) { return cudaSuccess; }
'''


def sample(count):
    rows = [json.loads(l) for l in open(KERNELS)]
    pick = [r for r in rows if r["arch"] == 90 and r["gemm_kind"] == "Universal3x" and r["opcode"] == "TensorOp"
            and r["math"] == "multiply_add" and r["a"][0] == r["b"][0] and r["kernel_schedule"] in KSCHED
            and r["epilogue_schedule"] in ESCHED and r["tile_scheduler"] == "Default" and r["stages"] == 0
            and not re.search(r"_(scl|cvt|sclzr)", r["name"])]
    # Deterministic spread over the list (sorted by name): every k-th.
    step = max(1, len(pick) // count)
    return pick[::step][:count], len(pick)


def call(r):
    t = lambda x: TYPES[x[0]]
    return (f'  run<{t(r["a"])},{LAYOUT[r["a"][1]]},{r["a"][2]},{t(r["b"])},{LAYOUT[r["b"][1]]},{r["b"][2]},'
            f'{t(r["c"])},{LAYOUT[r["c"][1]]},{r["c"][2]},{t(r["d"])},{LAYOUT[r["d"][1]]},{r["d"][2]},'
            f'{TYPES[r["accumulator"]]},Shape<_{r["tile"][0]},_{r["tile"][1]},_{r["tile"][2]}>,'
            f'Shape<_{r["cluster"][0]},_{r["cluster"][1]},_{r["cluster"][2]}>,'
            f'cutlass::gemm::{KSCHED[r["kernel_schedule"]]},{ESCHED[r["epilogue_schedule"]]}>("{r["name"]}");')


def build(idx, chunk, udir, bdir):
    src = os.path.join(bdir, f"builder_{idx}.cpp")
    exe = os.path.join(bdir, f"builder_{idx}")
    with open(src, "w") as f:
        f.write(PRELUDE + "int main() {\n" + "\n".join(call(r) for r in chunk) + "\n}\n" + EPILOGUE)
    cmd = (["nice", "-n", "10", "g++", "-std=c++17", "-O0", "-w", "-fpermissive",
            "-DCUTLASS_SM90_COLLECTIVE_BUILDER_SUPPORTED"] + generate.include_flags(udir) + [src, "-o", exe])
    p = subprocess.run(cmd, capture_output=True, text=True)
    if p.returncode != 0:
        return None, p.stderr[-4000:]
    out = subprocess.run([exe], capture_output=True, text=True, check=True).stdout
    return [json.loads(l) for l in out.splitlines() if l.startswith("{")], None


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--count", type=int, default=96)
    ap.add_argument("--per-tu", type=int, default=24)
    ap.add_argument("--jobs", type=int, default=2)
    a = ap.parse_args()
    udir = generate.fetch_wheels()
    bdir = os.path.join(generate.CACHE, "builder")
    os.makedirs(bdir, exist_ok=True)
    rows, total = sample(a.count)
    chunks = [rows[i:i + a.per_tu] for i in range(0, len(rows), a.per_tu)]
    results = []
    with cf.ThreadPoolExecutor(a.jobs) as ex:
        for res, err in ex.map(lambda ic: build(ic[0], ic[1], udir, bdir), enumerate(chunks)):
            if err:
                sys.exit("g++ failed:\n" + err)
            results.extend(res)
    gxx = generate.gxx_version()
    with open(OUT, "w") as f:
        f.write(json.dumps({"generator": "tools/oracle/cutlass_builder.py", "gxx": gxx, "cutlass": "nvidia-cutlass 4.2.0.0",
                            "sampled": len(results), "of": total}) + "\n")
        for r in sorted(results, key=lambda r: r["name"]):
            f.write(json.dumps(r, separators=(",", ":")) + "\n")
    print(f"{len(results)} of {total} sm90 kernels compiled -> {os.path.relpath(OUT, ROOT)}")


if __name__ == "__main__":
    main()
