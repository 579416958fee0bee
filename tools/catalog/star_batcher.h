#pragma once
// Collects one reader's stars into batches for the (shared, locked) external sorter,
// computing each star's sort key and checking the values the store will hold.
#include <cstdint>
#include <string>
#include <vector>

#include "catalog/external_sorter.h"

namespace starlens::catalog {

class StarBatcher {
 public:
  explicit StarBatcher(ExternalSorter& sorter) : sorter_(sorter) { batch_.reserve(kBatch); }
  // ra in [0, 360), dec in [-90, 90] degrees; teff (K) and flux (Jy) positive and finite as
  // float32 (checked by the readers; a violation here is a bug: RunFailure). `id` and `mag`:
  // the star's identifier and reference-band magnitude in its catalogue.
  void add(double ra_deg, double dec_deg, double teff_k, double flux_jy, std::int64_t id,
           double mag);
  void flush();
  std::uint64_t added() const { return added_; }

 private:
  static constexpr std::size_t kBatch = 1 << 15;
  ExternalSorter& sorter_;
  std::vector<StarRecord> batch_;
  std::uint64_t added_ = 0;
};

}  // namespace starlens::catalog
