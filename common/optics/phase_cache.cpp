// The immutable phase cache (docs/design.md section 5): exact pixel integrals of a unit-flux event
// at the (P+1)^2 sub-pixel phases over the (2Rc+1)^2 window, built once in parallel.
#include "optics/phase_cache.h"

#include <string>

#include "core/errors.h"
#include "optics/moffat.h"

namespace starlens {

PhaseCache::PhaseCache(const PsfModel& model) : radius_(model.cache_radius), phases_(model.phases) {
  if (radius_ < 0) throw_input_error("PSF model", "cache radius", "must be >= 0");
  if (phases_ < 1) throw_input_error("PSF model", "phases", "must be >= 1");
  const double window = 2.0 * radius_ + 1.0;
  const double phase_count = (phases_ + 1.0) * (phases_ + 1.0);
  if (window * window * phase_count > kMaxPhaseCacheWeights) {
    throw_input_error("PSF model", "cache radius and phases",
                      "a phase cache of " + std::to_string(radius_) + " px radius and " +
                          std::to_string(phases_) + " phases would exceed 32 MiB (2^22 weights)");
  }
  const Moffat psf = moffat_from_fwhm(model.fwhm, model.beta);
  weights_.resize(static_cast<std::size_t>(window * window * phase_count));

  const int side = this->window();
  const int phase_side = phases_ + 1;
  const std::ptrdiff_t rows = std::ptrdiff_t(phase_side) * phase_side * side;
  // One task per (phase, window row); the integrals near the centre cost the most, so the
  // schedule is dynamic.
#pragma omp parallel for schedule(dynamic, 4)
  for (std::ptrdiff_t task = 0; task < rows; ++task) {
    const int row = static_cast<int>(task % side);
    const int phase = static_cast<int>(task / side);
    const int a = phase % phase_side;
    const int b = phase / phase_side;
    const double centre_x = double(a) / phases_;  // centre offset inside pixel (0, 0)
    const double centre_y = double(b) / phases_;
    const int dj = row - radius_;
    double* out = weights_.data() + std::size_t(phase) * phase_stride() + std::size_t(row) * side;
    for (int column = 0; column < side; ++column) {
      const int di = column - radius_;
      out[column] = moffat_rectangle_integral(psf, di - centre_x, di + 1 - centre_x, dj - centre_y,
                                              dj + 1 - centre_y, 0.0);
    }
  }
}

}  // namespace starlens
