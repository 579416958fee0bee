#pragma once
// What compare tells: a JSON report (written with --report) and a summary on stdout.
#include <filesystem>
#include <nlohmann/json.hpp>
#include <optional>
#include <ostream>
#include <vector>

#include "compare/budget.h"
#include "compare/frame_comparison.h"
#include "compare/verdict.h"
#include "event_counts.h"
#include "frame/exr_reader.h"

namespace starlens::compare {

struct ComparisonOutcome {
  const ExrFrameReader& a;
  const ExrFrameReader& b;
  const std::filesystem::path& budget_path;
  const Budget& budget;
  const FrameComparison& comparison;
  const std::vector<Exceedance>& exceeded;
  const std::optional<EventCountComparison>& event_counts;
  bool passed() const { return exceeded.empty() && (!event_counts || event_counts->equal()); }
};

// Non-finite numbers (an infinite relative total) are written as null.
nlohmann::json report_json(const ComparisonOutcome& outcome);
void print_summary(std::ostream& out, const ComparisonOutcome& outcome);

}  // namespace starlens::compare
