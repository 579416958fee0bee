#pragma once
// Lets one function body serve the CPU and the GPU kernels (hipcc and nvcc define
// __CUDACC__ or __HIPCC__); plain C++ compilers see ordinary inline functions.
#if defined(__CUDACC__) || defined(__HIPCC__)
#define STARLENS_HOST_DEVICE __host__ __device__
#else
#define STARLENS_HOST_DEVICE
#endif
