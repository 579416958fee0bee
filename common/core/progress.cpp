#include "core/progress.h"

#include <unistd.h>

#include <cstdio>

namespace starlens {

using Clock = std::chrono::steady_clock;

Progress::Progress(std::string label, std::uint64_t total, bool quiet)
    : label_(std::move(label)),
      total_(total),
      enabled_(!quiet && isatty(STDERR_FILENO) == 1),
      start_(Clock::now()),
      last_draw_(start_) {}

Progress::~Progress() {
  finish();
}

void Progress::advance(std::uint64_t amount) {
  done_ += amount;
  if (!enabled_) return;
  const auto now = Clock::now();
  if (now - start_ < std::chrono::seconds(1) || now - last_draw_ < std::chrono::milliseconds(200))
    return;
  std::lock_guard lock(mutex_);
  last_draw_ = now;
  draw(false);
}

void Progress::set_detail(const std::string& detail) {
  std::lock_guard lock(mutex_);
  detail_ = detail;
}

void Progress::finish() {
  std::lock_guard lock(mutex_);
  if (finished_) return;
  finished_ = true;
  if (enabled_ && drawn_) draw(true);
}

void Progress::draw(bool final_line) {
  drawn_ = true;
  const double seconds = std::chrono::duration<double>(Clock::now() - start_).count();
  const std::uint64_t done = done_.load();
  if (total_ > 0) {
    constexpr int kWidth = 30;
    const double fraction = done >= total_ ? 1.0 : static_cast<double>(done) / total_;
    const int filled = static_cast<int>(fraction * kWidth);
    // The time left at the rate so far; the final line gives the time taken.
    char left[32] = "";
    if (!final_line && fraction > 0 && fraction < 1)
      std::snprintf(left, sizeof left, ", %.0fs left", seconds * (1 - fraction) / fraction);
    std::fprintf(stderr, "\r%s [%-*s] %5.1f%% of %llu %6.1fs%s %s\033[K", label_.c_str(), kWidth,
                 std::string(filled, '#').c_str(), 100.0 * fraction,
                 static_cast<unsigned long long>(total_), seconds, left, detail_.c_str());
  } else {
    std::fprintf(stderr, "\r%s %llu %6.1fs %s\033[K", label_.c_str(),
                 static_cast<unsigned long long>(done), seconds, detail_.c_str());
  }
  if (final_line) std::fputc('\n', stderr);
  std::fflush(stderr);
}

}  // namespace starlens
