#pragma once
// `starlens-catalog ingest`: catalogue files -> catalog.h5 (+ manifest).
#include <CLI/CLI.hpp>
#include <string>
#include <vector>

#include "core/tool_main.h"

namespace starlens::catalog {

struct IngestOptions {
  std::vector<std::string> inputs;
  std::string output;
  std::string format = "auto";  // auto, stellarium, 2mass, csv
  std::string band;             // empty: the format's default
  std::string columns;          // CSV column mapping (csv_catalog.h); empty: ra,dec,mag,teff|bv
  int order = -1;               // -1: automatic
  std::string memory_limit = "4G";
  int deflate = 0;
  CommonOptions common;
};

CLI::App* add_ingest_command(CLI::App& app, IngestOptions& options);
int run_ingest(const IngestOptions& options, int argc, char** argv);

}  // namespace starlens::catalog
