#pragma once
// Which GPU a run uses, and what the manifest records of it (plain C++: no GPU runtime
// types, so host code can read it).
#include <cstdint>
#include <string>

namespace starlens {

struct GpuDeviceInfo {
  int index = 0;
  int device_count = 0;
  std::string name;
  std::string architecture;  // sm_XY or gfxNNNN
  std::string platform;      // "cuda" or "hip"
  int multiprocessors = 0;
  std::uint64_t global_memory = 0;
  int driver_version = 0;
  int runtime_version = 0;
};

// Makes device `index` current and describes it; RunFailure ("gpu device: ...") when there is
// no GPU or the index is out of range.
GpuDeviceInfo select_gpu_device(int index);

}  // namespace starlens
