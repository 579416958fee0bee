#include "core/run_clock.h"

namespace starlens {
namespace {

struct ProcessStart {
  std::chrono::system_clock::time_point system = std::chrono::system_clock::now();
  std::chrono::steady_clock::time_point steady = std::chrono::steady_clock::now();
};

// Initialised with this file's statics, before main runs.
const ProcessStart kProcessStart;

}  // namespace

std::chrono::system_clock::time_point process_start_time() {
  return kProcessStart.system;
}

double seconds_since_process_start() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - kProcessStart.steady)
      .count();
}

}  // namespace starlens
