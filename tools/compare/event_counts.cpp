#include "event_counts.h"

#include <optional>

#include "core/checked_json.h"
#include "core/errors.h"
#include "manifest/manifest.h"

namespace starlens::compare {
namespace {

std::optional<std::uint64_t> count_of(const JsonField& counts, const std::string& key) {
  const auto value = counts.find(key);
  if (!value) return std::nullopt;
  if (!value->json().is_number_unsigned()) value->fail("must be a whole number >= 0");
  return value->as_count();
}

}  // namespace

EventCountComparison compare_event_counts(const std::filesystem::path& a,
                                          const std::filesystem::path& b) {
  const nlohmann::json manifest_a = read_manifest(a);
  const nlohmann::json manifest_b = read_manifest(b);
  const JsonField counts_a = JsonField(manifest_a, a.string())["counts"].require_object();
  const JsonField counts_b = JsonField(manifest_b, b.string())["counts"].require_object();
  EventCountComparison result;
  result.report = nlohmann::json::object();
  int compared = 0;
  for (const char* key : kEventCountKeys) {
    const auto value_a = count_of(counts_a, key);
    const auto value_b = count_of(counts_b, key);
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
