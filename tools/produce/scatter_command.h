#pragma once
// `starlens-produce scatter`: its flags, and the run that writes the control stream
// (scatter.h) and its manifest.
#include <CLI/CLI.hpp>
#include <cstdint>
#include <string>

#include "core/tool_main.h"

namespace starlens::produce {

struct ScatterOptions {
  std::string input;
  std::string output;
  std::string manifest;
  std::uint64_t seed = 1;
  CommonOptions common;
};

// Adds the subcommand to `app`; parsing fills `options`.
CLI::App* add_scatter_command(CLI::App& app, ScatterOptions& options);

// Checks the paths before anything is written, scatters, writes the manifest; returns the
// exit status.
int run_scatter(const ScatterOptions& options, const char* tool, int argc, char** argv);

}  // namespace starlens::produce
