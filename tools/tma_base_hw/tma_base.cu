// Does TMA swizzle by the shared-memory ADDRESS or by the offset within the destination buffer?
// And which destination alignments does it take? One case per process (a misaligned destination
// may fault, which ends the CUDA context):
//
//   tma_base SWIZZLE OFFSET
//
// loads one 16-bit box of 8 rows x (swizzle span) bytes (128-byte rows without a swizzle) with
// cp.async.bulk.tensor to a destination OFFSET bytes past a 2048-byte aligned shared-memory
// address, and prints one line:
//
//   ok      SWIZZLE OFFSET ELEMENTS STRAY P0,P1,...
//           (Pi: byte offset of element i from the destination; STRAY: slots written that hold
//           no element or a repeated one)
//   fault   SWIZZLE OFFSET CUDA-ERROR            (the copy faulted)
//   timeout SWIZZLE OFFSET WHY                   (the copy never completed its transaction count)
//   refused SWIZZLE OFFSET CURESULT              (the driver refused the tensor map)
//
// Element i of the global tensor (row-major over the box) holds i, so the shared-memory image
// says where each element landed. `crates/tessera/tests/gpu/tma_base_hardware.rs` compares the
// positions with the two models (swizzle of the address, swizzle of the offset) and with
// `tessera check`'s smem_alignment verdicts. Build: nvcc -O2 -arch=sm_90a tma_base.cu -lcuda
#include <cuda.h>
#include <cuda_runtime.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

__global__ void tma_load(const CUtensorMap* map_ptr, uint32_t offset, uint32_t bytes,
                         uint32_t span, uint8_t* out) {
  extern __shared__ uint8_t raw[];
  const uint32_t base = static_cast<uint32_t>(__cvta_generic_to_shared(raw));
  const uint32_t mbar = (base + 7u) & ~7u;
  const uint32_t aligned = (mbar + 8u + 2047u) & ~2047u;
  const uint32_t data = aligned + offset;
  uint8_t* img = raw + (aligned - base);
  for (uint32_t i = threadIdx.x; i < span; i += blockDim.x) img[i] = 0xEE;
  __syncthreads();
  if (threadIdx.x == 0) {
    asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;" ::"r"(mbar) : "memory");
    asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
    asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
  }
  __syncthreads();
  if (threadIdx.x == 0) {
    asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" ::"r"(mbar), "r"(bytes)
                 : "memory");
    const uint64_t m = reinterpret_cast<uint64_t>(map_ptr);
    asm volatile(
        "cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes"
        " [%0], [%1, {%2, %3}], [%4];" ::"r"(data),
        "l"(m), "r"(0), "r"(0), "r"(mbar)
        : "memory");
  }
  // A bounded wait: a copy that never completes shows as a timeout, not a hang.
  uint32_t done = 0;
  for (int it = 0; it < (1 << 20) && !done; ++it)
    asm volatile(
        "{\n\t.reg .pred P1;\n\t"
        "mbarrier.try_wait.parity.shared::cta.b64 P1, [%1], 0;\n\t"
        "selp.u32 %0, 1, 0, P1;\n\t}"
        : "=r"(done)
        : "r"(mbar)
        : "memory");
  if (!done) {
    if (threadIdx.x == 0) out[span] = 1;
    return;
  }
  // The image from the 2048-byte aligned address, so bytes written before the destination show.
  for (uint32_t i = threadIdx.x; i < span; i += blockDim.x) out[i] = img[i];
}

int main(int argc, char** argv) {
  if (argc != 3) {
    std::fprintf(stderr, "usage: tma_base none|32B|64B|128B OFFSET\n");
    return 2;
  }
  const char* sw = argv[1];
  const uint32_t offset = static_cast<uint32_t>(std::atoi(argv[2]));
  CUtensorMapSwizzle mode;
  uint32_t row_bytes;
  if (!std::strcmp(sw, "none")) {
    mode = CU_TENSOR_MAP_SWIZZLE_NONE;
    row_bytes = 128;
  } else if (!std::strcmp(sw, "32B")) {
    mode = CU_TENSOR_MAP_SWIZZLE_32B;
    row_bytes = 32;
  } else if (!std::strcmp(sw, "64B")) {
    mode = CU_TENSOR_MAP_SWIZZLE_64B;
    row_bytes = 64;
  } else if (!std::strcmp(sw, "128B")) {
    mode = CU_TENSOR_MAP_SWIZZLE_128B;
    row_bytes = 128;
  } else {
    std::fprintf(stderr, "unknown swizzle %s\n", sw);
    return 2;
  }
  const uint32_t rows = 8, cols = row_bytes / 2, elems = rows * cols, bytes = elems * 2;
  const uint32_t span = 4096;
  void* gmem;
  uint8_t* dout;
  CUtensorMap* dmap;
  if (cudaMalloc(&dmap, sizeof(CUtensorMap)) || cudaMalloc(&gmem, 1 << 16) ||
      cudaMalloc(&dout, span + 1)) {
    std::fprintf(stderr, "cudaMalloc failed\n");
    return 1;
  }
  cuuint64_t gdim[2] = {cols, rows};
  cuuint64_t gstride[1] = {cols * 2};
  cuuint32_t boxd[2] = {cols, rows};
  cuuint32_t estr[2] = {1, 1};
  CUtensorMap map;
  std::memset(&map, 0, sizeof map);
  CUresult res = cuTensorMapEncodeTiled(&map, CU_TENSOR_MAP_DATA_TYPE_UINT16, 2, gmem, gdim, gstride,
                                        boxd, estr, CU_TENSOR_MAP_INTERLEAVE_NONE, mode,
                                        CU_TENSOR_MAP_L2_PROMOTION_NONE,
                                        CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
  if (res != CUDA_SUCCESS) {
    std::printf("refused\t%s\t%u\t%d\n", sw, offset, (int)res);
    return 0;
  }
  std::vector<uint16_t> host(elems);
  for (uint32_t i = 0; i < elems; ++i) host[i] = static_cast<uint16_t>(i);
  cudaMemcpy(gmem, host.data(), bytes, cudaMemcpyHostToDevice);
  cudaMemcpy(dmap, &map, sizeof map, cudaMemcpyHostToDevice);
  cudaMemset(dout, 0, span + 1);
  cudaFuncSetAttribute(tma_load, cudaFuncAttributeMaxDynamicSharedMemorySize, 16 * 1024);
  tma_load<<<1, 128, span + 4096>>>(dmap, offset, bytes, span, dout);
  cudaError_t e = cudaDeviceSynchronize();
  if (e == cudaSuccess) e = cudaGetLastError();
  if (e != cudaSuccess) {
    std::printf("fault\t%s\t%u\t%s\n", sw, offset, cudaGetErrorName(e));
    return 0;
  }
  std::vector<uint8_t> img(span + 1);
  cudaMemcpy(img.data(), dout, span + 1, cudaMemcpyDeviceToHost);
  if (img[span]) {
    std::printf("timeout\t%s\t%u\tthe mbarrier never completed\n", sw, offset);
    return 0;
  }
  std::vector<long> pos(elems, -1);
  int stray = 0;
  for (uint32_t k = 0; k + 2 <= span; k += 2) {
    if (img[k] == 0xEE && img[k + 1] == 0xEE) continue;
    uint16_t v;
    std::memcpy(&v, &img[k], 2);
    if (v < elems && pos[v] < 0)
      pos[v] = static_cast<long>(k) - static_cast<long>(offset);
    else
      ++stray;
  }
  std::printf("ok\t%s\t%u\t%u\t%d\t", sw, offset, elems, stray);
  for (uint32_t i = 0; i < elems; ++i) std::printf("%s%ld", i ? "," : "", pos[i]);
  std::printf("\n");
  return 0;
}
