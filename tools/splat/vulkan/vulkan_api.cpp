#include "vulkan_api.h"

#include <dlfcn.h>
#include <link.h>

#include <cstdlib>
#include <set>

#include "core/errors.h"

namespace starlens {

namespace {

int add_library(dl_phdr_info* info, std::size_t, void* names) {
  if (info->dlpi_name && *info->dlpi_name)
    static_cast<std::set<std::string>*>(names)->insert(info->dlpi_name);
  return 0;
}

std::set<std::string> loaded_libraries() {
  std::set<std::string> names;
  dl_iterate_phdr(add_library, &names);
  return names;
}

// The libraries loaded before the loader was opened (the drivers are those loaded after).
std::set<std::string>& libraries_before_loader() {
  static std::set<std::string> names;
  return names;
}

}  // namespace

void keep_vulkan_drivers_loaded() {
  for (const std::string& name : loaded_libraries())
    if (!libraries_before_loader().count(name))
      dlopen(name.c_str(), RTLD_NOW | RTLD_NOLOAD | RTLD_NODELETE);
}

void load_vulkan_loader(VulkanApi& api) {
  if (libraries_before_loader().empty()) libraries_before_loader() = loaded_libraries();
  const char* named = std::getenv("STARLENS_VULKAN_LOADER");
  api.library_name = named && *named ? named : "libvulkan.so.1";
  api.library = dlopen(api.library_name.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!api.library) {
    const char* reason = dlerror();
    throw_run_failure("vulkan loader", "cannot open " + api.library_name + " (" +
                                           (reason ? reason : "unknown error") +
                                           "): no Vulkan loader on this machine");
  }
  api.vkGetInstanceProcAddr =
      reinterpret_cast<PFN_vkGetInstanceProcAddr>(dlsym(api.library, "vkGetInstanceProcAddr"));
  if (!api.vkGetInstanceProcAddr)
    throw_run_failure("vulkan loader", api.library_name + " has no vkGetInstanceProcAddr");
  api.vkCreateInstance = reinterpret_cast<PFN_vkCreateInstance>(
      api.vkGetInstanceProcAddr(VK_NULL_HANDLE, "vkCreateInstance"));
  api.vkEnumerateInstanceVersion = reinterpret_cast<PFN_vkEnumerateInstanceVersion>(
      api.vkGetInstanceProcAddr(VK_NULL_HANDLE, "vkEnumerateInstanceVersion"));
  if (!api.vkCreateInstance)
    throw_run_failure("vulkan loader", api.library_name + " has no vkCreateInstance");
}

void load_vulkan_instance_functions(VulkanApi& api, VkInstance instance) {
#define STARLENS_VULKAN_LOAD(name)                                                     \
  api.name = reinterpret_cast<PFN_##name>(api.vkGetInstanceProcAddr(instance, #name)); \
  if (!api.name) throw_run_failure("vulkan instance", "the loader has no " #name);
  STARLENS_VULKAN_INSTANCE_FUNCTIONS(STARLENS_VULKAN_LOAD)
#undef STARLENS_VULKAN_LOAD
}

void load_vulkan_device_functions(VulkanApi& api, VkDevice device) {
#define STARLENS_VULKAN_LOAD(name)                                                 \
  api.name = reinterpret_cast<PFN_##name>(api.vkGetDeviceProcAddr(device, #name)); \
  if (!api.name) throw_run_failure("vulkan device", "the driver has no " #name);
  STARLENS_VULKAN_DEVICE_FUNCTIONS(STARLENS_VULKAN_LOAD)
#undef STARLENS_VULKAN_LOAD
}

void close_vulkan_loader(VulkanApi& api) {
  // The library stays loaded until the process ends: drivers keep state in it that outlives
  // vkDestroyInstance (lavapipe's allocations would turn into leaks once it was unmapped).
  api.library = nullptr;
}

std::string vulkan_result_name(VkResult result) {
  switch (result) {
#define STARLENS_VULKAN_RESULT(name) \
  case name:                         \
    return #name;
    STARLENS_VULKAN_RESULT(VK_SUCCESS)
    STARLENS_VULKAN_RESULT(VK_NOT_READY)
    STARLENS_VULKAN_RESULT(VK_TIMEOUT)
    STARLENS_VULKAN_RESULT(VK_INCOMPLETE)
    STARLENS_VULKAN_RESULT(VK_ERROR_OUT_OF_HOST_MEMORY)
    STARLENS_VULKAN_RESULT(VK_ERROR_OUT_OF_DEVICE_MEMORY)
    STARLENS_VULKAN_RESULT(VK_ERROR_INITIALIZATION_FAILED)
    STARLENS_VULKAN_RESULT(VK_ERROR_DEVICE_LOST)
    STARLENS_VULKAN_RESULT(VK_ERROR_MEMORY_MAP_FAILED)
    STARLENS_VULKAN_RESULT(VK_ERROR_LAYER_NOT_PRESENT)
    STARLENS_VULKAN_RESULT(VK_ERROR_EXTENSION_NOT_PRESENT)
    STARLENS_VULKAN_RESULT(VK_ERROR_FEATURE_NOT_PRESENT)
    STARLENS_VULKAN_RESULT(VK_ERROR_INCOMPATIBLE_DRIVER)
    STARLENS_VULKAN_RESULT(VK_ERROR_TOO_MANY_OBJECTS)
    STARLENS_VULKAN_RESULT(VK_ERROR_FORMAT_NOT_SUPPORTED)
    STARLENS_VULKAN_RESULT(VK_ERROR_FRAGMENTED_POOL)
    STARLENS_VULKAN_RESULT(VK_ERROR_UNKNOWN)
    STARLENS_VULKAN_RESULT(VK_ERROR_OUT_OF_POOL_MEMORY)
    STARLENS_VULKAN_RESULT(VK_ERROR_INVALID_EXTERNAL_HANDLE)
    STARLENS_VULKAN_RESULT(VK_ERROR_FRAGMENTATION)
    STARLENS_VULKAN_RESULT(VK_ERROR_INVALID_OPAQUE_CAPTURE_ADDRESS)
#undef STARLENS_VULKAN_RESULT
    default:
      return "VkResult " + std::to_string(static_cast<int>(result));
  }
}

void check_vulkan(VkResult result, const std::string& phase, const char* call) {
  if (result != VK_SUCCESS)
    throw_run_failure("vulkan " + phase,
                      std::string(call) + " failed: " + vulkan_result_name(result));
}

std::string vulkan_version_string(std::uint32_t version) {
  return std::to_string(VK_API_VERSION_MAJOR(version)) + "." +
         std::to_string(VK_API_VERSION_MINOR(version)) + "." +
         std::to_string(VK_API_VERSION_PATCH(version));
}

}  // namespace starlens
