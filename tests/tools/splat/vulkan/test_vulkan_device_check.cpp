// What the vulkan backend requires of a device, checked on described devices (no Vulkan call):
// a device without shaderFloat64, with Vulkan older than 1.1, without a compute queue or with
// too little workgroup memory is refused with "vulkan device: ..." naming it (exit 1), the
// atomic strategy only where shaderBufferFloat64AtomicAdd is offered, a device index out of
// range lists the machine's devices, and a machine without devices says so.
#include <doctest/doctest.h>

#include <cstdlib>
#include <string>
#include <vector>

#include "core/errors.h"
#include "vulkan_device_check.h"

using namespace starlens;

namespace {

// lavapipe as Debian 12's mesa-vulkan-drivers describes it (vulkaninfo).
VulkanDeviceDescription lavapipe() {
  VulkanDeviceDescription device;
  device.index = 0;
  device.name = "llvmpipe (LLVM 15.0.6, 256 bits)";
  device.type = "CPU";
  device.api_version = (1u << 22) | (3u << 12) | 230u;
  device.shader_float64 = true;
  device.atomic_float_extension = true;
  device.buffer_float64_atomic_add = false;
  device.compute_queue = true;
  device.max_storage_buffer_range = 134217728;
  device.max_shared_memory_bytes = 32768;
  device.driver_id = 13;  // VK_DRIVER_ID_MESA_LLVMPIPE
  return device;
}

std::string run_failure(const VulkanDeviceDescription& device) {
  try {
    check_vulkan_device(device);
  } catch (const RunFailure& failure) {
    return failure.what();
  }
  return "";
}

}  // namespace

TEST_CASE("a device with float64, Vulkan 1.1, a compute queue and 24 KiB of shared memory runs") {
  CHECK(run_failure(lavapipe()).empty());
  VulkanDeviceDescription device = lavapipe();
  device.api_version = (1u << 22) | (1u << 12);
  device.max_shared_memory_bytes = 24576;
  CHECK(run_failure(device).empty());
}

TEST_CASE("a driver the frames have not been checked on is refused unless asked for") {
  VulkanDeviceDescription nvidia = lavapipe();
  nvidia.name = "NVIDIA H200";
  nvidia.driver_id = 4;  // VK_DRIVER_ID_NVIDIA_PROPRIETARY: checked
  ::unsetenv("STARLENS_VULKAN_UNVALIDATED");
  CHECK(run_failure(nvidia).empty());
  VulkanDeviceDescription radv = lavapipe();
  radv.name = "AMD Radeon RX 6800 (RADV NAVI21)";
  radv.driver_id = 3;  // VK_DRIVER_ID_MESA_RADV: not checked
  const std::string message = run_failure(radv);
  INFO(message);
  CHECK(message.rfind("vulkan device: AMD Radeon RX 6800 (RADV NAVI21) (--gpu-device 0) (driver "
                      "id 3): the vulkan backend's frames have been checked against the CPU's "
                      "only on Mesa's lavapipe and NVIDIA's driver",
                      0) == 0);
  ::setenv("STARLENS_VULKAN_UNVALIDATED", "1", 1);
  CHECK(run_failure(radv).empty());
  ::unsetenv("STARLENS_VULKAN_UNVALIDATED");
}

TEST_CASE("a device without shaderFloat64 is refused, never run in single precision") {
  VulkanDeviceDescription device = lavapipe();
  device.shader_float64 = false;
  const std::string message = run_failure(device);
  INFO(message);
  CHECK(message.rfind("vulkan device: llvmpipe (LLVM 15.0.6, 256 bits) (--gpu-device 0) has no "
                      "shaderFloat64",
                      0) == 0);
}

TEST_CASE("Vulkan 1.0, no compute queue and too little shared memory are refused") {
  VulkanDeviceDescription old = lavapipe();
  old.api_version = (1u << 22) | 0u;
  CHECK(run_failure(old).find("offers Vulkan 1.0.0; the vulkan backend needs 1.1") !=
        std::string::npos);
  VulkanDeviceDescription no_compute = lavapipe();
  no_compute.compute_queue = false;
  CHECK(run_failure(no_compute).find("has no compute queue") != std::string::npos);
  VulkanDeviceDescription small = lavapipe();
  small.max_shared_memory_bytes = 24575;
  CHECK(run_failure(small).find("24575 bytes of workgroup memory") != std::string::npos);
}

TEST_CASE("the atomic strategy needs shaderBufferFloat64AtomicAdd; other strategies are refused") {
  VulkanDeviceDescription device = lavapipe();
  CHECK_FALSE(vulkan_strategy_is_atomic("adaptive", device));
  CHECK_FALSE(vulkan_strategy_is_atomic("tile16", device));
  CHECK_THROWS_WITH_AS(vulkan_strategy_is_atomic("atomic", device),
                       doctest::Contains("has no float64 atomic add"), RunFailure);
  CHECK_THROWS_AS(vulkan_strategy_is_atomic("scatter16", device), InputError);
  CHECK_THROWS_AS(vulkan_strategy_is_atomic("tile32", device), InputError);
  device.buffer_float64_atomic_add = true;
  CHECK(vulkan_strategy_is_atomic("atomic", device));
}

TEST_CASE("--gpu-device picks among the devices; out of range lists them; none says so") {
  std::vector<VulkanDeviceDescription> devices{lavapipe(), lavapipe()};
  devices[1].index = 1;
  devices[1].name = "NVIDIA H200";
  devices[1].type = "discrete GPU";
  devices[1].buffer_float64_atomic_add = true;
  CHECK(choose_vulkan_device(devices, 1).name == "NVIDIA H200");
  CHECK(choose_vulkan_device(devices, 0).name == lavapipe().name);
  CHECK_THROWS_WITH_AS(
      choose_vulkan_device(devices, 2),
      "vulkan device: --gpu-device 2 is out of range: this machine has 2 Vulkan device(s): "
      "0: llvmpipe (LLVM 15.0.6, 256 bits) (CPU, Vulkan 1.3.230, float64: yes, float64 atomic "
      "add: no); 1: NVIDIA H200 (discrete GPU, Vulkan 1.3.230, float64: yes, float64 atomic add: "
      "yes)",
      RunFailure);
  CHECK_THROWS_AS(choose_vulkan_device(devices, -1), RunFailure);
  CHECK_THROWS_WITH_AS(choose_vulkan_device({}, 0),
                       "vulkan device: no Vulkan device found (the loader lists none)", RunFailure);
}

TEST_CASE("the manifest's device record carries the features") {
  const nlohmann::json record = vulkan_device_json(lavapipe());
  CHECK(record["api_version"] == "1.3.230");
  CHECK(record["features"]["shaderFloat64"] == true);
  CHECK(record["features"]["shaderBufferFloat64AtomicAdd"] == false);
  CHECK(record["max_storage_buffer_range"] == 134217728);
}
