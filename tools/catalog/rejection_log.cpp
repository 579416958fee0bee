#include "rejection_log.h"

namespace starlens::catalog {

void RejectionLog::reject(const std::string& reason, const std::string& file, std::uint64_t line,
                          const std::string& detail) {
  if (++counts_[reason] <= kExamplesPerReason) examples_.push_back({reason, file, detail, line});
}

void RejectionLog::merge(const RejectionLog& other) {
  std::map<std::string, std::uint64_t> kept;
  for (const Example& example : examples_) ++kept[example.reason];
  for (const Example& example : other.examples_)
    if (kept[example.reason]++ < kExamplesPerReason) examples_.push_back(example);
  for (const auto& [reason, count] : other.counts_) counts_[reason] += count;
}

std::uint64_t RejectionLog::total() const {
  std::uint64_t sum = 0;
  for (const auto& [reason, count] : counts_) sum += count;
  return sum;
}

std::uint64_t RejectionLog::count(const std::string& reason) const {
  const auto found = counts_.find(reason);
  return found == counts_.end() ? 0 : found->second;
}

nlohmann::json RejectionLog::to_json() const {
  nlohmann::json json;
  json["total"] = total();
  json["by_reason"] = nlohmann::json::object();
  for (const auto& [reason, count] : counts_) json["by_reason"][reason] = count;
  json["examples"] = nlohmann::json::array();
  for (const Example& example : examples_)
    json["examples"].push_back({{"reason", example.reason},
                                {"file", example.file},
                                {"line", example.line},
                                {"detail", example.detail}});
  json["examples_per_reason_at_most"] = kExamplesPerReason;
  return json;
}

}  // namespace starlens::catalog
