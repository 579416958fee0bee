#include "store_build.h"

#include "catalog/sky_cells.h"
#include "core/progress.h"

namespace starlens::catalog {

nlohmann::json StoreBuildResult::to_json() const {
  return {{"order", order},
          {"cells", cells},
          {"occupied_cells", occupied_cells},
          {"largest_cell_stars", largest_cell},
          {"mean_stars_per_cell",
           cells ? static_cast<double>(count) / static_cast<double>(cells) : 0.0},
          {"sort_runs_written", sort.runs_written},
          {"sort_bytes_spilled", sort.bytes_spilled},
          {"sort_merge_passes", sort.merge_passes},
          {"sort_buffer_records", sort.buffer_capacity}};
}

StoreBuildResult build_store(ExternalSorter& sorter, const OutputSet& outputs,
                             const std::filesystem::path& output, int requested_order,
                             const StoreDescription& description, PhaseTimes& times, bool quiet) {
  StoreBuildResult result;
  result.count = sorter.size();
  result.order = requested_order >= 0 ? requested_order : choose_order(result.count);
  result.cells = SkyCells(result.order).count();
  StoreWriter writer(outputs.temp_path(output), output.string(), result.order, description);
  {
    ScopedPhase phase(times, "sort_merge_write");
    Progress progress("writing store", result.count, quiet);
    sorter.finish([&](std::span<const StarRecord> batch) {
      writer.append(batch);
      progress.advance(batch.size());
    });
    writer.finish();
  }
  result.sort = sorter.statistics();
  result.occupied_cells = writer.occupied_cells();
  result.largest_cell = writer.largest_cell();
  return result;
}

}  // namespace starlens::catalog
