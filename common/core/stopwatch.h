#pragma once
// Wall-clock timing of named phases, accumulated across calls, for manifests; and the
// calling thread's CPU time.
#include <time.h>

#include <chrono>
#include <map>
#include <string>

namespace starlens {

class PhaseTimes {
 public:
  void add(const std::string& phase, double seconds) { seconds_[phase] += seconds; }
  double get(const std::string& phase) const {
    const auto found = seconds_.find(phase);
    return found == seconds_.end() ? 0.0 : found->second;
  }
  const std::map<std::string, double>& all() const { return seconds_; }

 private:
  std::map<std::string, double> seconds_;
};

// Adds the time from construction to destruction to one phase.
class ScopedPhase {
 public:
  ScopedPhase(PhaseTimes& times, std::string phase)
      : times_(times), phase_(std::move(phase)), start_(std::chrono::steady_clock::now()) {}
  ~ScopedPhase() {
    times_.add(phase_,
               std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count());
  }
  ScopedPhase(const ScopedPhase&) = delete;
  ScopedPhase& operator=(const ScopedPhase&) = delete;

 private:
  PhaseTimes& times_;
  std::string phase_;
  std::chrono::steady_clock::time_point start_;
};

inline double seconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

// CPU time of the calling thread (not counting time it waited or was preempted): the figure a
// loaded machine disturbs least.
inline double thread_cpu_seconds() {
  timespec now{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now);
  return static_cast<double>(now.tv_sec) + 1e-9 * static_cast<double>(now.tv_nsec);
}

}  // namespace starlens
