#pragma once
// One star image -> one event record (docs/design.md section 5): the observed spectrum
// mu K B_nu(nu; g T) gives the colour (linear sRGB at Y = 1) and the flux (Y in Vega units),
// and the flux decides the event's class and support under the PSF model.
#include <optional>
#include <string>

#include "catalog/star_record.h"
#include "colour/colour_table.h"
#include "colour/flux_unit.h"
#include "events/star_event.h"
#include "optics/event_class.h"
#include "visibility_bound.h"

namespace starlens::produce {

struct ImagePoint;  // image_triangle.h

// table: the log-T colour table (colour/colour_table.h; its measured worst error goes to the
// manifest); exact: integration over the CIE tables for every image (~10 us each).
enum class ColourMode { table, exact };

// What is wrong with a catalogue star's photometry, or nothing: teff finite and > 0, flux
// finite and >= 0.
std::optional<std::string> star_photometry_problem(const catalog::CatalogStar& star);

class EventAssembler {
 public:
  EventAssembler(const PsfModel& psf, double band_wavelength_um, ColourMode mode);

  // K of the star's modelled spectrum (flux_unit.h). Throws std::domain_error when it is not
  // finite (a temperature so low that B_nu underflows in the band).
  double spectrum_scale(const catalog::CatalogStar& star) const;

  // The event of an image at `point` with magnification mu of a star of temperature teff_k and
  // spectrum scale k; the class says whether it is written (discarded: not).
  Classification assemble(double teff_k, double k, const ImagePoint& point, double mu,
                          StarEvent& event) const;

  // The smallest magnification an image of the star with g <= max_g needs to reach the
  // visibility floor: an image's flux is proportional to mu and grows with the observed
  // temperature g T. Infinite for a star of zero flux.
  double smallest_visible_mu(double teff_k, double k, double max_g) const;
  // A star's observed temperature g T for its images of one g, with the colour table's part of
  // the lookups that depends on it alone (table mode): what the overloads below share, which
  // give the results above bit for bit (assemble's for an image of that g).
  struct Observed {
    double g = 0;
    ColourTable::AtTemperature table;
  };
  Observed observed(double teff_k, double g) const;
  double smallest_visible_mu(const Observed& observed, double k) const;
  Classification assemble(const Observed& observed, double k, const ImagePoint& point, double mu,
                          StarEvent& event) const;

  // Whether any image with mu <= max_mu and g <= max_g can be visible.
  bool may_be_visible(double teff_k, double k, double max_mu, double max_g) const {
    return max_mu >= smallest_visible_mu(teff_k, k, max_g);
  }

  // The quick test run before any of the above (visibility_bound.h).
  const VisibilityBound& quick_bound() const { return quick_bound_; }

  const PsfModel& psf() const { return psf_; }

 private:
  PsfModel psf_;
  EventClassifier classifier_;
  double peak_pixel_;  // p_pix,max of the PSF
  VisibilityBound quick_bound_;
  double band_wavelength_um_;
  BandSpectrumScale band_scale_;
  ColourMode mode_;
};

}  // namespace starlens::produce
