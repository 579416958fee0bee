#pragma once
// `starlens-catalog synth`: a deterministic synthetic Milky Way -> catalog.h5 directly, or
// 2MASS-format psc_*.gz files to exercise ingest at scale.
#include <CLI/CLI.hpp>
#include <cstdint>
#include <string>

#include "core/tool_main.h"

namespace starlens::catalog {

struct SynthOptions {
  std::uint64_t seed = 1;
  std::uint64_t count = 0;
  std::string output;   // catalog.h5, or
  std::string psc_dir;  // a folder for psc_*.gz
  int psc_files = 0;    // 0: one per 5 million stars
  int gzip_level = 6;
  std::string band = "J";
  int order = -1;
  std::string memory_limit = "4G";
  int deflate = 0;
  CommonOptions common;
};

// Most stars synth makes (a guard against typing an extra digit).
constexpr std::uint64_t kMaxSynthStars = 10'000'000'000ull;

CLI::App* add_synth_command(CLI::App& app, SynthOptions& options);
int run_synth(const SynthOptions& options, int argc, char** argv);

// psc_aaa.gz, psc_aab.gz, ... (the 2MASS release's naming) for file `index`.
std::string psc_file_name(int index);

}  // namespace starlens::catalog
