// The phase cache: entries are the exact pixel integrals at the grid phases (checked against
// the Cartesian reference), laid out as psf.h documents, with the mirror symmetries of the
// Moffat profile, and refused when its size is absurd.
#include <doctest/doctest.h>

#include <cmath>

#include "core/errors.h"
#include "optics/phase_cache.h"
#include "reference_integrals.h"

namespace starlens {
namespace {

double entry(const PhaseCache& cache, int a, int b, int di, int dj) {
  const int r = cache.radius();
  return cache.weights(a, b)[(dj + r) * cache.window() + (di + r)];
}

TEST_CASE("phase cache entries equal the exact pixel integrals at the grid phases") {
  PsfModel model;
  model.cache_radius = 6;
  model.phases = 4;
  const PhaseCache cache(model);
  CHECK(cache.radius() == 6);
  CHECK(cache.phases() == 4);
  CHECK(cache.window() == 13);
  CHECK(cache.all_weights().size() == 25u * 13 * 13);
  const auto ref = reference::from_fwhm(model.fwhm, model.beta);
  const int samples[][4] = {{0, 0, 0, 0},  {4, 4, 0, 0},  {2, 1, 0, 0},  {1, 3, -1, 2},
                            {4, 0, -6, 6}, {0, 4, 6, -6}, {3, 2, 5, -4}, {2, 2, -3, -3}};
  for (const auto& s : samples) {
    const int a = s[0], b = s[1], di = s[2], dj = s[3];
    // Phase (a, b): centre at (a/P, b/P) inside pixel (0, 0); pixel (di, dj) relative to it.
    const double cx = double(a) / model.phases, cy = double(b) / model.phases;
    const double expected =
        reference::rectangle_integral_nested(ref, di - cx, di + 1 - cx, dj - cy, dj + 1 - cy, 0);
    INFO("phase (" << a << ", " << b << ") pixel (" << di << ", " << dj << ")");
    CHECK(std::fabs(entry(cache, a, b, di, dj) / expected - 1) < 1e-12);
  }
}

TEST_CASE("phase cache symmetries: transpose and mirror") {
  const PsfModel model;  // Rc 16, P 8
  const PhaseCache cache(model);
  const int r = cache.radius(), p = cache.phases();
  double worst = 0;
  for (int a = 0; a <= p; ++a) {
    for (int b = 0; b <= p; ++b) {
      for (int dj = -r; dj <= r; ++dj) {
        for (int di = -r; di <= r; ++di) {
          const double w = entry(cache, a, b, di, dj);
          // Swapping x and y; mirroring x about the centre maps phase a to P - a, di to -di.
          worst = std::max(worst, std::fabs(entry(cache, b, a, dj, di) / w - 1));
          worst = std::max(worst, std::fabs(entry(cache, p - a, b, -di, dj) / w - 1));
        }
      }
    }
  }
  CHECK(worst < 1e-13);
}

TEST_CASE("each phase's window holds the flux of its rectangle") {
  PsfModel model;
  model.cache_radius = 10;
  model.phases = 3;
  const PhaseCache cache(model);
  const auto ref = reference::from_fwhm(model.fwhm, model.beta);
  const int r = cache.radius();
  for (int a : {0, 1, 3}) {
    for (int b : {0, 2}) {
      double sum = 0;
      for (std::size_t k = 0; k < cache.phase_stride(); ++k) sum += cache.weights(a, b)[k];
      const double cx = double(a) / model.phases, cy = double(b) / model.phases;
      const double expected = reference::enclosed_in_rectangle_polar(ref, -r - cx, r + 1 - cx,
                                                                     -r - cy, r + 1 - cy, 1e12);
      CHECK(std::fabs(sum / expected - 1) < 1e-13);
    }
  }
}

TEST_CASE("an absurd cache radius or phase count is bad input, not an allocation failure") {
  PsfModel model;
  model.cache_radius = 100000;
  CHECK_THROWS_AS(PhaseCache{model}, InputError);
  model.cache_radius = -1;
  CHECK_THROWS_AS(PhaseCache{model}, InputError);
  model.cache_radius = 16;
  model.phases = 0;
  CHECK_THROWS_AS(PhaseCache{model}, InputError);
  model.phases = 1 << 20;
  CHECK_THROWS_AS(PhaseCache{model}, InputError);
  // 36 M weights (288 MB of exact integrals): more than any frame uses, refused unbuilt.
  model.cache_radius = 500;
  model.phases = 5;
  CHECK_THROWS_WITH_AS(PhaseCache{model},
                       "PSF model: cache radius and phases: a phase cache of 500 px radius and 5 "
                       "phases would exceed 32 MiB (2^22 weights)",
                       InputError);
  model.phases = 1;
  model.cache_radius = 0;
  const PhaseCache tiny(model);
  CHECK(tiny.window() == 1);
  CHECK(tiny.weights(1, 1)[0] > 0);
}

}  // namespace
}  // namespace starlens
