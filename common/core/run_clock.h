#pragma once
// When this process started, taken while the program's statics are initialised (before main):
// a manifest's start_time and its run_wall cover the whole run, argument parsing, input
// checks and hashing included, not only the stage's own work.
#include <chrono>

namespace starlens {

std::chrono::system_clock::time_point process_start_time();
// Wall seconds since then (steady clock).
double seconds_since_process_start();

}  // namespace starlens
