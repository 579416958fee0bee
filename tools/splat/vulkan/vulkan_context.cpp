#include "vulkan_context.h"

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>

#include "core/errors.h"

namespace starlens {
namespace {

const char* type_name(VkPhysicalDeviceType type) {
  switch (type) {
    case VK_PHYSICAL_DEVICE_TYPE_DISCRETE_GPU:
      return "discrete GPU";
    case VK_PHYSICAL_DEVICE_TYPE_INTEGRATED_GPU:
      return "integrated GPU";
    case VK_PHYSICAL_DEVICE_TYPE_VIRTUAL_GPU:
      return "virtual GPU";
    case VK_PHYSICAL_DEVICE_TYPE_CPU:
      return "CPU";
    default:
      return "other";
  }
}

// STARLENS_VULKAN_MEMORY_LIMIT: bytes the backend may allocate on the device (unset: no cap).
std::uint64_t memory_limit_from_environment() {
  const char* text = std::getenv("STARLENS_VULKAN_MEMORY_LIMIT");
  if (!text) return 0;
  char* end = nullptr;
  errno = 0;
  const unsigned long long value = std::strtoull(text, &end, 10);
  if (errno || end == text || *end || value < 1 || !(*text >= '0' && *text <= '9')) {
    std::string reason = "'";
    reason += text;
    reason += "' is not a positive whole number of bytes";
    throw_input_error("environment variable STARLENS_VULKAN_MEMORY_LIMIT", "", reason);
  }
  return value;
}

bool has_extension(const std::vector<VkExtensionProperties>& extensions, const char* name) {
  return std::any_of(extensions.begin(), extensions.end(), [&](const VkExtensionProperties& e) {
    return std::strcmp(e.extensionName, name) == 0;
  });
}

}  // namespace

VulkanBuffer::~VulkanBuffer() {
  if (context_) context_->release(buffer_, memory_, allocated_);
}

void VulkanBuffer::swap(VulkanBuffer& other) noexcept {
  std::swap(context_, other.context_);
  std::swap(buffer_, other.buffer_);
  std::swap(memory_, other.memory_);
  std::swap(size_, other.size_);
  std::swap(allocated_, other.allocated_);
  std::swap(mapped_, other.mapped_);
}

VulkanContext::VulkanContext(int index, const std::string& strategy) {
  try {
    create(index, strategy);
  } catch (...) {
    destroy();
    throw;
  }
}

void VulkanContext::create(int index, const std::string& strategy) {
  limit_ = memory_limit_from_environment();
  load_vulkan_loader(api_);
  instance_version_ = VK_API_VERSION_1_0;
  if (api_.vkEnumerateInstanceVersion)
    check_vulkan(api_.vkEnumerateInstanceVersion(&instance_version_), "instance",
                 "vkEnumerateInstanceVersion");
  if (instance_version_ < VK_API_VERSION_1_1)
    throw_run_failure("vulkan instance", "the loader offers Vulkan " +
                                             vulkan_version_string(instance_version_) +
                                             "; the vulkan backend needs 1.1");
  VkApplicationInfo application{};
  application.sType = VK_STRUCTURE_TYPE_APPLICATION_INFO;
  application.pApplicationName = "starlens-splat";
  application.pEngineName = "starlens";
  application.apiVersion = std::min<std::uint32_t>(instance_version_, VK_API_VERSION_1_3);
  VkInstanceCreateInfo instance_info{};
  instance_info.sType = VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO;
  instance_info.pApplicationInfo = &application;
  const VkResult created = api_.vkCreateInstance(&instance_info, nullptr, &instance_);
  if (created == VK_ERROR_INCOMPATIBLE_DRIVER)
    throw_run_failure("vulkan instance",
                      "vkCreateInstance failed: VK_ERROR_INCOMPATIBLE_DRIVER (no Vulkan driver: "
                      "the loader found no usable ICD)");
  check_vulkan(created, "instance", "vkCreateInstance");
  keep_vulkan_drivers_loaded();
  load_vulkan_instance_functions(api_, instance_);

  std::uint32_t count = 0;
  check_vulkan(api_.vkEnumeratePhysicalDevices(instance_, &count, nullptr), "device",
               "vkEnumeratePhysicalDevices");
  std::vector<VkPhysicalDevice> physical(count);
  if (count)
    check_vulkan(api_.vkEnumeratePhysicalDevices(instance_, &count, physical.data()), "device",
                 "vkEnumeratePhysicalDevices");
  physical.resize(count);
  device_count_ = int(count);
  std::vector<VulkanDeviceDescription> devices;
  std::vector<VkPhysicalDeviceProperties> properties(count);
  for (std::uint32_t k = 0; k < count; ++k) {
    VulkanDeviceDescription d;
    d.index = int(k);
    VkPhysicalDeviceDriverProperties driver{};
    driver.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DRIVER_PROPERTIES;
    VkPhysicalDeviceProperties2 properties2{};
    properties2.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2;
    api_.vkGetPhysicalDeviceProperties(physical[k], &properties[k]);
    const VkPhysicalDeviceProperties& p = properties[k];
    if (p.apiVersion >= VK_API_VERSION_1_2 && application.apiVersion >= VK_API_VERSION_1_2) {
      properties2.pNext = &driver;
      api_.vkGetPhysicalDeviceProperties2(physical[k], &properties2);
      d.driver_id = std::uint32_t(driver.driverID);
      d.driver_name = driver.driverName;
      d.driver_info = driver.driverInfo;
    }
    d.name = p.deviceName;
    d.type = type_name(p.deviceType);
    d.api_version = p.apiVersion;
    d.driver_version = p.driverVersion;
    d.vendor_id = p.vendorID;
    d.device_id = p.deviceID;
    d.max_storage_buffer_range = p.limits.maxStorageBufferRange;
    d.max_shared_memory_bytes = p.limits.maxComputeSharedMemorySize;
    std::uint32_t extension_count = 0;
    check_vulkan(
        api_.vkEnumerateDeviceExtensionProperties(physical[k], nullptr, &extension_count, nullptr),
        "device", "vkEnumerateDeviceExtensionProperties");
    std::vector<VkExtensionProperties> extensions(extension_count);
    if (extension_count)
      check_vulkan(api_.vkEnumerateDeviceExtensionProperties(physical[k], nullptr, &extension_count,
                                                             extensions.data()),
                   "device", "vkEnumerateDeviceExtensionProperties");
    extensions.resize(extension_count);
    d.atomic_float_extension = has_extension(extensions, VK_EXT_SHADER_ATOMIC_FLOAT_EXTENSION_NAME);
    VkPhysicalDeviceShaderAtomicFloatFeaturesEXT atomic_features{};
    atomic_features.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_ATOMIC_FLOAT_FEATURES_EXT;
    VkPhysicalDeviceFeatures2 features{};
    features.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2;
    if (d.atomic_float_extension) features.pNext = &atomic_features;
    api_.vkGetPhysicalDeviceFeatures2(physical[k], &features);
    d.shader_float64 = features.features.shaderFloat64 == VK_TRUE;
    d.buffer_float64_atomic_add =
        d.atomic_float_extension && atomic_features.shaderBufferFloat64AtomicAdd == VK_TRUE;
    std::uint32_t family_count = 0;
    api_.vkGetPhysicalDeviceQueueFamilyProperties(physical[k], &family_count, nullptr);
    std::vector<VkQueueFamilyProperties> families(family_count);
    api_.vkGetPhysicalDeviceQueueFamilyProperties(physical[k], &family_count, families.data());
    for (const VkQueueFamilyProperties& family : families)
      d.compute_queue = d.compute_queue || (family.queueFlags & VK_QUEUE_COMPUTE_BIT) != 0;
    VkPhysicalDeviceMemoryProperties memory{};
    api_.vkGetPhysicalDeviceMemoryProperties(physical[k], &memory);
    for (std::uint32_t h = 0; h < memory.memoryHeapCount; ++h)
      if (memory.memoryHeaps[h].flags & VK_MEMORY_HEAP_DEVICE_LOCAL_BIT)
        d.device_local_bytes += memory.memoryHeaps[h].size;
    devices.push_back(d);
  }
  description_ = choose_vulkan_device(devices, index);
  check_vulkan_device(description_);
  atomic_ = vulkan_strategy_is_atomic(strategy, description_);
  physical_ = physical[std::size_t(index)];
  const VkPhysicalDeviceProperties& chosen = properties[std::size_t(index)];
  timestamp_period_ns_ = chosen.limits.timestampPeriod;
  max_workgroups_x_ = std::min<std::uint32_t>(chosen.limits.maxComputeWorkGroupCount[0], 65535);
  api_.vkGetPhysicalDeviceMemoryProperties(physical_, &memory_);

  // The first queue family that computes; prefer one without graphics (a compute engine).
  std::uint32_t family_count = 0;
  api_.vkGetPhysicalDeviceQueueFamilyProperties(physical_, &family_count, nullptr);
  std::vector<VkQueueFamilyProperties> families(family_count);
  api_.vkGetPhysicalDeviceQueueFamilyProperties(physical_, &family_count, families.data());
  int best = -1;
  for (std::uint32_t f = 0; f < family_count; ++f) {
    if (!(families[f].queueFlags & VK_QUEUE_COMPUTE_BIT)) continue;
    if (best < 0 || (!(families[f].queueFlags & VK_QUEUE_GRAPHICS_BIT) &&
                     (families[std::size_t(best)].queueFlags & VK_QUEUE_GRAPHICS_BIT)))
      best = int(f);
  }
  queue_family_ = std::uint32_t(best);
  timestamp_bits_ = families[queue_family_].timestampValidBits;

  const float priority = 1.0f;
  VkDeviceQueueCreateInfo queue_info{};
  queue_info.sType = VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO;
  queue_info.queueFamilyIndex = queue_family_;
  queue_info.queueCount = 1;
  queue_info.pQueuePriorities = &priority;
  VkPhysicalDeviceShaderAtomicFloatFeaturesEXT atomic_features{};
  atomic_features.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_ATOMIC_FLOAT_FEATURES_EXT;
  atomic_features.shaderBufferFloat64AtomicAdd = VK_TRUE;
  VkPhysicalDeviceFeatures2 features{};
  features.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2;
  features.features.shaderFloat64 = VK_TRUE;
  const char* extension = VK_EXT_SHADER_ATOMIC_FLOAT_EXTENSION_NAME;
  VkDeviceCreateInfo device_info{};
  device_info.sType = VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO;
  device_info.pNext = &features;
  device_info.queueCreateInfoCount = 1;
  device_info.pQueueCreateInfos = &queue_info;
  if (atomic_) {
    features.pNext = &atomic_features;
    device_info.enabledExtensionCount = 1;
    device_info.ppEnabledExtensionNames = &extension;
  }
  check_vulkan(api_.vkCreateDevice(physical_, &device_info, nullptr, &device_), "device",
               "vkCreateDevice");
  load_vulkan_device_functions(api_, device_);
  api_.vkGetDeviceQueue(device_, queue_family_, 0, &queue_);
}

VulkanContext::~VulkanContext() {
  destroy();
}

void VulkanContext::destroy() {
  if (device_) {
    api_.vkDeviceWaitIdle(device_);
    api_.vkDestroyDevice(device_, nullptr);
    device_ = VK_NULL_HANDLE;
  }
  if (instance_) api_.vkDestroyInstance(instance_, nullptr);
  instance_ = VK_NULL_HANDLE;
  close_vulkan_loader(api_);
}

std::uint32_t VulkanContext::memory_type(std::uint32_t allowed, bool host_visible,
                                         const std::string& phase) const {
  const VkMemoryPropertyFlags host =
      VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT;
  // Host-visible: coherent, cached where offered (the frame is read back through it);
  // device buffers: device-local.
  const VkMemoryPropertyFlags wanted[2][2] = {{VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT, 0},
                                              {host | VK_MEMORY_PROPERTY_HOST_CACHED_BIT, host}};
  for (const VkMemoryPropertyFlags flags : wanted[host_visible ? 1 : 0]) {
    for (std::uint32_t t = 0; t < memory_.memoryTypeCount; ++t)
      if ((allowed & (1u << t)) && (memory_.memoryTypes[t].propertyFlags & flags) == flags)
        return t;
  }
  throw_run_failure("vulkan " + phase, "no memory type for the buffer");
}

VulkanBuffer VulkanContext::allocate(std::uint64_t bytes, bool host_visible,
                                     const std::string& phase) {
  bytes = std::max<std::uint64_t>(16, (bytes + 15) / 16 * 16);
  if (bytes > description_.max_storage_buffer_range)
    throw_run_failure(
        "vulkan " + phase,
        "a buffer of " + std::to_string(bytes) +
            " bytes exceeds the device's largest storage buffer (maxStorageBufferRange " +
            std::to_string(description_.max_storage_buffer_range) + " bytes)");
  VulkanBuffer buffer;
  VkBufferCreateInfo info{};
  info.sType = VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO;
  info.size = bytes;
  info.usage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_SRC_BIT |
               VK_BUFFER_USAGE_TRANSFER_DST_BIT;
  info.sharingMode = VK_SHARING_MODE_EXCLUSIVE;
  check_vulkan(api_.vkCreateBuffer(device_, &info, nullptr, &buffer.buffer_), phase,
               "vkCreateBuffer");
  buffer.context_ = this;
  buffer.size_ = bytes;
  VkMemoryRequirements requirements{};
  api_.vkGetBufferMemoryRequirements(device_, buffer.buffer_, &requirements);
  if (limit_ && in_use_ + requirements.size > limit_)
    throw_run_failure("vulkan " + phase,
                      "vkAllocateMemory failed: VK_ERROR_OUT_OF_DEVICE_MEMORY (" +
                          std::to_string(requirements.size) + " bytes more than the " +
                          std::to_string(limit_) + " of STARLENS_VULKAN_MEMORY_LIMIT, " +
                          std::to_string(in_use_) + " in use)");
  VkMemoryAllocateInfo allocate_info{};
  allocate_info.sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO;
  allocate_info.allocationSize = requirements.size;
  allocate_info.memoryTypeIndex = memory_type(requirements.memoryTypeBits, host_visible, phase);
  const VkResult result = api_.vkAllocateMemory(device_, &allocate_info, nullptr, &buffer.memory_);
  if (result != VK_SUCCESS)
    throw_run_failure("vulkan " + phase, "vkAllocateMemory of " +
                                             std::to_string(requirements.size) +
                                             " bytes failed: " + vulkan_result_name(result));
  buffer.allocated_ = requirements.size;
  in_use_ += requirements.size;
  peak_ = std::max(peak_, in_use_);
  check_vulkan(api_.vkBindBufferMemory(device_, buffer.buffer_, buffer.memory_, 0), phase,
               "vkBindBufferMemory");
  if (host_visible)
    check_vulkan(api_.vkMapMemory(device_, buffer.memory_, 0, VK_WHOLE_SIZE, 0, &buffer.mapped_),
                 phase, "vkMapMemory");
  return buffer;
}

void VulkanContext::release(VkBuffer buffer, VkDeviceMemory memory, std::uint64_t allocated) {
  if (buffer) api_.vkDestroyBuffer(device_, buffer, nullptr);
  if (memory) api_.vkFreeMemory(device_, memory, nullptr);
  in_use_ -= allocated;
}

}  // namespace starlens
