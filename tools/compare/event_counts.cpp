#include "event_counts.h"

#include <optional>

#include "core/errors.h"
#include "manifest/manifest.h"

namespace starlens::compare {
namespace {

const nlohmann::json& counts_of(const nlohmann::json& manifest, const std::string& path) {
  if (!manifest.contains("counts") || !manifest.at("counts").is_object())
    throw_input_error(path, "counts", "missing or not an object");
  return manifest.at("counts");
}

std::optional<std::uint64_t> count_of(const nlohmann::json& counts, const std::string& key,
                                      const std::string& path) {
  if (!counts.contains(key)) return std::nullopt;
  const auto& value = counts.at(key);
  if (!value.is_number_unsigned())
    throw_input_error(path, "counts." + key, "must be a whole number >= 0");
  return value.get<std::uint64_t>();
}

}  // namespace

EventCountComparison compare_event_counts(const std::filesystem::path& a,
                                          const std::filesystem::path& b) {
  const nlohmann::json manifest_a = read_manifest(a);
  const nlohmann::json manifest_b = read_manifest(b);
  const nlohmann::json& counts_a = counts_of(manifest_a, a.string());
  const nlohmann::json& counts_b = counts_of(manifest_b, b.string());
  EventCountComparison result;
  result.report = nlohmann::json::object();
  int compared = 0;
  for (const char* key : kEventCountKeys) {
    const auto value_a = count_of(counts_a, key, a.string());
    const auto value_b = count_of(counts_b, key, b.string());
    if (!value_a && !value_b) continue;
    nlohmann::json& entry = result.report[key];
    if (value_a) entry["a"] = *value_a;
    if (value_b) entry["b"] = *value_b;
    if (!value_a || !value_b) {
      entry["compared"] = false;  // a class only one stage counts (e.g. discarded in produce)
      continue;
    }
    ++compared;
    entry["compared"] = true;
    entry["equal"] = *value_a == *value_b;
    if (*value_a != *value_b)
      result.differences.push_back(std::string(key) + ": " + std::to_string(*value_a) + " in A, " +
                                   std::to_string(*value_b) + " in B");
  }
  if (compared == 0)
    throw_input_error(a.string(), "counts",
                      "no event count by class present in both this manifest and " + b.string());
  return result;
}

}  // namespace starlens::compare
