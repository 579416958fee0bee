// check_gpu_replay_output (tools/splat/replay_check.h): what a replay of a GPU run accepts as
// its recorded frame. The frames here differ from the recorded one by known amounts, so the
// verdicts follow from the budget (docs/design.md section 10), not from the code under test.
#include <doctest/doctest.h>
#include <unistd.h>

#include <cmath>
#include <filesystem>
#include <fstream>

#include "core/errors.h"
#include "frame/frame_io.h"
#include "frame/png_writer.h"
#include "manifest/block_tree_sha256.h"
#include "manifest/sha256.h"
#include "replay_check.h"

namespace fs = std::filesystem;
using starlens::check_gpu_replay_output;
using starlens::Frame;

namespace {

struct Folder {
  fs::path path;
  Folder() : path(fs::temp_directory_path() / ("replay_check_" + std::to_string(::getpid()))) {
    fs::create_directories(path);
  }
  ~Folder() { fs::remove_all(path); }
};

// The manifests below live as long as the calls that read them (static: one per backend).
starlens::JsonField run_on(const std::string& backend) {
  static const nlohmann::json cpu = {{"tool", "starlens-splat"},
                                     {"parameters", {{"backend", "cpu"}}}};
  static const nlohmann::json gpu = {{"tool", "starlens-splat"},
                                     {"parameters", {{"backend", "gpu"}}}};
  static const nlohmann::json vulkan = {{"tool", "starlens-splat"},
                                        {"parameters", {{"backend", "vulkan"}}}};
  return {backend == "gpu" ? gpu : backend == "vulkan" ? vulkan : cpu, "m.json"};
}

// An entry of m.json (`entry` outlives the call that reads it).
starlens::JsonField field(const nlohmann::json& entry) {
  return {entry, "m.json", "outputs[0]"};
}

// A version 1 manifest's entry (plain SHA-256), or a version 2 one (the tree hash).
nlohmann::json recorded_entry(const fs::path& path, bool tree = false) {
  if (tree)
    return {{"path", path.string()},
            {"hash", "sha256-tree-4MiB"},
            {"sha256_tree", starlens::block_tree_sha256_file(path)}};
  return {{"path", path.string()}, {"sha256", starlens::sha256_file(path)}};
}

// A frame with a spread of magnitudes, as a lensed star field has.
Frame star_field() {
  Frame frame(23, 17);
  for (std::size_t k = 0; k < frame.rgb.size(); ++k)
    frame.rgb[k] = std::pow(10.0, double(k % 11) - 6.0) * (1.0 + 0.01 * double(k % 7));
  return frame;
}

Frame scaled(Frame frame, double factor) {
  for (double& value : frame.rgb) value *= factor;
  return frame;
}

}  // namespace

TEST_CASE("a CPU run's outputs must match byte for byte: no judgement is offered") {
  Folder folder;
  const fs::path recorded = folder.path / "frame.exr";
  starlens::write_frame_exr(star_field(), recorded, false, "digest");
  CHECK_FALSE(
      check_gpu_replay_output(run_on("cpu"), field(recorded_entry(recorded)), recorded.string())
          .has_value());
}

TEST_CASE("a vulkan run is judged as a GPU run's (its atomic strategy sums in any order)") {
  Folder folder;
  const fs::path recorded = folder.path / "frame.exr";
  const fs::path replay = folder.path / "frame.replay.exr";
  starlens::write_frame_exr(star_field(), recorded, false, "digest");
  const nlohmann::json entry = recorded_entry(recorded);
  starlens::write_frame_exr(scaled(star_field(), 1.0 + 8e-16), replay, false, "digest");
  auto verdict = check_gpu_replay_output(run_on("vulkan"), field(entry), replay.string());
  REQUIRE(verdict.has_value());
  CHECK((*verdict)["equivalent"] == true);
  starlens::write_frame_exr(scaled(star_field(), 1.0 + 1e-9), replay, true, "digest");
  verdict = check_gpu_replay_output(run_on("vulkan"), field(entry), replay.string());
  REQUIRE(verdict.has_value());
  CHECK((*verdict)["equivalent"] == false);
}

TEST_CASE("a GPU frame summed in another order is the same result; one beyond the budget is not") {
  Folder folder;
  const fs::path recorded = folder.path / "frame.exr";
  const fs::path replay = folder.path / "frame.replay.exr";
  starlens::write_frame_exr(star_field(), recorded, false, "digest");
  const nlohmann::json entry = recorded_entry(recorded);

  // A few units in the last place, as another order of additions gives (budget 1e-12).
  starlens::write_frame_exr(scaled(star_field(), 1.0 + 8e-16), replay, false, "digest");
  auto verdict = check_gpu_replay_output(run_on("gpu"), field(entry), replay.string());
  REQUIRE(verdict.has_value());
  CHECK((*verdict)["equivalent"] == true);
  CHECK((*verdict)["Y_max_rel"].get<double>() > 0);
  CHECK((*verdict)["Y_max_rel"].get<double>() < 1e-14);
  // The same judgement from a version 2 entry (the recorded frame's tree hash).
  const auto from_tree = check_gpu_replay_output(
      run_on("gpu"), field(recorded_entry(recorded, true)), replay.string());
  REQUIRE(from_tree.has_value());
  CHECK((*from_tree)["equivalent"] == true);

  // 1e-9 relative: far beyond what the order of additions can do.
  starlens::write_frame_exr(scaled(star_field(), 1.0 + 1e-9), replay, true, "digest");
  verdict = check_gpu_replay_output(run_on("gpu"), field(entry), replay.string());
  REQUIRE(verdict.has_value());
  CHECK((*verdict)["equivalent"] == false);
  CHECK((*verdict)["exceeded"].size() > 0);

  // One pixel off: the budget is per pixel, not on average.
  Frame one_off = star_field();
  one_off.pixel(5, 9)[1] *= 1.0 + 1e-10;
  starlens::write_frame_exr(one_off, replay, true, "digest");
  verdict = check_gpu_replay_output(run_on("gpu"), field(entry), replay.string());
  REQUIRE(verdict.has_value());
  CHECK((*verdict)["equivalent"] == false);
}

TEST_CASE("without the recorded frame as it was, a GPU replay cannot be judged equivalent") {
  for (const bool tree : {false, true}) {  // a version 1 and a version 2 entry
    CAPTURE(tree);
    Folder folder;
    const fs::path recorded = folder.path / "frame.exr";
    starlens::write_frame_exr(star_field(), recorded, false, "digest");
    const nlohmann::json entry = recorded_entry(recorded, tree);

    starlens::write_frame_exr(scaled(star_field(), 1.0 + 1e-15), recorded, true, "digest");
    auto verdict = check_gpu_replay_output(run_on("gpu"), field(entry), recorded.string());
    REQUIRE(verdict.has_value());
    CHECK((*verdict)["equivalent"] == false);
    CHECK((*verdict)["reason"].get<std::string>().find("changed") != std::string::npos);

    fs::remove(recorded);
    verdict = check_gpu_replay_output(run_on("gpu"), field(entry), recorded.string());
    REQUIRE(verdict.has_value());
    CHECK((*verdict)["equivalent"] == false);
    CHECK((*verdict)["reason"].get<std::string>().find("gone") != std::string::npos);
  }
}

TEST_CASE("a GPU run's PNG may move by one 8-bit level, not two") {
  Folder folder;
  const fs::path recorded = folder.path / "frame.png";
  const fs::path replay = folder.path / "frame.replay.png";
  std::vector<std::uint8_t> rgb(4 * 3 * 3, 100);
  starlens::write_rgb8_png(recorded, 4, 3, rgb, false);
  const nlohmann::json entry = recorded_entry(recorded);

  rgb[7] = 101;
  starlens::write_rgb8_png(replay, 4, 3, rgb, false);
  auto verdict = check_gpu_replay_output(run_on("gpu"), field(entry), replay.string());
  REQUIRE(verdict.has_value());
  CHECK((*verdict)["equivalent"] == true);
  CHECK((*verdict)["max_level_difference"] == 1);

  rgb[7] = 102;
  starlens::write_rgb8_png(replay, 4, 3, rgb, true);
  verdict = check_gpu_replay_output(run_on("gpu"), field(entry), replay.string());
  REQUIRE(verdict.has_value());
  CHECK((*verdict)["equivalent"] == false);
  CHECK((*verdict)["max_level_difference"] == 2);
}

TEST_CASE("a manifest whose backend or entry has the wrong type is bad input naming the key") {
  const nlohmann::json manifest = {{"parameters", {{"backend", 5}}}};
  const nlohmann::json entry = {{"path", "f.exr"}};
  CHECK_THROWS_WITH_AS(check_gpu_replay_output({manifest, "m.json"}, field(entry), "r.exr"),
                       "m.json: parameters.backend: expected a string (is an integer)",
                       starlens::InputError);
  const nlohmann::json listed = {{"parameters", {"backend", "gpu"}}};
  CHECK_THROWS_WITH_AS(check_gpu_replay_output({listed, "m.json"}, field(entry), "r.exr"),
                       "m.json: parameters: expected an object (is an array)",
                       starlens::InputError);
  const nlohmann::json nameless = {{"path", 3}};
  CHECK_THROWS_WITH_AS(check_gpu_replay_output(run_on("gpu"), field(nameless), "r.exr"),
                       "m.json: outputs[0].path: expected a string (is an integer)",
                       starlens::InputError);
}
