// Where does TMA put each element of a box in shared memory? For every case (element width, swizzle
// mode, box dimensions), this program loads one box with cp.async.bulk.tensor through a tensor map
// made by cuTensorMapEncodeTiled, copies the shared-memory bytes back, and prints one line:
//
//   ok  DTYPE SWIZZLE BOX ELEMENTS FNV64 FIRST16     (BOX outermost first, e.g. 3,8,64)
//   refused DTYPE SWIZZLE BOX CURESULT               (the driver refused the tensor map)
//
// Element i of the global tensor (row-major over the box, innermost fastest) holds the value i
// (truncated to the element's width), so the shared-memory image says which box element landed in
// which slot. FNV64 is FNV-1a over every slot's value as 8 little-endian bytes; FIRST16 the first
// 16 slot values. `crates/tessera/tests/tma_swizzle_hardware.rs` recomputes both from
// `tessera::tma::smem::box_layout`. Build: nvcc -O2 -arch=sm_90a tma_swizzle.cu -lcuda
#include <cuda.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#define CHECK(x)                                                                          \
  do {                                                                                    \
    cudaError_t e_ = (x);                                                                 \
    if (e_ != cudaSuccess) {                                                              \
      std::fprintf(stderr, "%s:%d %s: %s\n", __FILE__, __LINE__, #x, cudaGetErrorString(e_)); \
      std::exit(1);                                                                       \
    }                                                                                     \
  } while (0)

__device__ __forceinline__ uint32_t smem_addr(const void* p) {
  return static_cast<uint32_t>(__cvta_generic_to_shared(p));
}

__global__ void tma_load(const CUtensorMap* map_ptr, int rank, uint32_t bytes, uint32_t span,
                         uint8_t* out) {
  extern __shared__ uint8_t raw[];
  const uint32_t base = smem_addr(raw);
  const uint32_t mbar = (base + 7u) & ~7u;
  const uint32_t data = (mbar + 8u + 1023u) & ~1023u;  // the swizzle repeat: 1024-byte aligned
  const uint8_t* data_ptr = raw + (data - base);
  // Mark `span` bytes, so that every byte TMA writes shows, also past the dense image.
  for (uint32_t i = threadIdx.x; i < span; i += blockDim.x)
    const_cast<uint8_t*>(data_ptr)[i] = 0xEE;
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
    const uint64_t m = reinterpret_cast<uint64_t>(map_ptr);  // the tensor map in global memory
    if (rank == 2) {
      asm volatile(
          "cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes"
          " [%0], [%1, {%2, %3}], [%4];" ::"r"(data),
          "l"(m), "r"(0), "r"(0), "r"(mbar)
          : "memory");
    } else {
      asm volatile(
          "cp.async.bulk.tensor.3d.shared::cluster.global.tile.mbarrier::complete_tx::bytes"
          " [%0], [%1, {%2, %3, %4}], [%5];" ::"r"(data),
          "l"(m), "r"(0), "r"(0), "r"(0), "r"(mbar)
          : "memory");
    }
  }
  asm volatile(
      "{\n\t.reg .pred P1;\n\tLAB_WAIT:\n\t"
      "mbarrier.try_wait.parity.shared::cta.b64 P1, [%0], 0;\n\t"
      "@P1 bra DONE;\n\tbra LAB_WAIT;\n\tDONE:\n\t}" ::"r"(mbar)
      : "memory");
  for (uint32_t i = threadIdx.x; i < span; i += blockDim.x) out[i] = data_ptr[i];
}

struct Dt {
  const char* name;
  int bytes;
  CUtensorMapDataType cu;
};
struct Sw {
  const char* name;
  CUtensorMapSwizzle cu;
};

int main() {
  const Dt dts[] = {{"u16", 2, CU_TENSOR_MAP_DATA_TYPE_UINT16},
                    {"u32", 4, CU_TENSOR_MAP_DATA_TYPE_UINT32},
                    {"u64", 8, CU_TENSOR_MAP_DATA_TYPE_UINT64}};
  const Sw sws[] = {{"none", CU_TENSOR_MAP_SWIZZLE_NONE},
                    {"32B", CU_TENSOR_MAP_SWIZZLE_32B},
                    {"64B", CU_TENSOR_MAP_SWIZZLE_64B},
                    {"128B", CU_TENSOR_MAP_SWIZZLE_128B}};
  const int inner_bytes[] = {16, 32, 64, 128, 256};
  const int rows[] = {8, 13, 64, 256};
  const int outers[] = {1, 3};
  CHECK(cudaFuncSetAttribute(tma_load, cudaFuncAttributeMaxDynamicSharedMemorySize, 200 * 1024));
  void* gmem;
  uint8_t* dout;
  CUtensorMap* dmap;
  CHECK(cudaMalloc(&dmap, sizeof(CUtensorMap)));
  const int limit = std::getenv("CASE_LIMIT") ? std::atoi(std::getenv("CASE_LIMIT")) : 1 << 30;
  CHECK(cudaMalloc(&gmem, 1 << 20));
  CHECK(cudaMalloc(&dout, 1 << 20));
  int ok = 0, refused = 0;
  FILE* pf = std::getenv("POSITIONS") ? std::fopen(std::getenv("POSITIONS"), "w") : nullptr;
  for (const Dt& dt : dts)
    for (const Sw& sw : sws)
      for (int ib : inner_bytes)
        for (int r : rows)
          for (int o : outers) {
            if (o > 1 && r > 64) continue;
            if (ok + refused >= limit) continue;
            const int rank = o > 1 ? 3 : 2;
            const uint64_t b0 = ib / dt.bytes;  // innermost
            const uint64_t elems = b0 * r * o;
            const uint32_t bytes = static_cast<uint32_t>(elems * dt.bytes);
            char box[64];
            if (rank == 3)
              std::snprintf(box, sizeof box, "%d,%d,%llu", o, r, (unsigned long long)b0);
            else
              std::snprintf(box, sizeof box, "%d,%llu", r, (unsigned long long)b0);
            cuuint64_t gdim[3] = {b0, (cuuint64_t)r, (cuuint64_t)o};
            cuuint64_t gstride[2] = {b0 * dt.bytes, b0 * r * dt.bytes};
            cuuint32_t boxd[3] = {(cuuint32_t)b0, (cuuint32_t)r, (cuuint32_t)o};
            cuuint32_t estr[3] = {1, 1, 1};
            CUtensorMap map;
            std::memset(&map, 0, sizeof map);
            CUresult res = cuTensorMapEncodeTiled(&map, dt.cu, rank, gmem, gdim, gstride, boxd, estr,
                                                  CU_TENSOR_MAP_INTERLEAVE_NONE, sw.cu,
                                                  CU_TENSOR_MAP_L2_PROMOTION_NONE,
                                                  CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
            if (res != CUDA_SUCCESS) {
              std::printf("refused\t%s\t%s\t%s\t%d\n", dt.name, sw.name, box, (int)res);
              ++refused;
              continue;
            }
            std::vector<uint8_t> host(bytes);  // value i at element i (unique: elems < 2^16)
            for (uint64_t i = 0; i < elems; ++i) {
              uint64_t v = i;
              std::memcpy(&host[i * dt.bytes], &v, dt.bytes);  // little-endian truncation
            }
            CHECK(cudaMemcpy(gmem, host.data(), bytes, cudaMemcpyHostToDevice));
            CHECK(cudaMemset(dout, 0xff, bytes));
            CHECK(cudaMemcpy(dmap, &map, sizeof map, cudaMemcpyHostToDevice));
            std::fprintf(stderr, "case %s %s %s\n", dt.name, sw.name, box);
            const uint32_t span = std::min<uint32_t>(8 * bytes + 4096, 190 * 1024);
            tma_load<<<1, 128, span + 2048>>>(dmap, rank, bytes, span, dout);
            CHECK(cudaGetLastError());
            CHECK(cudaDeviceSynchronize());
            std::vector<uint8_t> img(span);
            CHECK(cudaMemcpy(img.data(), dout, span, cudaMemcpyDeviceToHost));
            // Where each element landed: the byte offset of the slot holding value i.
            std::vector<int64_t> pos(elems, -1);
            uint64_t footprint = 0;
            int dup = 0;
            for (uint32_t k = 0; k + dt.bytes <= span; k += dt.bytes) {
              bool marked = true;
              for (int b = 0; b < dt.bytes; ++b) marked = marked && img[k + b] == 0xEE;
              if (marked) continue;
              footprint = k + dt.bytes;
              uint64_t v = 0;
              std::memcpy(&v, &img[k], dt.bytes);
              if (v < elems) {
                if (pos[v] >= 0) ++dup;
                pos[v] = k;
              }
            }
            int missing = 0;
            uint64_t h = 0xcbf29ce484222325ull;
            for (uint64_t i = 0; i < elems; ++i) {
              missing += pos[i] < 0;
              for (int k = 0; k < 8; ++k) {
                h ^= (static_cast<uint64_t>(pos[i]) >> (8 * k)) & 0xff;
                h *= 0x100000001b3ull;
              }
            }
            std::printf("ok\t%s\t%s\t%s\t%llu\t%016llx\t%llu\t%d\t%d\t", dt.name, sw.name, box,
                        (unsigned long long)elems, (unsigned long long)h,
                        (unsigned long long)footprint, missing, dup);
            for (uint64_t i = 0; i < elems && i < 16; ++i)
              std::printf("%s%lld", i ? "," : "", (long long)pos[i]);
            std::printf("\n");
            if (elems <= 1024 && pf) {
              std::fprintf(pf, "%s %s %s", dt.name, sw.name, box);
              for (uint64_t i = 0; i < elems; ++i) std::fprintf(pf, " %lld", (long long)pos[i]);
              std::fprintf(pf, "\n");
            }
            ++ok;
          }
  std::fprintf(stderr, "%d loaded, %d refused by the driver\n", ok, refused);
  if (pf) std::fclose(pf);
  return 0;
}
