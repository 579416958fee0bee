// Shared-memory FP64 add: native atomic vs plain read-modify-write, distinct addresses per warp.
#include <cstdio>
#include <cuda_runtime.h>
constexpr int kSlots = 512;
template <int kMode>
__global__ void __launch_bounds__(256) shared_add(double* out, int iterations, double v) {
  __shared__ double region[8][kSlots];  // 32 KiB: one copy per warp (mode 0/1) or shared (2)
  const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  for (int p = threadIdx.x; p < 8 * kSlots; p += blockDim.x) (&region[0][0])[p] = 0;
  __syncthreads();
  double* copy = kMode == 2 ? region[0] : region[warp];
  unsigned slot = lane * 37u + blockIdx.x;
  for (int k = 0; k < iterations; ++k) {
    slot = (slot + 97u + (k & 7)) % kSlots;  // distinct within the warp: odd lane stride mod 512
    const double x = v * (k + 1);
    if (kMode == 0) {
      copy[slot] += x;
    } else {
      atomicAdd(&copy[slot], x);
    }
  }
  __syncthreads();
  double sum = 0;
  for (int p = threadIdx.x; p < 8 * kSlots; p += blockDim.x) sum += (&region[0][0])[p];
  atomicAdd(out, sum);
}
int main() {
  double* out; cudaMalloc(&out, 8);
  int sms; cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0);
  cudaFuncSetAttribute(shared_add<0>, cudaFuncAttributeMaxDynamicSharedMemorySize, 0);
  const int iterations = 4096;
  const char* names[] = {"plain RMW, copy per warp", "atomicAdd, copy per warp", "atomicAdd, one copy per block"};
  for (int rep = 0; rep < 2; ++rep)
  for (int mode = 0; mode < 3; ++mode) {
    cudaEvent_t a, b; cudaEventCreate(&a); cudaEventCreate(&b);
    cudaEventRecord(a);
    int blocks = sms * 3;
    if (mode == 0) shared_add<0><<<blocks, 256>>>(out, iterations, 1.0);
    if (mode == 1) shared_add<1><<<blocks, 256>>>(out, iterations, 1.0);
    if (mode == 2) shared_add<2><<<blocks, 256>>>(out, iterations, 1.0);
    cudaEventRecord(b); cudaEventSynchronize(b);
    float ms; cudaEventElapsedTime(&ms, a, b);
    double adds = double(blocks) * 256 * iterations;
    printf("%-32s %8.3f ms  %7.1f G adds/s  (%s)\n", names[mode], ms, adds / ms / 1e6, cudaGetErrorString(cudaGetLastError()));
  }
}
