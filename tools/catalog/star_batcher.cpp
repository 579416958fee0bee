#include "star_batcher.h"

#include <cmath>
#include <limits>

#include "catalog/sky_cells.h"
#include "core/errors.h"

namespace starlens::catalog {

void StarBatcher::add(double ra_deg, double dec_deg, double teff_k, double flux_jy, std::int64_t id,
                      double mag) {
  constexpr double kFloatMax = std::numeric_limits<float>::max();
  if (!(ra_deg >= 0 && ra_deg < 360) || !(dec_deg >= -90 && dec_deg <= 90) || !(teff_k > 0) ||
      !(teff_k < kFloatMax) || !(flux_jy > 0) || !(flux_jy < kFloatMax))
    throw_run_failure("ingest", "internal error: a reader passed an unchecked star (ra " +
                                    std::to_string(ra_deg) + ", dec " + std::to_string(dec_deg) +
                                    ")");
  batch_.push_back({sky_key(ra_deg, dec_deg), ra_deg, dec_deg, id, static_cast<float>(teff_k),
                    static_cast<float>(flux_jy), static_cast<float>(mag)});
  ++added_;
  if (batch_.size() == kBatch) flush();
}

void StarBatcher::flush() {
  sorter_.add(batch_);
  batch_.clear();
}

}  // namespace starlens::catalog
