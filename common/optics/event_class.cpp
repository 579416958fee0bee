// Event classes of docs/design.md section 5: discarded below the visibility floor, cache splats,
// wing clips and direct events, from the flux and the PSF model alone.
#include "optics/event_class.h"

#include <cmath>

namespace starlens {

const char* event_class_name(EventClass event_class) {
  switch (event_class) {
    case EventClass::discarded:
      return "discarded";
    case EventClass::cache:
      return "cache";
    case EventClass::wing_clip:
      return "wing_clip";
    case EventClass::direct:
      return "direct";
  }
  return "unknown";
}

double peak_pixel_fraction(const PsfModel& model) {
  const Moffat psf = moffat_from_fwhm(model.fwhm, model.beta);
  return moffat_rectangle_integral(psf, -0.5, 0.5, -0.5, 0.5, 0.0);
}

EventClassifier::EventClassifier(const PsfModel& model)
    : model_(model),
      psf_(moffat_from_fwhm(model.fwhm, model.beta)),
      peak_pixel_(peak_pixel_fraction(model)),
      peak_density_(moffat_density(psf_, 0.0)),
      density_at_cache_radius_(moffat_density(psf_, model.cache_radius)) {}

double EventClassifier::support_radius(double flux) const {
  // flux * p(R) = tail: (1 + R^2/alpha^2)^beta = flux * p(0) / tail, solved with expm1 so
  // supports just above 0 keep their precision.
  const double level = model_.relative_tail * model_.min_y / flux;
  if (!(peak_density_ > level)) return 0.0;
  return psf_.alpha * std::sqrt(std::expm1(std::log(peak_density_ / level) / psf_.beta));
}

Classification EventClassifier::classify(double flux) const {
  if (!(flux * peak_pixel_ >= model_.min_y) || !(flux > 0)) {
    return {EventClass::discarded, 0.0, false};
  }
  const double radius = support_radius(flux);
  const double cache_radius = model_.cache_radius;
  if (radius <= cache_radius) return {EventClass::cache, radius, false};
  if (flux * density_at_cache_radius_ <= model_.min_y) {
    return {EventClass::wing_clip, cache_radius, false};
  }
  if (radius > model_.max_radius) return {EventClass::direct, model_.max_radius, true};
  return {EventClass::direct, radius, false};
}

Classification classify_event(double flux, const PsfModel& model) {
  // The producer classifies every star with one model: keep the last classifier per thread
  // so that the peak pixel integral is not recomputed per event.
  thread_local PsfModel last_model{};
  thread_local EventClassifier classifier(last_model);
  if (model.fwhm != last_model.fwhm || model.beta != last_model.beta ||
      model.cache_radius != last_model.cache_radius || model.phases != last_model.phases ||
      model.min_y != last_model.min_y || model.relative_tail != last_model.relative_tail ||
      model.max_radius != last_model.max_radius) {
    classifier = EventClassifier(model);
    last_model = model;
  }
  return classifier.classify(flux);
}

EventClass stream_event_class(const StarEvent& event, const PsfModel& model) {
  return event.support > model.cache_radius ? EventClass::direct : EventClass::cache;
}

}  // namespace starlens
