#include "core/errors.h"
#include "gpu/gpu_check.h"
#include "gpu/gpu_device.h"

namespace starlens {
namespace {

std::string architecture_of(const hipDeviceProp_t& properties) {
#if defined(__HIPCC__)
  return properties.gcnArchName;
#else
  return "sm_" + std::to_string(properties.major) + std::to_string(properties.minor);
#endif
}

}  // namespace

GpuDeviceInfo select_gpu_device(int index) {
  GpuDeviceInfo device;
  const hipError_t status = hipGetDeviceCount(&device.device_count);
  if (status != hipSuccess)
    throw_run_failure("gpu device",
                      std::string("no usable GPU (") + hipGetErrorString(status) + ")");
  if (device.device_count == 0) throw_run_failure("gpu device", "no GPU found");
  if (index < 0 || index >= device.device_count)
    throw_run_failure("gpu device", "--gpu-device " + std::to_string(index) +
                                        " is out of range: this machine has " +
                                        std::to_string(device.device_count) +
                                        " GPU(s), indices 0 to " +
                                        std::to_string(device.device_count - 1));
  device.index = index;
  check_gpu(hipSetDevice(index), "device");
  hipDeviceProp_t properties{};
  check_gpu(hipGetDeviceProperties(&properties, index), "device");
  device.name = properties.name;
  device.architecture = architecture_of(properties);
#if defined(__HIPCC__)
  device.platform = "hip";
#else
  device.platform = "cuda";
#endif
  device.multiprocessors = properties.multiProcessorCount;
  device.global_memory = properties.totalGlobalMem;
  check_gpu(hipDriverGetVersion(&device.driver_version), "device");
  check_gpu(hipRuntimeGetVersion(&device.runtime_version), "device");
  return device;
}

}  // namespace starlens
