#pragma once
// The HIP runtime API for both GPU toolchains, so that one kernel source builds everywhere:
// hipcc (AMD) gets HIP's own header; nvcc gets CUDA's runtime with every hip* name that
// starlens uses mapped onto its cuda* twin. HIP's own NVIDIA headers are deliberately not
// used: they do not build with CUDA 13. Add a name here before using it in GPU code.
#if defined(__HIPCC__)

#include <hip/hip_runtime.h>

// Orders the memory accesses of one 32-lane group: AMD wavefronts run their lanes in
// lockstep, so a compiler barrier is all that is needed (Debian's HIP has no __syncwarp).
__device__ inline void sync_lane_group() {
  __builtin_amdgcn_wave_barrier();
}

// Lane `source`'s value to every lane of a group of 32 (kernels use groups of 32 lanes).
__device__ inline unsigned lane_broadcast(unsigned value, int source) {
  return __shfl(value, source, 32);
}

// The value of the lane `lanes` below the calling one in its group of 32 (its own below that).
__device__ inline unsigned lane_shift_up(unsigned value, unsigned lanes) {
  return __shfl_up(value, lanes, 32);
}

// Bit k set where lane k of the calling group of 32 passes `predicate` (a wavefront of 64
// holds two groups: the calling one's half of the ballot).
__device__ inline unsigned lane_ballot(bool predicate) {
  return unsigned(__ballot(predicate) >> (threadIdx.x & 32u));
}

// Copies of 16 bytes from global into shared memory that complete by the next
// wait_copies_but_last(): asynchronous on NVIDIA (cp.async); here plain copies, complete at once.
__device__ inline void copy_to_shared_async(void* shared_destination, const void* source) {
  *static_cast<uint4*>(shared_destination) = *static_cast<const uint4*>(source);
}
__device__ inline void commit_copies() {}
__device__ inline void wait_copies_but_last() {}

// atomicAdd(counter, 1) for the calling lane; returns its slot. (Debian's HIP has no
// __match_any, so lanes on the same counter are not combined as on NVIDIA.)
__device__ inline unsigned aggregated_increment(unsigned* counter) {
  return atomicAdd(counter, 1u);
}

#elif defined(__CUDACC__)

#include <cuda_runtime.h>

// Orders the memory accesses of one warp (independent thread scheduling since Volta).
__device__ inline void sync_lane_group() {
  __syncwarp();
}

// Lane `source`'s value to every lane of the warp (all lanes must take part).
__device__ inline unsigned lane_broadcast(unsigned value, int source) {
  return __shfl_sync(0xffffffffu, value, source);
}

// The value of the lane `lanes` below the calling one (its own below lane `lanes`); all lanes
// must take part.
__device__ inline unsigned lane_shift_up(unsigned value, unsigned lanes) {
  return __shfl_up_sync(0xffffffffu, value, lanes);
}

// Bit k set where lane k of the warp passes `predicate`; all lanes must take part.
__device__ inline unsigned lane_ballot(bool predicate) {
  return __ballot_sync(0xffffffffu, predicate);
}

// atomicAdd(counter, 1) for every calling lane, with one atomic per distinct counter among
// the warp's active lanes; returns the calling lane's slot (the counter's old value plus its
// rank among the lanes on that counter). Many lanes of a hot spot's warps count into the same
// tile, and atomics on one address are serialised.
__device__ inline unsigned aggregated_increment(unsigned* counter) {
  const unsigned same =
      __match_any_sync(__activemask(), reinterpret_cast<unsigned long long>(counter));
  const int leader = __ffs(same) - 1;
  const unsigned lane = threadIdx.x % 32;
  unsigned base = 0;
  if (int(lane) == leader) base = atomicAdd(counter, unsigned(__popc(same)));
  base = __shfl_sync(same, base, leader);
  return base + unsigned(__popc(same & ((1u << lane) - 1)));
}

// Asynchronous copies of 16 bytes from global into shared memory (cp.async, sm_80 and later;
// no registers held while they fly), grouped by commit_copies(); wait_copies_but_last()
// waits for the calling thread's groups but the last committed. Other lanes' copies are
// visible after a sync_lane_group() that follows their wait.
__device__ inline void copy_to_shared_async(void* shared_destination, const void* source) {
  const unsigned destination = unsigned(__cvta_generic_to_shared(shared_destination));
  asm volatile("cp.async.cg.shared.global [%0], [%1], 16;"
               :
               : "r"(destination), "l"(source)
               : "memory");
}
__device__ inline void commit_copies() {
  asm volatile("cp.async.commit_group;" : : : "memory");
}
__device__ inline void wait_copies_but_last() {
  asm volatile("cp.async.wait_group 1;" : : : "memory");
}

// Types and constants.
#define hipError_t cudaError_t
#define hipSuccess cudaSuccess
#define hipErrorNoDevice cudaErrorNoDevice
#define hipDeviceProp_t cudaDeviceProp
#define hipStream_t cudaStream_t
#define hipEvent_t cudaEvent_t
#define hipStreamNonBlocking cudaStreamNonBlocking
#define hipEventDefault cudaEventDefault
#define hipEventDisableTiming cudaEventDisableTiming
#define hipHostMallocDefault cudaHostAllocDefault
#define hipMemcpyHostToDevice cudaMemcpyHostToDevice
#define hipMemcpyDeviceToHost cudaMemcpyDeviceToHost
#define hipMemcpyDeviceToDevice cudaMemcpyDeviceToDevice

// Errors, devices and versions.
#define hipGetErrorString cudaGetErrorString
#define hipGetErrorName cudaGetErrorName
#define hipGetLastError cudaGetLastError
#define hipPeekAtLastError cudaPeekAtLastError
#define hipGetDeviceCount cudaGetDeviceCount
#define hipSetDevice cudaSetDevice
#define hipGetDeviceProperties cudaGetDeviceProperties
#define hipDriverGetVersion cudaDriverGetVersion
#define hipRuntimeGetVersion cudaRuntimeGetVersion
#define hipDeviceSynchronize cudaDeviceSynchronize
#define hipMemGetInfo cudaMemGetInfo
#define hipOccupancyMaxActiveBlocksPerMultiprocessor cudaOccupancyMaxActiveBlocksPerMultiprocessor

// Memory.
#define hipMalloc cudaMalloc
#define hipFree cudaFree
#define hipHostMalloc cudaHostAlloc
#define hipHostFree cudaFreeHost
#define hipMemcpy cudaMemcpy
#define hipMemcpyAsync cudaMemcpyAsync
#define hipMemset cudaMemset
#define hipMemsetAsync cudaMemsetAsync

// Streams and events.
#define hipStreamCreateWithFlags cudaStreamCreateWithFlags
#define hipStreamDestroy cudaStreamDestroy
#define hipStreamSynchronize cudaStreamSynchronize
#define hipStreamWaitEvent cudaStreamWaitEvent
#define hipEventCreateWithFlags cudaEventCreateWithFlags
#define hipEventDestroy cudaEventDestroy
#define hipEventRecord cudaEventRecord
#define hipEventSynchronize cudaEventSynchronize
#define hipEventQuery cudaEventQuery
#define hipEventElapsedTime cudaEventElapsedTime
#define hipErrorNotReady cudaErrorNotReady

#else
#error "gpu/hip_compat.h is for GPU translation units, compiled by hipcc or nvcc"
#endif
