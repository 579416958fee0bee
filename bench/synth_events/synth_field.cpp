#include "synth_field.h"

#include <algorithm>
#include <cmath>
#include <string>

#include "core/errors.h"
#include "optics/event_class.h"
#include "optics/moffat.h"
#include "synth_colour.h"

namespace starlens::synth {
namespace {

// A regular draw may be discarded; the options guarantee an acceptance of at least
// kMinAcceptance, so this many attempts failing means a bug, not bad luck.
constexpr double kMinAcceptance = 1e-6;
constexpr std::uint64_t kMaxDiscardedInARow = 1'000'000'000;
// Guaranteed direct / wing-clip draws aim inside the class's flux range; a draw that
// classify_event still puts elsewhere is redrawn at most this often.
constexpr int kMaxClassRedraws = 64;

std::string text(double value) {
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%.6g", value);
  return buffer;
}

void require(bool condition, const char* flag, const std::string& reason) {
  if (!condition) throw_input_error(flag, "", reason);
}

void validate_psf(const PsfModel& psf) {
  require(std::isfinite(psf.fwhm) && psf.fwhm > 0, "--psf-fwhm", "must be > 0");
  require(std::isfinite(psf.beta) && psf.beta > 1, "--psf-beta", "must be > 1");
  require(psf.cache_radius >= 0, "--psf-cache-radius", "must be >= 0");
  require(psf.phases >= 1, "--psf-phases", "must be >= 1");
  require(std::isfinite(psf.min_y) && psf.min_y > 0, "--psf-min-y", "must be > 0");
  // Above 1 a visible event's wing level could exceed its own peak (support 0).
  require(std::isfinite(psf.relative_tail) && psf.relative_tail > 0 && psf.relative_tail <= 1,
          "--psf-relative-tail", "must be within (0, 1]");
  require(std::isfinite(psf.max_radius) && psf.max_radius > psf.cache_radius, "--psf-max-radius",
          "must be > --psf-cache-radius (direct supports exceed Rc)");
}

}  // namespace

const char* distribution_name(Distribution distribution) {
  switch (distribution) {
    case Distribution::uniform:
      return "uniform";
    case Distribution::hotspot:
      return "hotspot";
    case Distribution::mixed:
      return "mixed";
  }
  return "unknown";
}

FluxThresholds flux_thresholds(const PsfModel& psf) {
  const Moffat moffat = moffat_from_fwhm(psf.fwhm, psf.beta);
  const double density_at_rc = moffat_density(moffat, psf.cache_radius);
  return {psf.min_y / peak_pixel_fraction(psf), psf.relative_tail * psf.min_y / density_at_rc,
          psf.min_y / density_at_rc};
}

SyntheticField::SyntheticField(const FieldOptions& options)
    : options_(options), random_(options.seed) {
  require(options_.width > 0, "--width", "must be > 0");
  require(options_.height > 0, "--height", "must be > 0");
  validate_psf(options_.psf);
  thresholds_ = flux_thresholds(options_.psf);
  FieldOptions& o = options_;
  if (o.flux_min == 0) o.flux_min = 0.8 * thresholds_.visibility_floor;
  require(std::isfinite(o.flux_slope), "--flux-slope", "must be finite");
  require(std::isfinite(o.flux_min) && o.flux_min > 0, "--flux-min", "must be > 0");
  require(std::isfinite(o.flux_max) && o.flux_max > o.flux_min, "--flux-max",
          "must be > --flux-min (" + text(o.flux_min) + ")");
  require(power_law_fraction_above(o.flux_min, o.flux_max, o.flux_slope,
                                   thresholds_.visibility_floor) >= kMinAcceptance,
          "--flux-max",
          "almost every flux would fall below the visibility floor " +
              text(thresholds_.visibility_floor));
  require(o.hotspot_fraction >= 0 && o.hotspot_fraction <= 1, "--hotspot-fraction",
          "must be within [0, 1]");
  require(std::isfinite(o.hotspot_sigma) && o.hotspot_sigma > 0, "--hotspot-sigma", "must be > 0");
  require(std::isfinite(o.temperature_min) && o.temperature_min > 0, "--temperature-min",
          "must be > 0");
  require(std::isfinite(o.temperature_max) && o.temperature_max >= o.temperature_min,
          "--temperature-max", "must be >= --temperature-min");
  if (o.distribution == Distribution::mixed) {
    require(o.psf.relative_tail < 1, "--psf-relative-tail",
            "must be < 1 for --distribution mixed (wing clips exist only then)");
    require(
        std::max(thresholds_.wing_clip_min, thresholds_.visibility_floor) < thresholds_.direct_min,
        "--psf-cache-radius", "leaves no flux range for wing clips (--distribution mixed)");
    require(o.flux_max > 1.01 * thresholds_.direct_min, "--flux-max",
            "must exceed the direct threshold " + text(thresholds_.direct_min) +
                " for --distribution mixed");
  }
}

SyntheticField::Slot SyntheticField::slot_of(std::uint64_t index) const {
  if (options_.distribution != Distribution::mixed) return Slot::regular;
  const std::uint64_t phase = index % kMixedPeriod;
  if (phase == 7) return Slot::direct;
  if (phase == 32) return Slot::wing_clip;
  return Slot::regular;
}

void SyntheticField::place(StarEvent& event, std::uint64_t index) {
  const double width = options_.width;
  const double height = options_.height;
  // The largest coordinates still inside the frame's last pixel.
  const double last_x = std::nextafter(width, 0.0);
  const double last_y = std::nextafter(height, 0.0);
  if (options_.distribution != Distribution::hotspot && index < 4) {
    event.x = (index & 1) ? last_x : 0.0;
    event.y = (index & 2) ? last_y : 0.0;
    return;
  }
  if (options_.distribution == Distribution::hotspot &&
      random_.uniform() < options_.hotspot_fraction) {
    const double sigma = options_.hotspot_sigma * height;
    do {
      event.x = 0.5 * width + sigma * random_.normal();
      event.y = 0.5 * height + sigma * random_.normal();
    } while (!(event.x >= 0 && event.x < width && event.y >= 0 && event.y < height));
    return;
  }
  event.x = std::min(random_.uniform(0, width), last_x);
  event.y = std::min(random_.uniform(0, height), last_y);
}

void SyntheticField::assign_flux(StarEvent& event, Slot slot) {
  const FieldOptions& o = options_;
  const FluxThresholds& t = thresholds_;
  if (slot == Slot::regular) {
    for (std::uint64_t attempt = 0; attempt < kMaxDiscardedInARow; ++attempt) {
      const double flux = random_.power_law(o.flux_min, o.flux_max, o.flux_slope);
      const Classification c = classify_event(flux, o.psf);
      ++counts_.drawn;
      if (c.event_class == EventClass::discarded) {
        ++counts_.discarded;
        continue;
      }
      event.flux = flux;
      event.support = c.support;
      if (c.event_class == EventClass::cache) ++counts_.cache;
      if (c.event_class == EventClass::wing_clip) ++counts_.wing_clip;
      if (c.event_class == EventClass::direct) ++counts_.direct;
      if (c.bounded_by_max) ++counts_.bounded_by_max;
      return;
    }
    throw_run_failure("synthetic field", "no flux above the visibility floor in 1e9 draws");
  }
  const EventClass wanted = slot == Slot::direct ? EventClass::direct : EventClass::wing_clip;
  const double low = slot == Slot::direct ? std::max(t.direct_min, t.visibility_floor)
                                          : std::max(t.wing_clip_min, t.visibility_floor);
  const double high = slot == Slot::direct ? o.flux_max : t.direct_min;
  for (int attempt = 0; attempt < kMaxClassRedraws; ++attempt) {
    const double flux = random_.power_law(low, high, o.flux_slope);
    const Classification c = classify_event(flux, o.psf);
    if (c.event_class != wanted) continue;
    ++counts_.drawn;
    event.flux = flux;
    event.support = c.support;
    if (wanted == EventClass::direct) ++counts_.direct;
    if (wanted == EventClass::wing_clip) ++counts_.wing_clip;
    if (c.bounded_by_max) ++counts_.bounded_by_max;
    return;
  }
  throw_run_failure("synthetic field", std::string("classify_event never gave a ") +
                                           event_class_name(wanted) + " event in the flux range [" +
                                           text(low) + ", " + text(high) + "]");
}

StarEvent SyntheticField::next() {
  StarEvent event{};
  place(event, index_);
  assign_flux(event, slot_of(index_));
  const Rgb colour = blackbody_ramp_colour(
      random_.log_uniform(options_.temperature_min, options_.temperature_max));
  event.r = colour.r;
  event.g = colour.g;
  event.b = colour.b;
  ++index_;
  return event;
}

}  // namespace starlens::synth
