#pragma once
// `starlens-catalog info catalog.h5`: counts, cell occupancy, magnitude and temperature
// histograms (text or --json on stdout), and --png: a full-sky density map.
#include <CLI/CLI.hpp>
#include <cstdint>
#include <string>

#include "core/tool_main.h"

namespace starlens::catalog {

struct InfoOptions {
  std::string input;
  std::string png;
  std::uint32_t width = 1024;
  bool json = false;
  CommonOptions common;
};

CLI::App* add_info_command(CLI::App& app, InfoOptions& options);
int run_info(const InfoOptions& options, int argc, char** argv);

}  // namespace starlens::catalog
