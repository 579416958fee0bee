#include "vulkan_device_check.h"

#include <algorithm>
#include <cstdlib>

#include "core/errors.h"

namespace starlens {
namespace {

std::string version_of(std::uint32_t version) {
  return std::to_string(version >> 22) + "." + std::to_string((version >> 12) & 0x3ffu) + "." +
         std::to_string(version & 0xfffu);
}

const char* yes_no(bool value) {
  return value ? "yes" : "no";
}

}  // namespace

std::string describe_vulkan_device(const VulkanDeviceDescription& device) {
  return std::to_string(device.index) + ": " + device.name + " (" + device.type + ", Vulkan " +
         version_of(device.api_version) + ", float64: " + yes_no(device.shader_float64) +
         ", float64 atomic add: " + yes_no(device.buffer_float64_atomic_add) + ")";
}

const VulkanDeviceDescription& choose_vulkan_device(
    const std::vector<VulkanDeviceDescription>& devices, int index) {
  if (devices.empty())
    throw_run_failure("vulkan device", "no Vulkan device found (the loader lists none)");
  if (index < 0 || std::size_t(index) >= devices.size()) {
    std::string listing;
    for (const VulkanDeviceDescription& device : devices)
      listing += (listing.empty() ? "" : "; ") + describe_vulkan_device(device);
    throw_run_failure("vulkan device", "--gpu-device " + std::to_string(index) +
                                           " is out of range: this machine has " +
                                           std::to_string(devices.size()) +
                                           " Vulkan device(s): " + listing);
  }
  return devices[std::size_t(index)];
}

void check_vulkan_device(const VulkanDeviceDescription& device) {
  const std::string who = device.name + " (--gpu-device " + std::to_string(device.index) + ")";
  if (device.api_version < kVulkanRequiredApi)
    throw_run_failure("vulkan device", who + " offers Vulkan " + version_of(device.api_version) +
                                           "; the vulkan backend needs 1.1");
  if (!device.shader_float64)
    throw_run_failure("vulkan device",
                      who +
                          " has no shaderFloat64 (double precision in shaders), which the "
                          "vulkan backend needs: every sum is a double");
  if (!device.compute_queue) throw_run_failure("vulkan device", who + " has no compute queue");
  if (device.max_shared_memory_bytes < kVulkanSharedMemoryBytes)
    throw_run_failure("vulkan device", who + " offers " +
                                           std::to_string(device.max_shared_memory_bytes) +
                                           " bytes of workgroup memory; the tile shaders need " +
                                           std::to_string(kVulkanSharedMemoryBytes));
  // Only drivers whose frames have been checked against the CPU's run: shader compilers differ
  // (NVIDIA's evaluated an integer expression that lavapipe's got right, docs/gpu.md), so a
  // frame from an unchecked driver is refused rather than written.
  // STARLENS_VULKAN_UNVALIDATED=1 runs any driver (to check a new one).
  const char* unvalidated = std::getenv("STARLENS_VULKAN_UNVALIDATED");
  const bool any_driver = unvalidated && std::string(unvalidated) == "1";
  if (std::ranges::find(kVulkanValidatedDrivers, device.driver_id) ==
          std::end(kVulkanValidatedDrivers) &&
      !any_driver)
    throw_run_failure("vulkan device",
                      who + " (driver id " + std::to_string(device.driver_id) +
                          "): the vulkan backend's frames have been checked against the CPU's "
                          "only on Mesa's lavapipe and NVIDIA's driver "
                          "(STARLENS_VULKAN_UNVALIDATED=1 runs it anyway, to check this one); "
                          "use --backend gpu or cpu");
}

bool vulkan_strategy_is_atomic(const std::string& strategy, const VulkanDeviceDescription& device) {
  if (strategy == "tile16" || strategy == "adaptive") return false;
  if (strategy != "atomic")
    throw_input_error(
        "--gpu-strategy", "",
        "'" + strategy + "' is not a strategy of the vulkan backend (tile16, atomic, adaptive)");
  if (!device.buffer_float64_atomic_add)
    throw_run_failure("vulkan device",
                      device.name +
                          " has no float64 atomic add (VK_EXT_shader_atomic_float's "
                          "shaderBufferFloat64AtomicAdd): --gpu-strategy atomic cannot "
                          "run on it; tile16 or adaptive can");
  return true;
}

nlohmann::json vulkan_device_json(const VulkanDeviceDescription& device) {
  return {{"index", device.index},
          {"name", device.name},
          {"type", device.type},
          {"api_version", version_of(device.api_version)},
          {"driver_version", device.driver_version},
          {"driver_id", device.driver_id},
          {"driver_name", device.driver_name},
          {"driver_info", device.driver_info},
          {"vendor_id", device.vendor_id},
          {"device_id", device.device_id},
          {"device_local_memory_bytes", device.device_local_bytes},
          {"max_storage_buffer_range", device.max_storage_buffer_range},
          {"max_shared_memory_bytes", device.max_shared_memory_bytes},
          {"features",
           {{"shaderFloat64", device.shader_float64},
            {"VK_EXT_shader_atomic_float", device.atomic_float_extension},
            {"shaderBufferFloat64AtomicAdd", device.buffer_float64_atomic_add}}}};
}

}  // namespace starlens
