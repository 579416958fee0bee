#pragma once
// The Vulkan instance, the chosen device and its compute queue, and the buffers the backend
// allocates on it (tallied: the manifest reports the peak; STARLENS_VULKAN_MEMORY_LIMIT caps
// the total, so that out-of-memory paths can be exercised on any device).
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "vulkan_api.h"
#include "vulkan_device_check.h"

namespace starlens {

class VulkanContext;

// One buffer with its own memory: device-local, or host-visible and coherent (mapped).
class VulkanBuffer {
 public:
  VulkanBuffer() = default;
  VulkanBuffer(const VulkanBuffer&) = delete;
  VulkanBuffer& operator=(const VulkanBuffer&) = delete;
  VulkanBuffer(VulkanBuffer&& other) noexcept { swap(other); }
  VulkanBuffer& operator=(VulkanBuffer&& other) noexcept {
    VulkanBuffer moved(std::move(other));
    swap(moved);
    return *this;
  }
  ~VulkanBuffer();

  VkBuffer handle() const { return buffer_; }
  std::uint64_t size() const { return size_; }
  void* mapped() const { return mapped_; }

 private:
  friend class VulkanContext;
  void swap(VulkanBuffer& other) noexcept;

  VulkanContext* context_ = nullptr;
  VkBuffer buffer_ = VK_NULL_HANDLE;
  VkDeviceMemory memory_ = VK_NULL_HANDLE;
  std::uint64_t size_ = 0;
  std::uint64_t allocated_ = 0;
  void* mapped_ = nullptr;
};

class VulkanContext {
 public:
  // Opens the loader, creates the instance, chooses and checks device `index` and creates it
  // (with float64 atomic add enabled where `atomic` asks for it). RunFailure naming the phase
  // and the VkResult on any failure.
  VulkanContext(int index, const std::string& strategy);
  VulkanContext(const VulkanContext&) = delete;
  VulkanContext& operator=(const VulkanContext&) = delete;
  ~VulkanContext();

  const VulkanApi& api() const { return api_; }
  VkDevice device() const { return device_; }
  VkQueue queue() const { return queue_; }
  std::uint32_t queue_family() const { return queue_family_; }
  const VulkanDeviceDescription& description() const { return description_; }
  int device_count() const { return device_count_; }
  bool atomic() const { return atomic_; }
  std::uint32_t instance_version() const { return instance_version_; }
  double timestamp_period_ns() const { return timestamp_period_ns_; }
  bool timestamps() const { return timestamp_bits_ > 0; }
  std::uint32_t max_workgroups_x() const { return max_workgroups_x_; }

  // A storage buffer of `bytes` (rounded up to 16); `host_visible`: mapped, coherent. `phase`
  // names the failure ("vulkan <phase>: ... VK_ERROR_OUT_OF_DEVICE_MEMORY").
  VulkanBuffer allocate(std::uint64_t bytes, bool host_visible, const std::string& phase);
  std::uint64_t memory_in_use() const { return in_use_; }
  std::uint64_t memory_peak() const { return peak_; }
  std::uint64_t memory_limit() const { return limit_; }

 private:
  friend class VulkanBuffer;
  void create(int index, const std::string& strategy);
  void destroy();
  void release(VkBuffer buffer, VkDeviceMemory memory, std::uint64_t allocated);
  std::uint32_t memory_type(std::uint32_t allowed, bool host_visible,
                            const std::string& phase) const;

  VulkanApi api_;
  VkInstance instance_ = VK_NULL_HANDLE;
  VkPhysicalDevice physical_ = VK_NULL_HANDLE;
  VkDevice device_ = VK_NULL_HANDLE;
  VkQueue queue_ = VK_NULL_HANDLE;
  std::uint32_t queue_family_ = 0;
  VulkanDeviceDescription description_;
  int device_count_ = 0;
  bool atomic_ = false;
  std::uint32_t instance_version_ = 0;
  double timestamp_period_ns_ = 0;
  std::uint32_t timestamp_bits_ = 0;
  std::uint32_t max_workgroups_x_ = 65535;
  VkPhysicalDeviceMemoryProperties memory_{};
  std::uint64_t in_use_ = 0;
  std::uint64_t peak_ = 0;
  std::uint64_t limit_ = 0;  // 0: none
};

}  // namespace starlens
