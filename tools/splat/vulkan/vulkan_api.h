#pragma once
// The Vulkan C API, loaded at run time: the loader (libvulkan.so.1, or the file named by
// STARLENS_VULKAN_LOADER) is opened with dlopen when the vulkan backend starts, so the tool
// itself needs only Vulkan's headers and runs its other backends where no loader is
// installed. Every entry point the backend calls is a member of VulkanApi.
#define VK_NO_PROTOTYPES
#include <vulkan/vulkan.h>

#include <string>

namespace starlens {

#define STARLENS_VULKAN_INSTANCE_FUNCTIONS(X) \
  X(vkDestroyInstance)                        \
  X(vkEnumeratePhysicalDevices)               \
  X(vkGetPhysicalDeviceProperties)            \
  X(vkGetPhysicalDeviceProperties2)           \
  X(vkGetPhysicalDeviceFeatures)              \
  X(vkGetPhysicalDeviceFeatures2)             \
  X(vkGetPhysicalDeviceMemoryProperties)      \
  X(vkGetPhysicalDeviceQueueFamilyProperties) \
  X(vkEnumerateDeviceExtensionProperties)     \
  X(vkCreateDevice)                           \
  X(vkGetDeviceProcAddr)

#define STARLENS_VULKAN_DEVICE_FUNCTIONS(X) \
  X(vkDestroyDevice)                        \
  X(vkGetDeviceQueue)                       \
  X(vkQueueSubmit)                          \
  X(vkQueueWaitIdle)                        \
  X(vkDeviceWaitIdle)                       \
  X(vkAllocateMemory)                       \
  X(vkFreeMemory)                           \
  X(vkMapMemory)                            \
  X(vkUnmapMemory)                          \
  X(vkCreateBuffer)                         \
  X(vkDestroyBuffer)                        \
  X(vkGetBufferMemoryRequirements)          \
  X(vkBindBufferMemory)                     \
  X(vkCreateShaderModule)                   \
  X(vkDestroyShaderModule)                  \
  X(vkCreateDescriptorSetLayout)            \
  X(vkDestroyDescriptorSetLayout)           \
  X(vkCreatePipelineLayout)                 \
  X(vkDestroyPipelineLayout)                \
  X(vkCreateComputePipelines)               \
  X(vkDestroyPipeline)                      \
  X(vkCreateDescriptorPool)                 \
  X(vkDestroyDescriptorPool)                \
  X(vkAllocateDescriptorSets)               \
  X(vkUpdateDescriptorSets)                 \
  X(vkCreateCommandPool)                    \
  X(vkDestroyCommandPool)                   \
  X(vkAllocateCommandBuffers)               \
  X(vkBeginCommandBuffer)                   \
  X(vkEndCommandBuffer)                     \
  X(vkResetCommandBuffer)                   \
  X(vkCmdBindPipeline)                      \
  X(vkCmdBindDescriptorSets)                \
  X(vkCmdPushConstants)                     \
  X(vkCmdDispatch)                          \
  X(vkCmdPipelineBarrier)                   \
  X(vkCmdCopyBuffer)                        \
  X(vkCmdFillBuffer)                        \
  X(vkCmdWriteTimestamp)                    \
  X(vkCmdResetQueryPool)                    \
  X(vkCreateQueryPool)                      \
  X(vkDestroyQueryPool)                     \
  X(vkGetQueryPoolResults)                  \
  X(vkCreateFence)                          \
  X(vkDestroyFence)                         \
  X(vkResetFences)                          \
  X(vkWaitForFences)

struct VulkanApi {
  void* library = nullptr;
  std::string library_name;
  PFN_vkGetInstanceProcAddr vkGetInstanceProcAddr = nullptr;
  PFN_vkCreateInstance vkCreateInstance = nullptr;
  PFN_vkEnumerateInstanceVersion vkEnumerateInstanceVersion = nullptr;
#define STARLENS_VULKAN_MEMBER(name) PFN_##name name = nullptr;
  STARLENS_VULKAN_INSTANCE_FUNCTIONS(STARLENS_VULKAN_MEMBER)
  STARLENS_VULKAN_DEVICE_FUNCTIONS(STARLENS_VULKAN_MEMBER)
#undef STARLENS_VULKAN_MEMBER
};

// Opens the loader and its global entry points; RunFailure ("vulkan loader: ...") when the
// library or vkGetInstanceProcAddr is missing.
void load_vulkan_loader(VulkanApi& api);
// The instance-level entry points (after vkCreateInstance) and the device-level ones (after
// vkCreateDevice); RunFailure naming the missing function.
void load_vulkan_instance_functions(VulkanApi& api, VkInstance instance);
void load_vulkan_device_functions(VulkanApi& api, VkDevice device);
// Marks every library loaded since the loader (the loader, the drivers it opened) to stay
// mapped until the process ends: drivers keep state that outlives vkDestroyInstance, and once
// a driver were unmapped its allocations would show as leaks.
void keep_vulkan_drivers_loaded();
// Forgets the loader's entry points (the library itself stays loaded until the process ends).
void close_vulkan_loader(VulkanApi& api);

// "VK_ERROR_OUT_OF_DEVICE_MEMORY" for VK_ERROR_OUT_OF_DEVICE_MEMORY, "VkResult N" for others.
std::string vulkan_result_name(VkResult result);
// RunFailure("vulkan <phase>: <call> failed: <VkResult name>") unless result is VK_SUCCESS.
void check_vulkan(VkResult result, const std::string& phase, const char* call);

// "1.3.230" from VK_MAKE_API_VERSION's encoding.
std::string vulkan_version_string(std::uint32_t version);

}  // namespace starlens
