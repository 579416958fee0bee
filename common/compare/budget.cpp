#include "compare/budget.h"

#include <cmath>

#include "core/checked_json.h"
#include "core/errors.h"

namespace starlens::compare {
namespace {

const char* const kLimitKeys[] = {"max_abs",   "max_rel",   "rms",        "total_abs",
                                  "total_rel", "rel_floor", "non_finite", "negative"};

std::string known_keys(bool top_level) {
  std::string keys;
  for (const char* key : kLimitKeys) keys += std::string(keys.empty() ? "" : ", ") + key;
  return top_level ? keys + ", channels, comment" : keys;
}

double non_negative_number(const nlohmann::json& value, const std::string& path,
                           const std::string& field) {
  if (!value.is_number()) throw_input_error(path, field, "must be a number");
  const double number = value.get<double>();
  if (!std::isfinite(number) || number < 0.0)
    throw_input_error(path, field, "must be finite and not negative");
  return number;
}

std::uint64_t count(const nlohmann::json& value, const std::string& path,
                    const std::string& field) {
  if (!value.is_number_unsigned()) throw_input_error(path, field, "must be a whole number >= 0");
  return value.get<std::uint64_t>();
}

// Applies one limit key; returns false when `key` is not a limit.
bool apply_limit(ChannelLimits& limits, const std::string& key, const nlohmann::json& value,
                 const std::string& path, const std::string& field) {
  if (key == "max_abs")
    limits.max_abs = non_negative_number(value, path, field);
  else if (key == "max_rel")
    limits.max_rel = non_negative_number(value, path, field);
  else if (key == "rms")
    limits.rms = non_negative_number(value, path, field);
  else if (key == "total_abs")
    limits.total_abs = non_negative_number(value, path, field);
  else if (key == "total_rel")
    limits.total_rel = non_negative_number(value, path, field);
  else if (key == "non_finite")
    limits.non_finite = count(value, path, field);
  else if (key == "negative")
    limits.negative = count(value, path, field);
  else if (key == "rel_floor") {
    limits.rel_floor = non_negative_number(value, path, field);
    if (limits.rel_floor >= 1.0) throw_input_error(path, field, "must be below 1");
  } else {
    return false;
  }
  return true;
}

std::optional<std::size_t> channel_index(const std::string& name) {
  for (std::size_t c = 0; c < kChannelCount; ++c)
    if (name == kChannelNames[c]) return c;
  return std::nullopt;
}

}  // namespace

Budget parse_budget(const nlohmann::json& json, const std::string& path) {
  if (!json.is_object()) throw_input_error(path, "", "a budget must be a JSON object");
  Budget budget;
  // Top-level limits first (they apply to every channel), then per-channel overrides.
  for (const auto& [key, value] : json.items()) {
    if (key == "channels") continue;
    if (key == "comment") {
      if (!value.is_string()) throw_input_error(path, key, "must be a string");
      budget.comment = value.get<std::string>();
      continue;
    }
    for (auto& limits : budget.channels)
      if (!apply_limit(limits, key, value, path, key))
        throw_input_error(path, key, "unknown key (known: " + known_keys(true) + ")");
  }
  if (!json.contains("channels")) return budget;
  const auto& channels = json.at("channels");
  if (!channels.is_object()) throw_input_error(path, "channels", "must be an object");
  for (const auto& [name, limits] : channels.items()) {
    const auto index = channel_index(name);
    if (!index) throw_input_error(path, "channels." + name, "unknown channel (known: R, G, B, Y)");
    if (!limits.is_object()) throw_input_error(path, "channels." + name, "must be an object");
    for (const auto& [key, value] : limits.items()) {
      const std::string field = "channels." + name + "." + key;
      if (!apply_limit(budget.channels[*index], key, value, path, field))
        throw_input_error(path, field, "unknown key (known: " + known_keys(false) + ")");
    }
  }
  return budget;
}

Budget read_budget(const std::filesystem::path& path) {
  return parse_budget(read_json_input(path, "budget", kMaxBudgetBytes), path.string());
}

nlohmann::json budget_to_json(const Budget& budget) {
  nlohmann::json json = nlohmann::json::object();
  for (std::size_t c = 0; c < kChannelCount; ++c) {
    const ChannelLimits& limits = budget.channels[c];
    nlohmann::json& entry = json[kChannelNames[c]];
    entry = {{"rel_floor", limits.rel_floor},
             {"non_finite", limits.non_finite},
             {"negative", limits.negative}};
    if (limits.max_abs) entry["max_abs"] = *limits.max_abs;
    if (limits.max_rel) entry["max_rel"] = *limits.max_rel;
    if (limits.rms) entry["rms"] = *limits.rms;
    if (limits.total_abs) entry["total_abs"] = *limits.total_abs;
    if (limits.total_rel) entry["total_rel"] = *limits.total_rel;
  }
  return json;
}

}  // namespace starlens::compare
