#pragma once
// --manifests: the event counts by class of the two runs that made the frames must agree.
#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace starlens::compare {

// The `counts` keys compared, each when present in both manifests.
constexpr const char* kEventCountKeys[] = {"events_cache", "events_wing_clip", "events_direct",
                                           "events_discarded", "events"};

struct EventCountComparison {
  nlohmann::json report;  // per key: {"a": n, "b": n, "equal": bool} or only one side
  std::vector<std::string> differences;  // "events_direct: 12 in A, 13 in B"
  bool equal() const { return differences.empty(); }
};

// Reads both manifests; throws InputError naming the file and field when one is not a
// manifest, a count is not a whole number, or no event count is present in both.
EventCountComparison compare_event_counts(const std::filesystem::path& a,
                                          const std::filesystem::path& b);

}  // namespace starlens::compare
