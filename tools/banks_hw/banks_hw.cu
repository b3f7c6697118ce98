// Replays the shared-memory accesses of `gen.py` on a GPU, one kernel launch (one warp) per case,
// with the real instruction (ld.shared / st.shared of 4, 8 or 16 bytes, ldmatrix.x1/x2/x4), so
// that a profiler (ncu) can count the shared-memory wavefronts of each launch.
//
// Usage: banks_hw CASES.tsv ADDRS.bin REPS OUT.tsv
//   REPS = 1 under ncu (exact counts); larger for the clock64 timing written to OUT.tsv.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#define CHECK(x)                                                                         \
  do {                                                                                   \
    cudaError_t e_ = (x);                                                                \
    if (e_ != cudaSuccess) {                                                             \
      std::fprintf(stderr, "%s:%d %s: %s\n", __FILE__, __LINE__, #x, cudaGetErrorString(e_)); \
      std::exit(1);                                                                      \
    }                                                                                    \
  } while (0)

enum Op { LD4, LD8, LD16, ST4, ST8, ST16, LDSM1, LDSM2, LDSM4 };

__global__ void bank_access(const uint32_t* __restrict__ addrs, int ninstr, int op, int reps,
                       uint32_t* out, long long* cycles) {
  extern __shared__ __align__(1024) unsigned char smem[];
  const uint32_t base = static_cast<uint32_t>(__cvta_generic_to_shared(smem));
  const int lane = threadIdx.x;
  uint32_t acc = 0, a0 = lane, a1 = 2 * lane, a2 = 3 * lane, a3 = 5 * lane;
  long long t0 = clock64();
  for (int r = 0; r < reps; ++r) {
    for (int i = 0; i < ninstr; ++i) {
      const uint32_t a = base + addrs[i * 32 + lane];
      switch (op) {
        case LD4:
          asm volatile("ld.shared.u32 %0, [%1];" : "=r"(a0) : "r"(a) : "memory");
          break;
        case LD8:
          asm volatile("ld.shared.v2.u32 {%0,%1}, [%2];" : "=r"(a0), "=r"(a1) : "r"(a) : "memory");
          break;
        case LD16:
          asm volatile("ld.shared.v4.u32 {%0,%1,%2,%3}, [%4];"
                       : "=r"(a0), "=r"(a1), "=r"(a2), "=r"(a3) : "r"(a) : "memory");
          break;
        case ST4:
          asm volatile("st.shared.u32 [%0], %1;" ::"r"(a), "r"(a0) : "memory");
          break;
        case ST8:
          asm volatile("st.shared.v2.u32 [%0], {%1,%2};" ::"r"(a), "r"(a0), "r"(a1) : "memory");
          break;
        case ST16:
          asm volatile("st.shared.v4.u32 [%0], {%1,%2,%3,%4};"
                       ::"r"(a), "r"(a0), "r"(a1), "r"(a2), "r"(a3) : "memory");
          break;
        case LDSM1:
          asm volatile("ldmatrix.sync.aligned.m8n8.x1.shared.b16 {%0}, [%1];"
                       : "=r"(a0) : "r"(a) : "memory");
          break;
        case LDSM2:
          asm volatile("ldmatrix.sync.aligned.m8n8.x2.shared.b16 {%0,%1}, [%2];"
                       : "=r"(a0), "=r"(a1) : "r"(a) : "memory");
          break;
        case LDSM4:
          asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0,%1,%2,%3}, [%4];"
                       : "=r"(a0), "=r"(a1), "=r"(a2), "=r"(a3) : "r"(a) : "memory");
          break;
      }
      acc += a0 ^ a1 ^ a2 ^ a3;
    }
  }
  long long t1 = clock64();
  out[lane] = acc;
  if (lane == 0) *cycles = t1 - t0;
}

static int op_of(const std::string& instr) {
  if (instr == "ld.shared.4") return LD4;
  if (instr == "ld.shared.8") return LD8;
  if (instr == "ld.shared.16") return LD16;
  if (instr == "st.shared.4") return ST4;
  if (instr == "st.shared.8") return ST8;
  if (instr == "st.shared.16") return ST16;
  if (instr == "ldmatrix.x1") return LDSM1;
  if (instr == "ldmatrix.x2") return LDSM2;
  if (instr == "ldmatrix.x4") return LDSM4;
  std::fprintf(stderr, "unknown instruction %s\n", instr.c_str());
  std::exit(1);
}

int main(int argc, char** argv) {
  if (argc != 5) {
    std::fprintf(stderr, "usage: banks_hw CASES.tsv ADDRS.bin REPS OUT.tsv\n");
    return 2;
  }
  const int reps = std::atoi(argv[3]);
  std::ifstream cases(argv[1]);
  std::ifstream bin(argv[2], std::ios::binary);
  std::ofstream out(argv[4]);
  std::string line;
  std::getline(cases, line);  // header
  CHECK(cudaFuncSetAttribute(bank_access, cudaFuncAttributeMaxDynamicSharedMemorySize, 96 * 1024));
  uint32_t* d_addrs;
  uint32_t* d_out;
  long long* d_cycles;
  CHECK(cudaMalloc(&d_addrs, 1 << 22));
  CHECK(cudaMalloc(&d_out, 32 * sizeof(uint32_t)));
  CHECK(cudaMalloc(&d_cycles, sizeof(long long)));
  out << "id\tinstr\tinstructions\treps\tcycles\n";
  while (std::getline(cases, line)) {
    std::istringstream f(line);
    std::string id, kind, sm, acc, dt, instr, width, ninstr, span;
    std::getline(f, id, '\t');
    std::getline(f, kind, '\t');
    std::getline(f, sm, '\t');
    std::getline(f, acc, '\t');
    std::getline(f, dt, '\t');
    std::getline(f, instr, '\t');
    std::getline(f, width, '\t');
    std::getline(f, ninstr, '\t');
    std::getline(f, span, '\t');
    const int n = std::stoi(ninstr);
    std::vector<uint32_t> a(static_cast<size_t>(n) * 32);
    bin.read(reinterpret_cast<char*>(a.data()), a.size() * sizeof(uint32_t));
    if (!bin) {
      std::fprintf(stderr, "addrs.bin too short at case %s\n", id.c_str());
      return 1;
    }
    size_t bytes = (std::stoul(span) + 1023) / 1024 * 1024;
    CHECK(cudaMemcpy(d_addrs, a.data(), a.size() * sizeof(uint32_t), cudaMemcpyHostToDevice));
    bank_access<<<1, 32, bytes>>>(d_addrs, n, op_of(instr), reps, d_out, d_cycles);
    CHECK(cudaGetLastError());
    CHECK(cudaDeviceSynchronize());
    long long cycles = 0;
    CHECK(cudaMemcpy(&cycles, d_cycles, sizeof cycles, cudaMemcpyDeviceToHost));
    out << id << '\t' << instr << '\t' << n << '\t' << reps << '\t' << cycles << '\n';
  }
  return 0;
}
