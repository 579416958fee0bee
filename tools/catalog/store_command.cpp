#include "store_command.h"

#include "catalog/sky_cells.h"
#include "core/errors.h"

namespace starlens::catalog {

void add_store_options(CLI::App& command, int& order, std::string& memory_limit, int& deflate) {
  command.add_option(
      "--order", order,
      "HEALPix order of the store's cells (default: automatic, about 1000 stars per cell)");
  command
      .add_option("--memory-limit", memory_limit,
                  "Memory for sorting (e.g. 4G, 512M); more stars are sorted in runs on disk")
      ->capture_default_str();
  command
      .add_option("--deflate", deflate,
                  "Compress the store's chunks with deflate level 1-9 (0: none)")
      ->capture_default_str();
}

void check_store_options(int order, int deflate) {
  if (order < -1 || order > kMaxStoreOrder)
    throw_input_error("--order", "",
                      std::to_string(order) + " outside 0.." + std::to_string(kMaxStoreOrder));
  if (deflate < 0 || deflate > 9)
    throw_input_error("--deflate", "", std::to_string(deflate) + " outside 0..9");
}

void record_store(Manifest& manifest, const StoreBuildResult& result, const Band& band) {
  manifest.counts()["stars_written"] = result.count;
  manifest.counts()["cells"] = result.cells;
  manifest.counts()["occupied_cells"] = result.occupied_cells;
  manifest.counts()["sort_runs_written"] = result.sort.runs_written;
  manifest.section("store") = result.to_json();
  manifest.section("store")["band"] = band.name;
  manifest.section("store")["F0_jy"] = band.zero_point_jy;
  manifest.section("store")["band_wavelength_um"] = band.wavelength_um;
  manifest.section("store")["zero_point_reference"] = band.reference;
}

}  // namespace starlens::catalog
