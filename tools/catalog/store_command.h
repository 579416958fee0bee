#pragma once
// What the store-writing commands (ingest and synth) share: the tool's name, the store
// options, and what their manifests record of the store.
#include <CLI/CLI.hpp>
#include <string>

#include "catalog/photometry.h"
#include "manifest/manifest.h"
#include "store_build.h"

namespace starlens::catalog {

constexpr const char* kToolName = "starlens-catalog";

// --order, --memory-limit, --deflate.
void add_store_options(CLI::App& command, int& order, std::string& memory_limit, int& deflate);
// Checks --order (-1 or 0..kMaxStoreOrder) and --deflate (0..9).
void check_store_options(int order, int deflate);

// Counts and sections every store-writing run records.
void record_store(Manifest& manifest, const StoreBuildResult& result, const Band& band);

}  // namespace starlens::catalog
