#pragma once
// The budget applied to the statistics: every limit exceeded, with its channel and value.
#include <optional>
#include <string>
#include <vector>

#include "compare/budget.h"
#include "compare/frame_comparison.h"

namespace starlens::compare {

struct Exceedance {
  std::string channel;
  std::string limit;  // a budget key, with "(A)" or "(B)" for the per-frame counts
  double value = 0.0;
  double allowed = 0.0;
  std::optional<PixelPosition> at;
  std::string describe() const;  // "Y max_rel = 1.0e-09 > 1e-12 at pixel (3, 7)"
};

// A metric that is NaN counts as exceeded.
std::vector<Exceedance> check_budget(const FrameComparison& comparison, const Budget& budget);

}  // namespace starlens::compare
