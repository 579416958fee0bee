#include "report.h"

#include <cmath>
#include <cstdio>

namespace starlens::compare {
namespace {

nlohmann::json number(double value) {
  return std::isfinite(value) ? nlohmann::json(value) : nlohmann::json(nullptr);
}

nlohmann::json pixel(const PixelPosition& at) {
  return nlohmann::json::array({at.x, at.y});
}

// Where a maximum error lies; null when there is no error at all.
nlohmann::json pixel_of(double error, const PixelPosition& at) {
  return error > 0.0 ? pixel(at) : nlohmann::json(nullptr);
}
std::string pixel_text(double error, const PixelPosition& at) {
  return error > 0.0 ? describe_pixel(at) : "-";
}

nlohmann::json frame_json(const ExrFrameReader& frame) {
  return {{"path", frame.path()},
          {"width", frame.width()},
          {"height", frame.height()},
          {"exact_float64", frame.exact()},
          {"format_version", frame.format_version()},
          {"run_digest", frame.run_digest()}};
}

nlohmann::json channel_json(const ChannelStatistics& stats) {
  return {
      {"max_abs",
       {{"value", stats.max_abs_error},
        {"pixel", pixel_of(stats.max_abs_error, stats.max_abs_at)},
        {"a", stats.max_abs_a},
        {"b", stats.max_abs_b}}},
      {"max_rel",
       {{"value", stats.max_rel_error},
        {"pixel", pixel_of(stats.max_rel_error, stats.max_rel_at)},
        {"a", stats.max_rel_a},
        {"b", stats.max_rel_b},
        {"rel_floor", stats.rel_floor},
        {"threshold", stats.rel_threshold},
        {"pixels_above_threshold", stats.rel_pixels}}},
      {"rms", number(stats.rms())},
      {"total",
       {{"a", number(stats.total_a.value())},
        {"b", number(stats.total_b.value())},
        {"abs_diff", number(stats.total_difference.value())},
        {"rel_diff", number(stats.total_rel())}}},
      {"max_abs_reference", stats.max_abs_reference},
      {"pixels_compared", stats.compared},
      {"non_finite", {{"a", stats.non_finite_a}, {"b", stats.non_finite_b}}},
      {"negative", {{"a", stats.negative_a}, {"b", stats.negative_b}}},
  };
}

std::string describe_frame(const ExrFrameReader& frame) {
  return frame.path() + "  " + std::to_string(frame.width()) + " x " +
         std::to_string(frame.height()) +
         (frame.exact() ? ", exact float64 channels" : ", FLOAT/HALF channels only");
}

}  // namespace

nlohmann::json report_json(const ComparisonOutcome& outcome) {
  nlohmann::json report = {{"format", "starlens-compare-report"},
                           {"format_version", 1},
                           {"a", frame_json(outcome.a)},
                           {"b", frame_json(outcome.b)},
                           {"reference", "b"},
                           {"budget",
                            {{"path", outcome.budget_path.string()},
                             {"comment", outcome.budget.comment},
                             {"limits", budget_to_json(outcome.budget)}}}};
  for (std::size_t c = 0; c < kChannelCount; ++c)
    report["channels"][kChannelNames[c]] = channel_json(outcome.comparison.channels[c]);
  nlohmann::json exceeded = nlohmann::json::array();
  for (const Exceedance& item : outcome.exceeded) {
    nlohmann::json entry = {{"channel", item.channel},
                            {"limit", item.limit},
                            {"value", number(item.value)},
                            {"allowed", item.allowed}};
    if (item.at) entry["pixel"] = pixel(*item.at);
    exceeded.push_back(entry);
  }
  report["over_budget"] = exceeded;
  if (outcome.event_counts) {
    report["event_counts"] = outcome.event_counts->report;
    report["event_counts_equal"] = outcome.event_counts->equal();
  }
  report["passed"] = outcome.passed();
  return report;
}

void print_summary(std::ostream& out, const ComparisonOutcome& outcome) {
  out << "A: " << describe_frame(outcome.a) << '\n';
  out << "B: " << describe_frame(outcome.b) << "  (reference)\n";
  char line[256];
  std::snprintf(line, sizeof line, "%-3s %12s %-13s %12s %-13s %12s %12s %11s %11s\n", "",
                "max_abs", "at", "max_rel", "at", "rms", "total_rel", "nonfin A/B", "neg A/B");
  out << line;
  for (std::size_t c = 0; c < kChannelCount; ++c) {
    const ChannelStatistics& s = outcome.comparison.channels[c];
    const std::string abs_at = pixel_text(s.max_abs_error, s.max_abs_at);
    const std::string rel_at = pixel_text(s.max_rel_error, s.max_rel_at);
    const std::string non_finite =
        std::to_string(s.non_finite_a) + "/" + std::to_string(s.non_finite_b);
    const std::string negative = std::to_string(s.negative_a) + "/" + std::to_string(s.negative_b);
    std::snprintf(line, sizeof line, "%-3s %12.4e %-13s %12.4e %-13s %12.4e %12.4e %11s %11s\n",
                  kChannelNames[c], s.max_abs_error, abs_at.c_str(), s.max_rel_error,
                  rel_at.c_str(), s.rms(), s.total_rel(), non_finite.c_str(), negative.c_str());
    out << line;
  }
  if (outcome.event_counts) {
    out << "event counts: " << (outcome.event_counts->equal() ? "equal" : "DIFFERENT") << '\n';
    for (const auto& difference : outcome.event_counts->differences)
      out << "  " << difference << '\n';
  }
  out << (outcome.passed() ? "within budget" : "OVER BUDGET") << '\n';
}

}  // namespace starlens::compare
