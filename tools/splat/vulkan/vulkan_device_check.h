#pragma once
// What the vulkan backend requires of a device, and the choice among the machine's devices:
// plain data and pure functions (no Vulkan calls), so that the checks are tested without a
// device.
#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace starlens {

struct VulkanDeviceDescription {
  int index = 0;
  std::string name;
  std::string type;  // "discrete GPU", "integrated GPU", "virtual GPU", "CPU", "other"
  std::uint32_t api_version = 0;
  std::uint32_t driver_version = 0;
  std::uint32_t vendor_id = 0;
  std::uint32_t device_id = 0;
  std::uint32_t driver_id = 0;  // VkDriverId (Vulkan 1.2), else 0
  std::string driver_name;      // VkPhysicalDeviceDriverProperties (Vulkan 1.2), else empty
  std::string driver_info;
  bool shader_float64 = false;             // VkPhysicalDeviceFeatures::shaderFloat64
  bool atomic_float_extension = false;     // VK_EXT_shader_atomic_float offered
  bool buffer_float64_atomic_add = false;  // its shaderBufferFloat64AtomicAdd
  bool compute_queue = false;              // a queue family with VK_QUEUE_COMPUTE_BIT
  std::uint64_t device_local_bytes = 0;    // the device-local heaps, summed
  std::uint64_t max_storage_buffer_range = 0;
  std::uint32_t max_shared_memory_bytes = 0;  // maxComputeSharedMemorySize
};

// The newest Vulkan the backend needs of a device: 1.1 (storage-buffer layouts and
// vkGetPhysicalDeviceFeatures2 in core).
inline constexpr std::uint32_t kVulkanRequiredApi = (1u << 22) | (1u << 12);
// The shared memory the tile shaders declare (tile_accumulate.comp: 64 prepared events, their
// chords of the tile's rows, a tile of RGB doubles; tile_sort.comp: 4,096 keys), rounded up.
inline constexpr std::uint32_t kVulkanSharedMemoryBytes = 24576;

// "0: llvmpipe (LLVM 15.0.6, 256 bits) (CPU, Vulkan 1.3.230, float64: yes, float64 atomic add:
// no)", one line per device.
std::string describe_vulkan_device(const VulkanDeviceDescription& device);
// The device of --gpu-device `index`: RunFailure "vulkan device: ..." when the machine has no
// Vulkan device or the index is out of range (the message lists the devices).
const VulkanDeviceDescription& choose_vulkan_device(
    const std::vector<VulkanDeviceDescription>& devices, int index);
// RunFailure "vulkan device: <name> ..." when the device cannot run the backend: no
// shaderFloat64, Vulkan older than 1.1, no compute queue, too little shared memory.
// Also refused: a driver other than those the backend's frames have been checked on
// (kVulkanValidatedDrivers), unless STARLENS_VULKAN_UNVALIDATED=1.
void check_vulkan_device(const VulkanDeviceDescription& device);
// Where tests/tools/splat/vulkan/vulkan_vs_cpu.sh has passed: VK_DRIVER_ID_MESA_LLVMPIPE (13,
// Mesa's lavapipe, in CI) and VK_DRIVER_ID_NVIDIA_PROPRIETARY (4, on the H200).
constexpr std::uint32_t kVulkanValidatedDrivers[] = {13, 4};
// "atomic" needs shaderBufferFloat64AtomicAdd; "tile16" and "adaptive" (the tile path) run
// everywhere; any other name is not a strategy of this backend (InputError).
// Returns true for the atomic strategy.
bool vulkan_strategy_is_atomic(const std::string& strategy, const VulkanDeviceDescription& device);
nlohmann::json vulkan_device_json(const VulkanDeviceDescription& device);

}  // namespace starlens
