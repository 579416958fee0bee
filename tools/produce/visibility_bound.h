#pragma once
// A quick, conservative test run on every catalogue star before anything else: can any image
// of it with magnification <= mu_max and frequency ratio <= g_max reach the visibility floor?
//
// An image's flux is (K mu / K_V) exp(ln Y(g T) - ln Y_V) (colour/observed_colour.h) with
// K = F / B_nu(band; T), so ln flux = ln F - ln B_nu(band; T) + ln mu + ln Y(g T) + const, and it
// grows with mu and with g. ln Y and ln B_nu are tabulated on ln T (linear interpolation, 128
// nodes per e-fold); the tables' largest interpolation errors are measured at build time and
// twice their sum is added as a margin, so the test answers "no" only for stars the exact path
// would skip too (tested). It costs two logarithms instead of the exact path's exponentials
// and colour-table lookup, for the great majority of a deep catalogue's stars.
#include <vector>

#include "events/star_event.h"

namespace starlens::produce {

class VisibilityBound {
 public:
  VisibilityBound(double band_wavelength_um, const PsfModel& psf);

  // False only when no image with ln mu <= log_max_mu and ln g <= log_max_g can be visible.
  bool may_be_visible(double teff_k, double flux_jy, double log_max_mu, double log_max_g) const;

  double margin() const { return margin_; }  // in ln flux

  // The smallest ln(flux density / Jy) below which may_be_visible is false for every star with
  // temperature in [t_low, t_high] and ln mu <= 0, ln g <= log_max_g: ln Y and ln B_nu both grow
  // with T, so it takes ln Y at g t_high and ln B_nu at t_low. -infinity where the tables do not
  // cover those (no star is skipped there). flux_floor.h turns these into one compare a star.
  double log_flux_floor(double log_t_low, double log_t_high, double log_max_g) const;

 private:
  struct Table {
    double first;  // ln T of node 0
    std::vector<double> value;
    bool covers(double log_t) const;
    double at(double log_t) const;
  };

  Table log_luminance_;   // ln Y(T)
  Table log_planck_;      // ln B_nu(band; T)
  double log_threshold_;  // ln(min_y / p_pix,max) - const
  double margin_;
};

}  // namespace starlens::produce
