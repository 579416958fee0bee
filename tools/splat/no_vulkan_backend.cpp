// Builds without the Vulkan headers or glslc (or with -Dvulkan=disabled) have no vulkan
// backend; asking for it is a bad argument.
#include "backend.h"
#include "core/errors.h"

namespace starlens {

std::unique_ptr<SplatBackend> make_vulkan_backend(const SplatSettings&) {
  throw_input_error("--backend vulkan", "",
                    "this build has no vulkan backend (configure with -Dvulkan=enabled; it needs "
                    "libvulkan-dev and glslc)");
}

}  // namespace starlens
