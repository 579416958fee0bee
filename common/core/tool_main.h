#pragma once
// What every starlens executable shares: CLI11 parsing with the design's exit statuses, the
// common flags, and the mapping from exceptions to one stderr line and an exit status.
#include <CLI/CLI.hpp>
#include <functional>
#include <string>

namespace starlens {

struct CommonOptions {
  bool force = false;         // overwrite existing outputs
  bool quiet = false;         // no progress bar
  int threads = 0;            // 0: all cores
  std::string from_manifest;  // rerun with a manifest's parameters
};

// Adds --version (with build facts) to `app`; --help is CLI11's own.
void add_version_flag(CLI::App& app, const std::string& tool_name);
// Adds --force, --quiet, and --threads when `parallel`.
void add_common_flags(CLI::App& app, CommonOptions& options, bool parallel);

// Parses argv. Returns -1 when the run should go on, otherwise the exit status to return
// (0 after --help/--version; 2 after a parse error, printed as one line).
int parse_command_line(CLI::App& app, int argc, char** argv, const std::string& tool_name);

// Runs `body`, mapping InputError to exit 2, RunFailure and any other exception to exit 1,
// each printed as "starlens-<tool>: error: <message>" on one line.
int run_tool(const std::string& tool_name, const std::function<int()>& body);

// Applies --threads (0 = all cores) to OpenMP; returns the thread count in effect.
int apply_thread_count(int requested);

}  // namespace starlens
