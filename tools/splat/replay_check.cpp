#include "replay_check.h"

#include <png.h>

#include <cstdlib>
#include <filesystem>
#include <vector>

#include "compare/budget.h"
#include "compare/frame_comparison.h"
#include "compare/verdict.h"
#include "core/progress.h"
#include "frame/exr_reader.h"
#include "manifest/hash_scheme.h"

namespace starlens {
namespace {

namespace fs = std::filesystem;

nlohmann::json verdict(bool equivalent, const std::string& reason) {
  return {{"equivalent", equivalent}, {"reason", reason}};
}

// docs/design.md section 10, as tests/tools/splat/gpu/gpu_vs_cpu_budget.json: GPU and CPU frames of
// the same events differ only in the order of additions, and so do two GPU runs.
compare::Budget order_of_addition_budget() {
  compare::Budget budget;
  for (compare::ChannelLimits& limits : budget.channels) {
    limits.max_rel = 1e-12;
    limits.rel_floor = 1e-9;
    limits.total_rel = 1e-13;
  }
  budget.comment = "GPU runs differ only in the order of additions (docs/design.md section 10)";
  return budget;
}

nlohmann::json compare_exr(const std::string& recorded, const std::string& replay) {
  ExrFrameReader a(replay), b(recorded);
  if (a.width() != b.width() || a.height() != b.height())
    return verdict(false, "the frames' sizes differ");
  const compare::Budget budget = order_of_addition_budget();
  std::array<double, compare::kChannelCount> floors{};
  for (std::size_t c = 0; c < floors.size(); ++c) floors[c] = budget.channels[c].rel_floor;
  Progress progress("replay compare", 2 * std::uint64_t(b.height()), true);
  const compare::FrameComparison comparison = compare::compare_frames(a, b, floors, {}, progress);
  const std::vector<compare::Exceedance> exceeded = compare::check_budget(comparison, budget);
  const compare::ChannelStatistics& y = comparison.channels[compare::kLuminance];
  nlohmann::json result =
      verdict(exceeded.empty(), exceeded.empty()
                                    ? "a GPU frame summed in another order, within the budget"
                                    : "beyond the budget for a GPU frame summed in another order");
  result["budget"] = compare::budget_to_json(budget);
  result["Y_max_rel"] = y.max_rel_error;
  result["Y_total_rel"] = y.total_rel();
  for (const compare::Exceedance& item : exceeded) result["exceeded"].push_back(item.describe());
  return result;
}

// 8-bit RGB pixels of a PNG (libpng's simplified API); empty when it cannot be read.
std::vector<std::uint8_t> read_png_rgb(const std::string& path, std::uint32_t& width,
                                       std::uint32_t& height) {
  png_image image{};
  image.version = PNG_IMAGE_VERSION;
  if (png_image_begin_read_from_file(&image, path.c_str()) == 0) return {};
  image.format = PNG_FORMAT_RGB;
  std::vector<std::uint8_t> pixels(PNG_IMAGE_SIZE(image));
  if (png_image_finish_read(&image, nullptr, pixels.data(), 0, nullptr) == 0) {
    png_image_free(&image);
    return {};
  }
  width = image.width;
  height = image.height;
  return pixels;
}

nlohmann::json compare_png(const std::string& recorded, const std::string& replay) {
  std::uint32_t width_a = 0, height_a = 0, width_b = 0, height_b = 0;
  const std::vector<std::uint8_t> a = read_png_rgb(replay, width_a, height_a);
  const std::vector<std::uint8_t> b = read_png_rgb(recorded, width_b, height_b);
  if (a.empty() || b.empty()) return verdict(false, "a PNG could not be read");
  if (width_a != width_b || height_a != height_b) return verdict(false, "the PNGs' sizes differ");
  int most = 0;
  for (std::size_t k = 0; k < a.size(); ++k) most = std::max(most, std::abs(a[k] - b[k]));
  nlohmann::json result =
      verdict(most <= 1, most <= 1 ? "no 8-bit value moved by more than one level"
                                   : "8-bit values moved by more than one level");
  result["max_level_difference"] = most;
  return result;
}

}  // namespace

std::optional<nlohmann::json> check_gpu_replay_output(const JsonField& manifest,
                                                      const JsonField& recorded,
                                                      const std::string& replay) {
  const auto parameters = manifest.find("parameters");
  const std::string backend = parameters ? parameters->string_or("backend", "") : "";
  if (backend != "gpu" && backend != "vulkan") return std::nullopt;
  const std::string path = recorded["path"].as_string();
  const std::string extension = fs::path(path).extension().string();
  if (extension != ".exr" && extension != ".png") return std::nullopt;
  if (!fs::exists(path))
    return verdict(false, "the recorded output " + path + " is gone: nothing to compare with");
  const auto recorded_hash_of_path = recorded_hash(recorded);
  if (!recorded_hash_of_path ||
      hash_file_as(recorded_hash_of_path->scheme, path) != recorded_hash_of_path->hex)
    return verdict(false, "the recorded output " + path + " changed since the run");
  return extension == ".exr" ? compare_exr(path, replay) : compare_png(path, replay);
}

}  // namespace starlens
