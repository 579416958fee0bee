#pragma once
// The compute pipelines of the splat shaders (tools/splat/vulkan/shaders, compiled to SPIR-V
// at build time and embedded), their one descriptor set and the push constants they share
// (shaders/splat_layout.glsl).
#include <array>
#include <cstdint>

#include "vulkan_context.h"

namespace starlens {

// shaders/splat_layout.glsl's push constants, member for member.
struct SplatPushConstants {
  std::uint32_t count = 0;
  std::uint32_t width = 0;
  std::uint32_t height = 0;
  std::uint32_t tiles_x = 0;
  std::uint32_t tiles_y = 0;
  std::int32_t radius = 0;
  std::int32_t phases = 0;
  std::uint32_t mode = 0;  // 0: cached events, 1: direct events
  std::uint32_t all_direct = 0;
  std::uint32_t ref_capacity = 0;
  std::uint32_t tile_count = 0;
  std::uint32_t list_first = 0;  // accumulate: the window of each tile's list
  std::uint32_t list_window = 0;
  std::uint32_t sort_k = 0;  // sort_step: the bitonic stage and distance
  std::uint32_t sort_d = 0;
};

// The descriptor set's bindings (splat_layout.glsl).
enum class SplatBinding : std::uint32_t {
  events = 0,
  prepared = 1,
  tile_counts = 2,
  tile_offsets = 3,
  tile_cursors = 4,
  tile_refs = 5,
  frame = 6,
  phase_weights = 7,
  direct_rule = 8,
  info = 9,
};
constexpr std::uint32_t kSplatBindingCount = 10;

enum class SplatShader { prepare, scan, fill, sort, sort_step, accumulate, direct, atomic };
constexpr int kSplatShaderCount = 8;
// Lists up to this length are sorted in shared memory (shaders/splat_layout.glsl kSharedKeys).
constexpr std::uint32_t kSharedSortKeys = 4096;

class VulkanPipelines {
 public:
  // Every pipeline but `atomic`, which is made only where the context enables float64 atomic
  // add (its SPIR-V declares the capability).
  explicit VulkanPipelines(VulkanContext& context);
  VulkanPipelines(const VulkanPipelines&) = delete;
  VulkanPipelines& operator=(const VulkanPipelines&) = delete;
  ~VulkanPipelines();

  // Points binding `binding` of the set at `buffer` (the set must not be in use).
  void bind(SplatBinding binding, const VulkanBuffer& buffer);
  // Records: bind `shader`'s pipeline and the set, push `constants`, dispatch `groups`
  // workgroups (split over y where they exceed the device's x limit).
  void dispatch(VkCommandBuffer commands, SplatShader shader, const SplatPushConstants& constants,
                std::uint64_t groups) const;

 private:
  void destroy();

  VulkanContext& context_;
  VkDescriptorSetLayout set_layout_ = VK_NULL_HANDLE;
  VkPipelineLayout layout_ = VK_NULL_HANDLE;
  VkDescriptorPool pool_ = VK_NULL_HANDLE;
  VkDescriptorSet set_ = VK_NULL_HANDLE;
  std::array<VkPipeline, kSplatShaderCount> pipelines_{};
};

}  // namespace starlens
