#pragma once
// A catalogue store of given stars for the producer's tests: V band, temperatures as given.
#include <filesystem>
#include <vector>

#include "catalog/photometry.h"
#include "catalog/store_writer.h"

namespace starlens::produce::testing {

inline void write_store(const std::filesystem::path& path,
                        const std::vector<catalog::StarRecord>& records, int order) {
  catalog::StoreDescription description;
  description.band = catalog::band_by_name("V", "--band");
  description.teff_relation = "given";
  catalog::StoreWriter writer(path, path.string(), order, description);
  writer.append(records);
  writer.finish();
}

}  // namespace starlens::produce::testing
