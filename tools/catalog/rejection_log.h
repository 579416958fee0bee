#pragma once
// Rows an ingest skipped, counted by reason, with the first few file:line examples of each
// reason for the manifest (issue 4: "rejected rows counted by reason with file:line").
#include <cstdint>
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace starlens::catalog {

class RejectionLog {
 public:
  static constexpr std::size_t kExamplesPerReason = 20;

  void reject(const std::string& reason, const std::string& file, std::uint64_t line,
              const std::string& detail);
  // Appends another log (e.g. of the next file); examples stay in the order added.
  void merge(const RejectionLog& other);
  std::uint64_t total() const;
  std::uint64_t count(const std::string& reason) const;
  // {"total": n, "by_reason": {reason: n}, "examples": [{"reason", "file", "line", "detail"}]}
  nlohmann::json to_json() const;

 private:
  struct Example {
    std::string reason, file, detail;
    std::uint64_t line;
  };
  std::map<std::string, std::uint64_t> counts_;
  std::vector<Example> examples_;
};

}  // namespace starlens::catalog
