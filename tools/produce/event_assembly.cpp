#include "event_assembly.h"

#include <cmath>
#include <limits>

#include "colour/colour_table.h"
#include "colour/flux_unit.h"
#include "colour/observed_colour.h"
#include "image_triangle.h"

namespace starlens::produce {

std::optional<std::string> star_photometry_problem(const catalog::CatalogStar& star) {
  if (!(std::isfinite(star.teff_k) && star.teff_k > 0))
    return "teff must be finite and > 0 (got " + std::to_string(star.teff_k) + " K)";
  if (!(std::isfinite(star.flux_jy) && star.flux_jy >= 0))
    return "flux must be finite and >= 0 (got " + std::to_string(star.flux_jy) + " Jy)";
  return std::nullopt;
}

EventAssembler::EventAssembler(const PsfModel& psf, double band_wavelength_um, ColourMode mode)
    : psf_(psf),
      classifier_(psf),
      peak_pixel_(peak_pixel_fraction(psf)),
      quick_bound_(band_wavelength_um, psf),
      band_wavelength_um_(band_wavelength_um),
      band_scale_(band_wavelength_um),
      mode_(mode) {
  if (mode_ == ColourMode::table) ColourTable::shared();  // build it before the threads start
}

double EventAssembler::spectrum_scale(const catalog::CatalogStar& star) const {
  return band_scale_(star.flux_jy, star.teff_k);
}

double EventAssembler::smallest_visible_mu(double teff_k, double k, double max_g) const {
  return smallest_visible_mu(observed(teff_k, max_g), k);
}

EventAssembler::Observed EventAssembler::observed(double teff_k, double g) const {
  Observed out;
  out.g = g;
  out.table.temperature_k = g * teff_k;
  if (mode_ == ColourMode::table) out.table = ColourTable::shared().at_temperature(g * teff_k);
  return out;
}

double EventAssembler::smallest_visible_mu(const Observed& observed, double k) const {
  if (!(observed.g > 0 && k > 0)) return std::numeric_limits<double>::infinity();
  const double temperature = observed.table.temperature_k;
  const double flux_per_mu = mode_ == ColourMode::table
                                 ? ColourTable::shared().lookup_flux(observed.table, k)
                                 : observed_colour_exact(temperature, k).flux;
  if (!(flux_per_mu > 0)) return std::numeric_limits<double>::infinity();
  // The margin covers the table's interpolation, which need not be monotonic to the last bit.
  constexpr double kMargin = 1 + 1e-6;
  return psf_.min_y / (flux_per_mu * kMargin * peak_pixel_);
}

Classification EventAssembler::assemble(const Observed& observed, double k, const ImagePoint& point,
                                        double mu, StarEvent& event) const {
  const double temperature = observed.table.temperature_k;
  const StarColour colour = mode_ == ColourMode::table
                                ? ColourTable::shared().lookup(observed.table, mu * k)
                                : observed_colour_exact(temperature, mu * k);
  const Classification classification = classifier_.classify(colour.flux);
  event = {point.x, point.y, colour.r, colour.g, colour.b, colour.flux, classification.support};
  return classification;
}

Classification EventAssembler::assemble(double teff_k, double k, const ImagePoint& point, double mu,
                                        StarEvent& event) const {
  return assemble(observed(teff_k, point.g), k, point, mu, event);
}

}  // namespace starlens::produce
