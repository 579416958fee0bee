#pragma once
// The error budget of a comparison, read from JSON (schema in docs/usage/compare.md):
// limits for all channels at the top level, optionally overridden per channel.
#include <array>
#include <cstdint>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>

#include "compare/channels.h"

namespace starlens::compare {

struct ChannelLimits {
  std::optional<double> max_abs;    // max |A - B|
  std::optional<double> max_rel;    // max |A - B| / |B| over pixels with |B| > rel_floor max|B|
  std::optional<double> rms;        // sqrt(mean (A - B)^2)
  std::optional<double> total_abs;  // |sum A - sum B|
  std::optional<double> total_rel;  // |sum A - sum B| / |sum B|
  double rel_floor = 1e-9;
  std::uint64_t non_finite = 0;  // allowed count in each frame
  std::uint64_t negative = 0;    // allowed count in each frame
};

struct Budget {
  std::array<ChannelLimits, kChannelCount> channels;
  std::string comment;
};

// Throws InputError("<path>: <key>: <reason>") for invalid JSON, unknown keys, values of the
// wrong type or out of range.
Budget parse_budget(const nlohmann::json& json, const std::string& path);
// The largest budget file read: a budget is a few hundred bytes.
constexpr std::uint64_t kMaxBudgetBytes = std::uint64_t(1) << 20;
// Reads and parses a budget file: InputError naming it also when it is a folder, a device,
// empty, unreadable or over kMaxBudgetBytes (core/text_input.h).
Budget read_budget(const std::filesystem::path& path);

// The limits in effect per channel, for reports and manifests.
nlohmann::json budget_to_json(const Budget& budget);

}  // namespace starlens::compare
