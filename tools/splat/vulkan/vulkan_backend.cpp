// The vulkan splat backend (docs/gpu.md, "The Vulkan backend"): events stream through reused
// device buffers a batch at a time; each pass prepares the events, bins them into 16 px tiles
// (count, scan, fill, sort into stream order) and accumulates each tile in workgroup memory
// before merging it into the frame, which stays on the device until finish(). Batches and
// direct passes follow the CPU backend's boundaries (2^18 events; direct events gathered until
// 2^26 pixels or 2^18 events), so every pixel receives its contributions in the CPU's order.
#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <numbers>
#include <optional>
#include <string_view>
#include <vector>

#include "backend.h"
#include "core/errors.h"
#include "core/stopwatch.h"
#include "optics/direct_pixel.h"
#include "splat_counts.h"
#include "vulkan_context.h"
#include "vulkan_pipelines.h"

namespace starlens {
namespace {

// The CPU backend's batch and direct-batch bounds (cpu_backend.cpp): the frame's bits depend
// on where direct events are added between cached ones, so they are the CPU's.
constexpr std::uint64_t kCpuBatchEvents = 1 << 18;
constexpr double kCpuDirectBatchPixels = double(1 << 26);
constexpr std::uint32_t kTileSide = 16;
constexpr std::uint64_t kPreparedBytes = 112;  // shaders/splat_layout.glsl's Prepared
// On llvmpipe (lavapipe), each accumulate dispatch takes at most this many events of every
// tile's list: llvmpipe ends a shader invocation's loops after 65,535 iterations in all, a
// cached event costs an iteration and a direct event's integral up to tens of thousands (the
// exact quadrature near its centre). Other drivers take whole lists in one dispatch.
constexpr std::uint32_t kLlvmpipeCachedWindow = 2048;
constexpr std::uint32_t kLlvmpipeDirectWindow = 1;

// The environment variable `name` as a whole number from 1 to `most` (`range` says so in the
// message), or nullopt when it is not set; "whole" gives `most` where `whole_word` allows it.
// Anything else: InputError naming the variable.
std::optional<std::uint32_t> whole_number_from_environment(const char* name, std::uint64_t most,
                                                           const char* range, bool whole_word) {
  const char* text = std::getenv(name);
  if (!text) return std::nullopt;
  if (whole_word && std::string_view(text) == "whole") return std::uint32_t(most);
  char* end = nullptr;
  errno = 0;
  const unsigned long long value = std::strtoull(text, &end, 10);
  if (errno || end == text || *end || value < 1 || value > most ||
      !(*text >= '0' && *text <= '9')) {
    std::string reason = "'";
    reason += text;
    reason += whole_word ? "' is neither 'whole' nor a whole number from 1 to "
                         : "' is not a whole number from 1 to ";
    reason += range;
    throw_input_error(std::string("environment variable ") + name, "", reason);
  }
  return std::uint32_t(value);
}

// STARLENS_VULKAN_BATCH_EVENTS: events a pass takes (default 2^18), 1 to 2^24.
std::uint32_t batch_events_from_environment() {
  return whole_number_from_environment("STARLENS_VULKAN_BATCH_EVENTS", 1ull << 24, "2^24", false)
      .value_or(std::uint32_t(kCpuBatchEvents));
}

// STARLENS_VULKAN_LIST_WINDOW: events of each tile's list an accumulate dispatch takes, 1 to
// 2^32 - 1 or "whole" (the default outside llvmpipe), for the cached and the direct passes
// alike; the tests run llvmpipe with whole lists on small frames through it.
std::optional<std::uint32_t> list_window_from_environment() {
  return whole_number_from_environment("STARLENS_VULKAN_LIST_WINDOW", UINT32_MAX, "2^32 - 1", true);
}

// shaders/splat_layout.glsl's DirectRule block (std430: the doubles in order, then the int).
struct DirectRuleBlock {
  double psf_alpha, psf_beta, alpha_sq, beta, peak;
  double min_radius_sq[7];
  double series[24];
  double series_reach[25];
  std::int32_t cut_order_margin;
  std::int32_t padding;
};
static_assert(sizeof(DirectRuleBlock) == 61 * 8 + 8);

class VulkanBackend final : public SplatBackend {
 public:
  explicit VulkanBackend(const SplatSettings& settings)
      : settings_(settings),
        batch_events_(batch_events_from_environment()),
        list_window_(list_window_from_environment()) {
    if (settings.events_bound > 0)
      batch_events_ = std::uint32_t(std::min<std::uint64_t>(batch_events_, settings.events_bound));
  }

  ~VulkanBackend() override {
    if (context_) {
      const VulkanApi& api = context_->api();
      if (context_->device()) api.vkDeviceWaitIdle(context_->device());
      if (fence_) api.vkDestroyFence(context_->device(), fence_, nullptr);
      if (queries_) api.vkDestroyQueryPool(context_->device(), queries_, nullptr);
      if (pool_) api.vkDestroyCommandPool(context_->device(), pool_, nullptr);
    }
  }

  std::string name() const override { return "vulkan"; }

  void begin(const StreamHeader& header, const PhaseCache& cache) override {
    header_ = header;
    context_ = std::make_unique<VulkanContext>(settings_.gpu_device, settings_.gpu_strategy);
    pipelines_ = std::make_unique<VulkanPipelines>(*context_);
    const VulkanApi& api = context_->api();
    const VkDevice device = context_->device();
    VkCommandPoolCreateInfo pool_info{};
    pool_info.sType = VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO;
    pool_info.flags = VK_COMMAND_POOL_CREATE_RESET_COMMAND_BUFFER_BIT;
    pool_info.queueFamilyIndex = context_->queue_family();
    check_vulkan(api.vkCreateCommandPool(device, &pool_info, nullptr, &pool_), "setup",
                 "vkCreateCommandPool");
    VkCommandBufferAllocateInfo command_info{};
    command_info.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO;
    command_info.commandPool = pool_;
    command_info.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY;
    command_info.commandBufferCount = 1;
    check_vulkan(api.vkAllocateCommandBuffers(device, &command_info, &commands_), "setup",
                 "vkAllocateCommandBuffers");
    VkFenceCreateInfo fence_info{};
    fence_info.sType = VK_STRUCTURE_TYPE_FENCE_CREATE_INFO;
    check_vulkan(api.vkCreateFence(device, &fence_info, nullptr, &fence_), "setup",
                 "vkCreateFence");
    if (context_->timestamps()) {
      VkQueryPoolCreateInfo query_info{};
      query_info.sType = VK_STRUCTURE_TYPE_QUERY_POOL_CREATE_INFO;
      query_info.queryType = VK_QUERY_TYPE_TIMESTAMP;
      query_info.queryCount = kQueries;
      check_vulkan(api.vkCreateQueryPool(device, &query_info, nullptr, &queries_), "setup",
                   "vkCreateQueryPool");
    }

    push_.width = header.width;
    push_.height = header.height;
    push_.tiles_x = (header.width + kTileSide - 1) / kTileSide;
    push_.tiles_y = (header.height + kTileSide - 1) / kTileSide;
    push_.tile_count = push_.tiles_x * push_.tiles_y;
    push_.radius = cache.radius();
    push_.phases = cache.phases();
    push_.all_direct = settings_.all_direct ? 1 : 0;
    if (context_->description().driver_id == VK_DRIVER_ID_MESA_LLVMPIPE) {
      cached_window_ = kLlvmpipeCachedWindow;
      direct_window_ = kLlvmpipeDirectWindow;
    }
    if (list_window_) cached_window_ = direct_window_ = *list_window_;

    const std::uint64_t frame_bytes = std::uint64_t(header.width) * header.height * 3 * 8;
    frame_ = context_->allocate(frame_bytes, false, "frame allocation");
    staging_ =
        context_->allocate(std::uint64_t(batch_events_) * sizeof(StarEvent), true, "event buffers");
    events_ = context_->allocate(std::uint64_t(batch_events_) * sizeof(StarEvent), false,
                                 "event buffers");
    prepared_ =
        context_->allocate(std::uint64_t(batch_events_) * kPreparedBytes, false, "event buffers");
    const std::uint64_t tile_bytes = 4 * (std::uint64_t(push_.tile_count) + 1);
    tile_counts_ = context_->allocate(tile_bytes, false, "binning buffers");
    tile_offsets_ = context_->allocate(tile_bytes, false, "binning buffers");
    tile_cursors_ = context_->allocate(tile_bytes, false, "binning buffers");
    grow_references(std::max<std::uint64_t>(4096, 4 * std::uint64_t(batch_events_)));
    info_ = context_->allocate(32, true, "binning buffers");

    const std::vector<double>& weights = cache.all_weights();
    weights_ = context_->allocate(weights.size() * sizeof(double), false, "phase cache upload");
    upload(weights_, weights.data(), weights.size() * sizeof(double), "phase cache upload");
    const Moffat psf = moffat_from_fwhm(header.psf.fwhm, header.psf.beta);
    const DirectPixelRule rule = direct_pixel_rule(psf);
    DirectRuleBlock block{};
    block.psf_alpha = psf.alpha;
    block.psf_beta = psf.beta;
    block.alpha_sq = rule.alpha_sq;
    block.beta = rule.beta;
    block.peak = rule.peak;
    std::copy(std::begin(rule.min_radius_sq), std::end(rule.min_radius_sq), block.min_radius_sq);
    std::copy(std::begin(rule.series), std::end(rule.series), block.series);
    std::copy(std::begin(rule.series_reach), std::end(rule.series_reach), block.series_reach);
    block.cut_order_margin = rule.cut_order_margin;
    rule_ = context_->allocate(sizeof(block), false, "phase cache upload");
    upload(rule_, &block, sizeof(block), "phase cache upload");

    pipelines_->bind(SplatBinding::events, events_);
    pipelines_->bind(SplatBinding::prepared, prepared_);
    pipelines_->bind(SplatBinding::tile_counts, tile_counts_);
    pipelines_->bind(SplatBinding::tile_offsets, tile_offsets_);
    pipelines_->bind(SplatBinding::tile_cursors, tile_cursors_);
    pipelines_->bind(SplatBinding::frame, frame_);
    pipelines_->bind(SplatBinding::phase_weights, weights_);
    pipelines_->bind(SplatBinding::direct_rule, rule_);
    pipelines_->bind(SplatBinding::info, info_);

    // The frame starts at +0.0 (the CPU's frame does).
    record_begin("frame allocation");
    api.vkCmdFillBuffer(commands_, frame_.handle(), 0, VK_WHOLE_SIZE, 0);
    submit_and_wait("frame allocation");
  }

  void accumulate(std::span<const StarEvent> events) override {
    auto* staged = static_cast<StarEvent*>(staging_.mapped());
    while (!events.empty()) {
      // A batch ends where the pass is full and where the CPU's batch ends.
      const std::uint64_t to_boundary = kCpuBatchEvents - stream_events_ % kCpuBatchEvents;
      const std::size_t take = std::size_t(std::min<std::uint64_t>(
          {events.size(), std::uint64_t(batch_events_ - pending_), to_boundary}));
      {
        ScopedPhase phase(times_, "host_staging");
        std::memcpy(staged + pending_, events.data(), take * sizeof(StarEvent));
        for (std::size_t k = 0; k < take; ++k) {
          const StarEvent& event = events[k];
          stream_direct_ += event.support > header_.psf.cache_radius;  // stream_event_class
          if (settings_.all_direct || event.support > header_.psf.cache_radius) {
            direct_.push_back(event);
            direct_pixels_ += std::numbers::pi * double(event.support) * double(event.support);
          }
        }
      }
      pending_ += std::uint32_t(take);
      stream_events_ += take;
      events = events.subspan(take);
      const bool boundary = stream_events_ % kCpuBatchEvents == 0;
      if (pending_ == batch_events_ || boundary) flush_cached();
      if (boundary) flush_direct_if_due();
    }
  }

  void finish(Frame& frame) override {
    if (pending_ > 0) {
      flush_cached();
      flush_direct_if_due();
    }
    flush_direct();
    const auto start = std::chrono::steady_clock::now();
    VulkanBuffer readback = context_->allocate(frame_.size(), true, "download");
    record_begin("download");
    VkBufferCopy region{0, 0, frame_.size()};
    context_->api().vkCmdCopyBuffer(commands_, frame_.handle(), readback.handle(), 1, &region);
    submit_and_wait("download");
    frame = Frame(header_.width, header_.height);
    std::memcpy(frame.rgb.data(), readback.mapped(), frame.rgb.size() * sizeof(double));
    times_.add("download", seconds_since(start));
  }

  std::string progress_detail() const override {
    return "vulkan passes: " + std::to_string(passes_);
  }

  nlohmann::json statistics() const override {
    nlohmann::json statistics;
    EventClassCounts counts;
    counts.by_class[int(EventClass::direct)] = stream_direct_;
    counts.by_class[int(EventClass::cache)] = stream_events_ - stream_direct_;
    statistics["counts"] = counts.to_json();
    statistics["counts"]["contributions"] = contributions_cache_ + contributions_direct_;
    statistics["counts"]["contributions_cache"] = contributions_cache_;
    statistics["counts"]["contributions_direct"] = contributions_direct_;
    statistics["counts"]["events_evaluated_direct"] = events_evaluated_direct_;
    statistics["timings_s"] = {{"upload", times_.get("upload")},
                               {"binning", times_.get("binning")},
                               {"accumulate", times_.get("accumulate")},
                               {"accumulate_direct", times_.get("accumulate_direct")},
                               {"download", times_.get("download")},
                               {"host_staging", times_.get("host_staging")},
                               {"host_wait", times_.get("host_wait")}};
    nlohmann::json vulkan = nlohmann::json::object();
    if (context_) {
      vulkan["device"] = vulkan_device_json(context_->description());
      vulkan["device_count"] = context_->device_count();
      vulkan["loader"] = context_->api().library_name;
      vulkan["instance_version"] = vulkan_version_string(context_->instance_version());
      vulkan["device_memory_peak_bytes"] = context_->memory_peak();
      if (context_->memory_limit()) vulkan["memory_limit_bytes"] = context_->memory_limit();
      vulkan["strategy"] = settings_.gpu_strategy;
      vulkan["strategy_used"] = context_->atomic() ? "atomic" : "tile16";
      vulkan["timings_from"] = context_->timestamps() ? "device timestamps" : "host clocks";
    }
    vulkan["batch_events"] = batch_events_;
    vulkan["passes"] = passes_;
    vulkan["passes_split_for_references"] = split_passes_;
    vulkan["tile_references_capacity"] = reference_capacity_;
    vulkan["longest_tile_list"] = longest_list_;
    vulkan["list_window_cached"] = cached_window_;
    vulkan["list_window_direct"] = direct_window_;
    statistics["vulkan"] = vulkan;
    return statistics;
  }

 private:
  static constexpr std::uint32_t kQueries = 6;

  void record_begin(const std::string& phase) {
    const VulkanApi& api = context_->api();
    check_vulkan(api.vkResetCommandBuffer(commands_, 0), phase, "vkResetCommandBuffer");
    VkCommandBufferBeginInfo info{};
    info.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO;
    info.flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT;
    check_vulkan(api.vkBeginCommandBuffer(commands_, &info), phase, "vkBeginCommandBuffer");
  }

  // Ends, submits and waits for the command buffer (a lost device or a fault surfaces here).
  void submit_and_wait(const std::string& phase) {
    const VulkanApi& api = context_->api();
    check_vulkan(api.vkEndCommandBuffer(commands_), phase, "vkEndCommandBuffer");
    VkSubmitInfo submit{};
    submit.sType = VK_STRUCTURE_TYPE_SUBMIT_INFO;
    submit.commandBufferCount = 1;
    submit.pCommandBuffers = &commands_;
    check_vulkan(api.vkResetFences(context_->device(), 1, &fence_), phase, "vkResetFences");
    check_vulkan(api.vkQueueSubmit(context_->queue(), 1, &submit, fence_), phase, "vkQueueSubmit");
    const auto start = std::chrono::steady_clock::now();
    check_vulkan(api.vkWaitForFences(context_->device(), 1, &fence_, VK_TRUE, UINT64_MAX), phase,
                 "vkWaitForFences");
    times_.add("host_wait", seconds_since(start));
  }

  void barrier(VkPipelineStageFlags from, VkAccessFlags from_access, VkPipelineStageFlags to,
               VkAccessFlags to_access) {
    VkMemoryBarrier memory{};
    memory.sType = VK_STRUCTURE_TYPE_MEMORY_BARRIER;
    memory.srcAccessMask = from_access;
    memory.dstAccessMask = to_access;
    context_->api().vkCmdPipelineBarrier(commands_, from, to, 0, 1, &memory, 0, nullptr, 0,
                                         nullptr);
  }
  void compute_barrier() {
    barrier(VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_ACCESS_SHADER_WRITE_BIT,
            VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT,
            VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT);
  }
  void timestamp(std::uint32_t query, VkPipelineStageFlagBits stage) {
    if (queries_) context_->api().vkCmdWriteTimestamp(commands_, stage, queries_, query);
  }
  // Seconds between timestamps `from` and `to` (< `to`) of the last submission (0 without
  // timestamps).
  double elapsed(std::uint32_t from, std::uint32_t to) {
    if (!queries_) return 0;
    std::uint64_t stamps[kQueries] = {};
    check_vulkan(context_->api().vkGetQueryPoolResults(
                     context_->device(), queries_, from, to - from + 1,
                     sizeof(std::uint64_t) * (to - from + 1), stamps, sizeof(std::uint64_t),
                     VK_QUERY_RESULT_64_BIT | VK_QUERY_RESULT_WAIT_BIT),
                 "timing", "vkGetQueryPoolResults");
    return double(stamps[to - from] - stamps[0]) * context_->timestamp_period_ns() * 1e-9;
  }

  // A one-time upload through a host-visible buffer of its own.
  void upload(const VulkanBuffer& target, const void* data, std::uint64_t bytes,
              const std::string& phase) {
    VulkanBuffer host = context_->allocate(bytes, true, phase);
    std::memcpy(host.mapped(), data, bytes);
    record_begin(phase);
    VkBufferCopy region{0, 0, bytes};
    context_->api().vkCmdCopyBuffer(commands_, host.handle(), target.handle(), 1, &region);
    submit_and_wait(phase);
  }

  void grow_references(std::uint64_t references) {
    const std::uint64_t range = context_->description().max_storage_buffer_range / 4;
    references = std::min<std::uint64_t>({references, range, std::uint64_t(UINT32_MAX)});
    refs_ = VulkanBuffer();
    refs_ = context_->allocate(references * 4, false, "binning buffers");
    reference_capacity_ = std::uint32_t(references);
    pipelines_->bind(SplatBinding::tile_refs, refs_);
  }

  void flush_cached() {
    if (pending_ == 0) return;
    run_pass(0, pending_, 0);
    pending_ = 0;
  }

  void flush_direct_if_due() {
    if (direct_pixels_ >= kCpuDirectBatchPixels || direct_.size() >= kCpuBatchEvents)
      flush_direct();
  }

  // The gathered direct events, in stream order, through the staging buffer a pass at a time.
  void flush_direct() {
    if (direct_.empty()) return;
    events_evaluated_direct_ += direct_.size();
    auto* staged = static_cast<StarEvent*>(staging_.mapped());
    for (std::size_t first = 0; first < direct_.size(); first += batch_events_) {
      const std::size_t count = std::min<std::size_t>(batch_events_, direct_.size() - first);
      std::memcpy(staged, direct_.data() + first, count * sizeof(StarEvent));
      run_pass(0, std::uint32_t(count), 1);
    }
    direct_.clear();
    direct_pixels_ = 0;
  }

  // One pass over staged events [first, first + count): mode 0 their cached events, 1 direct
  // events. Prepared and counted first; a pass whose tile references exceed the largest buffer
  // is split in two (in order: each pixel still receives its events in stream order).
  void run_pass(std::uint32_t first, std::uint32_t count, std::uint32_t mode) {
    const VulkanApi& api = context_->api();
    const bool atomic = mode == 0 && context_->atomic();
    SplatPushConstants push = push_;
    push.count = count;
    push.mode = mode;
    push.ref_capacity = reference_capacity_;
    const std::uint64_t event_groups = (std::uint64_t(count) + 255) / 256;
    const std::string phase = mode ? "accumulate_direct" : "accumulate";

    const auto host_start = std::chrono::steady_clock::now();
    record_begin("binning");
    if (queries_) api.vkCmdResetQueryPool(commands_, queries_, 0, kQueries);
    timestamp(0, VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT);
    VkBufferCopy region{std::uint64_t(first) * sizeof(StarEvent), 0,
                        std::uint64_t(count) * sizeof(StarEvent)};
    api.vkCmdCopyBuffer(commands_, staging_.handle(), events_.handle(), 1, &region);
    api.vkCmdFillBuffer(commands_, tile_counts_.handle(), 0, VK_WHOLE_SIZE, 0);
    api.vkCmdFillBuffer(commands_, info_.handle(), 0, VK_WHOLE_SIZE, 0);
    barrier(VK_PIPELINE_STAGE_TRANSFER_BIT, VK_ACCESS_TRANSFER_WRITE_BIT,
            VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT,
            VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT);
    timestamp(1, VK_PIPELINE_STAGE_TRANSFER_BIT);
    pipelines_->dispatch(commands_, SplatShader::prepare, push, event_groups);
    compute_barrier();
    if (!atomic) pipelines_->dispatch(commands_, SplatShader::scan, push, 1);
    barrier(VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_ACCESS_SHADER_WRITE_BIT,
            VK_PIPELINE_STAGE_HOST_BIT, VK_ACCESS_HOST_READ_BIT);
    timestamp(2, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT);
    submit_and_wait("binning");
    const double upload_seconds = elapsed(0, 1);
    double binning_seconds = elapsed(1, 2);
    const double first_host_seconds = seconds_since(host_start);

    auto* info = static_cast<volatile std::uint32_t*>(info_.mapped());
    const std::uint32_t references = atomic ? 0 : info[0];
    const std::uint32_t longest = atomic ? 0 : info[4];
    longest_list_ = std::max(longest_list_, longest);
    if (references > reference_capacity_) {
      const std::uint64_t range = context_->description().max_storage_buffer_range / 4;
      if (references > range) {
        if (count == 1)
          throw_run_failure("vulkan binning",
                            "one event touches " + std::to_string(references) +
                                " tiles, more references than the largest storage buffer holds");
        ++split_passes_;
        run_pass(first, count / 2, mode);
        run_pass(first + count / 2, count - count / 2, mode);
        return;
      }
      grow_references(std::uint64_t(references) + references / 4);
      push.ref_capacity = reference_capacity_;
    }

    const auto second_start = std::chrono::steady_clock::now();
    record_begin(phase);
    if (queries_) api.vkCmdResetQueryPool(commands_, queries_, 0, kQueries);
    timestamp(3, VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT);
    if (atomic) {
      timestamp(4, VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT);
      pipelines_->dispatch(commands_, SplatShader::atomic, push, count);
    } else {
      pipelines_->dispatch(commands_, SplatShader::fill, push, event_groups);
      compute_barrier();
      pipelines_->dispatch(commands_, SplatShader::sort, push, push.tile_count);
      compute_barrier();
      if (longest > kSharedSortKeys) {
        std::uint32_t size = 1;
        while (size < longest) size <<= 1;
        for (std::uint32_t k = 2; k <= size; k <<= 1) {
          for (std::uint32_t d = k >> 1; d >= 1; d >>= 1) {
            push.sort_k = k;
            push.sort_d = d;
            pipelines_->dispatch(commands_, SplatShader::sort_step, push, push.tile_count);
            compute_barrier();
          }
        }
      }
      timestamp(4, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT);
      push.list_window = mode ? direct_window_ : cached_window_;
      for (std::uint64_t window = 0; window < longest; window += push.list_window) {
        push.list_first = std::uint32_t(window);
        if (window > 0) compute_barrier();
        pipelines_->dispatch(commands_, mode ? SplatShader::direct : SplatShader::accumulate, push,
                             push.tile_count);
      }
    }
    barrier(VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_ACCESS_SHADER_WRITE_BIT,
            VK_PIPELINE_STAGE_HOST_BIT, VK_ACCESS_HOST_READ_BIT);
    timestamp(5, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT);
    submit_and_wait(phase);
    ++passes_;
    if (info[3] != 0) throw_run_failure("vulkan binning", "the tile reference buffer overflowed");
    const std::uint64_t added = std::uint64_t(info[1]) | (std::uint64_t(info[2]) << 32);
    (mode ? contributions_direct_ : contributions_cache_) += added;
    if (queries_) {
      binning_seconds += elapsed(3, 4);
      times_.add("upload", upload_seconds);
      times_.add("binning", binning_seconds);
      times_.add(phase, elapsed(4, 5));
    } else {
      times_.add("binning", first_host_seconds);
      times_.add(phase, seconds_since(second_start));
    }
  }

  SplatSettings settings_;
  std::uint32_t batch_events_;
  std::optional<std::uint32_t> list_window_;  // STARLENS_VULKAN_LIST_WINDOW
  StreamHeader header_;
  std::unique_ptr<VulkanContext> context_;
  std::unique_ptr<VulkanPipelines> pipelines_;
  VkCommandPool pool_ = VK_NULL_HANDLE;
  VkCommandBuffer commands_ = VK_NULL_HANDLE;
  VkFence fence_ = VK_NULL_HANDLE;
  VkQueryPool queries_ = VK_NULL_HANDLE;
  SplatPushConstants push_;
  VulkanBuffer frame_, staging_, events_, prepared_, tile_counts_, tile_offsets_, tile_cursors_,
      refs_, info_, weights_, rule_;
  std::uint32_t reference_capacity_ = 0;
  std::uint32_t cached_window_ =
      UINT32_MAX;  // events of a tile's list an accumulate dispatch takes
  std::uint32_t direct_window_ = UINT32_MAX;
  std::uint32_t pending_ = 0;        // events staged for the next cached pass
  std::uint64_t stream_events_ = 0;  // events read so far
  std::uint64_t stream_direct_ = 0;  // of which support > Rc
  std::vector<StarEvent> direct_;    // direct events not yet added, in stream order
  double direct_pixels_ = 0;         // their pixels, pi support^2 summed (the CPU's rule)
  std::uint64_t events_evaluated_direct_ = 0;
  std::uint64_t contributions_cache_ = 0;
  std::uint64_t contributions_direct_ = 0;
  std::uint64_t passes_ = 0;
  std::uint32_t longest_list_ = 0;  // the longest tile list of any pass
  std::uint64_t split_passes_ = 0;
  PhaseTimes times_;
};

}  // namespace

std::unique_ptr<SplatBackend> make_vulkan_backend(const SplatSettings& settings) {
  return std::make_unique<VulkanBackend>(settings);
}

}  // namespace starlens
