// starlens-compare A.exr B.exr --budget budget.json: A's errors against the reference B per
// channel (docs/design.md section 7); exit 0 within budget, 1 over it, 2 on bad input.
#include <fstream>
#include <iostream>
#include <optional>

#include "compare/budget.h"
#include "compare/frame_comparison.h"
#include "compare/verdict.h"
#include "core/cli_validators.h"
#include "core/errors.h"
#include "core/output_set.h"
#include "core/progress.h"
#include "core/stopwatch.h"
#include "core/tool_main.h"
#include "event_counts.h"
#include "frame/exr_reader.h"
#include "frame/png_writer.h"
#include "manifest/manifest.h"
#include "manifest/replay.h"
#include "report.h"

namespace {

using namespace starlens;
using namespace starlens::compare;
namespace fs = std::filesystem;

constexpr const char* kTool = "starlens-compare";

struct Options {
  std::string a, b, budget, report, diff_png;
  std::vector<std::string> manifests;
  CommonOptions common;
};

void add_options(CLI::App& app, Options& options) {
  app.add_option("A", options.a, "Frame to check (EXR)")->required();
  app.add_option("B", options.b, "Reference frame (EXR)")->required();
  app.add_option("--budget", options.budget, "Error budget (JSON, see docs/usage/compare.md)")
      ->required();
  app.add_option("--report", options.report, "Write the JSON report here (and its manifest)")
      ->check(output_name("JSON", {".json"}));
  app.add_option("--diff-png", options.diff_png, "Write a heat map of the relative error")
      ->check(output_name("PNG", {".png"}));
  app.add_option("--manifests", options.manifests,
                 "Manifests of the runs that made A and B: their event counts by class must agree")
      ->expected(2);
  add_common_flags(app, options.common, false);
}

// Where the run's manifest goes: beside the report, else beside the heat map, else nowhere.
std::optional<fs::path> manifest_anchor(const Options& options) {
  if (!options.report.empty()) return fs::path(options.report);
  if (!options.diff_png.empty()) return fs::path(options.diff_png);
  return std::nullopt;
}

// All outputs are checked before any work, so a refused path costs nothing.
void check_outputs(const Options& options) {
  if (!options.report.empty() && options.report == options.diff_png)
    throw_input_error(options.report, "", "--report and --diff-png name the same file");
  if (!options.report.empty()) check_output_path(options.report, options.common.force);
  if (!options.diff_png.empty()) check_output_path(options.diff_png, options.common.force);
  if (const auto anchor = manifest_anchor(options))
    check_output_path(manifest_path_for(*anchor), options.common.force);
}

void require_same_size(const ExrFrameReader& a, const ExrFrameReader& b) {
  if (a.width() == b.width() && a.height() == b.height()) return;
  throw_input_error(a.path(), "size",
                    "frame sizes differ: " + a.path() + " is " + std::to_string(a.width()) + " x " +
                        std::to_string(a.height()) + ", " + b.path() + " is " +
                        std::to_string(b.width()) + " x " + std::to_string(b.height()));
}

int run(int argc, char** argv) {
  CLI::App app("Compares frame A against the reference frame B under an error budget");
  add_version_flag(app, kTool);
  Options options;
  add_options(app, options);
  if (const int status = parse_command_line(app, argc, argv, kTool); status >= 0) return status;

  check_outputs(options);
  // Every output locked before the comparison, committed with the manifest after it.
  OutputSet outputs(options.common.force);
  if (!options.report.empty()) outputs.add(options.report);
  if (!options.diff_png.empty()) outputs.add(options.diff_png);
  if (const auto anchor = manifest_anchor(options)) outputs.add_record(manifest_path_for(*anchor));
  PhaseTimes times;
  Manifest manifest(kTool, argc, argv);
  const Budget budget = read_budget(options.budget);
  ExrFrameReader a(options.a);
  ExrFrameReader b(options.b);
  require_same_size(a, b);
  std::optional<EventCountComparison> event_counts;
  if (!options.manifests.empty())
    event_counts = compare_event_counts(options.manifests[0], options.manifests[1]);

  std::array<double, kChannelCount> rel_floors{};
  for (std::size_t c = 0; c < kChannelCount; ++c) rel_floors[c] = budget.channels[c].rel_floor;
  std::vector<std::uint8_t> heat_map;
  FrameComparison comparison;
  {
    ScopedPhase phase(times, "compare");
    Progress progress("compare", 2 * std::uint64_t(b.height()), options.common.quiet);
    comparison = compare_frames(
        a, b, rel_floors, HeatMapTarget{options.diff_png.empty() ? nullptr : &heat_map}, progress);
    progress.finish();
  }
  const std::vector<Exceedance> exceeded = check_budget(comparison, budget);
  const ComparisonOutcome outcome{a, b, options.budget, budget, comparison, exceeded, event_counts};
  print_summary(std::cout, outcome);

  {
    ScopedPhase phase(times, "write");
    if (!options.report.empty()) write_json_output(outputs, options.report, report_json(outcome));
    if (!options.diff_png.empty())
      write_rgb8_png(outputs, options.diff_png, comparison.width, comparison.height, heat_map);
  }
  if (const auto anchor = manifest_anchor(options)) {
    manifest.parameters() = {{"a", options.a},
                             {"b", options.b},
                             {"budget", options.budget},
                             {"limits", budget_to_json(budget)},
                             {"report", options.report},
                             {"diff_png", options.diff_png},
                             {"manifests", options.manifests}};
    for (const char* output : {"report", "diff_png"}) manifest.exclude_from_digest(output);
    manifest.add_input(options.a, "frame");
    manifest.add_input(options.b, "reference frame");
    manifest.add_input(options.budget, "budget");
    for (const auto& path : options.manifests) manifest.add_input(path, "manifest");
    if (!options.report.empty()) manifest.add_output(outputs, options.report, "report");
    if (!options.diff_png.empty())
      manifest.add_output(outputs, options.diff_png, "relative error heat map");
    manifest.counts() = {{"pixels", std::uint64_t(comparison.width) * comparison.height},
                         {"limits_exceeded", exceeded.size()},
                         {"passed", outcome.passed()}};
    manifest.add_timings(times);
    manifest.commit(outputs, *anchor);
  }

  for (const Exceedance& item : exceeded)
    std::cerr << kTool << ": over budget: " << item.describe() << '\n';
  if (event_counts)
    for (const auto& difference : event_counts->differences)
      std::cerr << kTool << ": event counts differ: " << difference << '\n';
  return outcome.passed() ? kExitOk : kExitFailure;
}

}  // namespace

int main(int argc, char** argv) {
  return starlens::run_stage_main(kTool, argc, argv, run);
}
