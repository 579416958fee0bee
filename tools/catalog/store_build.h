#pragma once
// The last step shared by ingest and synth: the sorted stars from the external sorter
// into catalog.h5 at the requested (or automatic) order, with the store's facts for the
// manifest.
#include <cstdint>
#include <nlohmann/json.hpp>

#include "catalog/external_sorter.h"
#include "catalog/store_writer.h"
#include "core/output_set.h"
#include "core/stopwatch.h"

namespace starlens::catalog {

struct StoreBuildResult {
  std::uint64_t count = 0;
  int order = 0;
  std::uint64_t cells = 0;
  std::uint64_t occupied_cells = 0;
  std::uint64_t largest_cell = 0;
  SortStatistics sort;
  nlohmann::json to_json() const;
};

// `requested_order` < 0: choose_order(star count). Writes to the temporary of `output` in
// `outputs`; the caller commits.
StoreBuildResult build_store(ExternalSorter& sorter, const OutputSet& outputs,
                             const std::filesystem::path& output, int requested_order,
                             const StoreDescription& description, PhaseTimes& times, bool quiet);

}  // namespace starlens::catalog
