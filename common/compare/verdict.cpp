#include "compare/verdict.h"

#include <cmath>
#include <cstdio>

namespace starlens::compare {

std::string Exceedance::describe() const {
  char text[160];
  std::snprintf(text, sizeof text, "%s %s = %.6g > %.6g", channel.c_str(), limit.c_str(), value,
                allowed);
  std::string line = text;
  if (at) line.append(" at pixel ").append(describe_pixel(*at));
  return line;
}

std::vector<Exceedance> check_budget(const FrameComparison& comparison, const Budget& budget) {
  std::vector<Exceedance> exceeded;
  for (std::size_t c = 0; c < kChannelCount; ++c) {
    const ChannelStatistics& stats = comparison.channels[c];
    const ChannelLimits& limits = budget.channels[c];
    auto check = [&](const std::optional<double>& limit, const char* name, double value,
                     std::optional<PixelPosition> at) {
      if (limit && !(value <= *limit))
        exceeded.push_back({kChannelNames[c], name, value, *limit, at});
    };
    check(limits.max_abs, "max_abs", stats.max_abs_error, stats.max_abs_at);
    check(limits.max_rel, "max_rel", stats.max_rel_error, stats.max_rel_at);
    check(limits.rms, "rms", stats.rms(), std::nullopt);
    check(limits.total_abs, "total_abs", std::fabs(stats.total_difference.value()), std::nullopt);
    check(limits.total_rel, "total_rel", stats.total_rel(), std::nullopt);
    check(double(limits.non_finite), "non_finite (A)", double(stats.non_finite_a), std::nullopt);
    check(double(limits.non_finite), "non_finite (B)", double(stats.non_finite_b), std::nullopt);
    check(double(limits.negative), "negative (A)", double(stats.negative_a), std::nullopt);
    check(double(limits.negative), "negative (B)", double(stats.negative_b), std::nullopt);
  }
  return exceeded;
}

}  // namespace starlens::compare
