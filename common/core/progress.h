#pragma once
// A progress bar on stderr for long work (docs/design.md section 2): drawn only when stderr is a
// terminal, not before the work has run for a second, never with --quiet. Thread-safe.
#include <atomic>
#include <chrono>
#include <cstdint>
#include <mutex>
#include <string>

namespace starlens {

class Progress {
 public:
  // total == 0: unknown total (shows a count instead of a bar).
  Progress(std::string label, std::uint64_t total, bool quiet);
  ~Progress();
  void advance(std::uint64_t amount = 1);
  // Replaces the free text shown after the bar (e.g. "submitted 12, completed 10 chunks").
  void set_detail(const std::string& detail);
  void finish();

 private:
  void draw(bool final_line);

  std::string label_;
  std::string detail_;
  std::uint64_t total_;
  std::atomic<std::uint64_t> done_{0};
  bool enabled_;
  bool drawn_ = false;
  bool finished_ = false;
  std::chrono::steady_clock::time_point start_;
  std::chrono::steady_clock::time_point last_draw_;
  std::mutex mutex_;
};

}  // namespace starlens
