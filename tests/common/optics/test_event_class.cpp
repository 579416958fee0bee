// Event classes on each boundary of docs/design.md section 5, with thresholds computed from the
// independent long-double Moffat and a Cartesian quadrature of the peak pixel.
#include <doctest/doctest.h>

#include <cmath>
#include <limits>

#include "optics/event_class.h"
#include "reference_integrals.h"

namespace starlens {
namespace {

constexpr double kJustBelow = 1 - 1e-9;
constexpr double kJustAbove = 1 + 1e-9;

double density_at(const PsfModel& model, double r) {
  return double(
      reference::density(reference::from_fwhm(model.fwhm, model.beta), (long double)r * r));
}

// flux * p(support) must equal relative_tail * min_y.
void check_support_level(const PsfModel& model, double flux, double support) {
  const double level = flux * density_at(model, support);
  CHECK(std::fabs(level / (model.relative_tail * model.min_y) - 1) < 1e-12);
}

TEST_CASE("the peak pixel fraction is the centred pixel's integral") {
  for (double beta : {1.5, 2.5, 4.0}) {
    PsfModel model;
    model.beta = beta;
    const double expected = reference::rectangle_integral_nested(
        reference::from_fwhm(model.fwhm, beta), -0.5, 0.5, -0.5, 0.5, 0);
    CHECK(std::fabs(peak_pixel_fraction(model) / expected - 1) < 1e-13);
    // It is the largest pixel weight: any other centring gives less.
    const Moffat psf = moffat_from_fwhm(model.fwhm, beta);
    CHECK(moffat_rectangle_integral(psf, -0.4, 0.6, -0.5, 0.5, 0) < peak_pixel_fraction(model));
  }
}

TEST_CASE("classes on each boundary of the default model") {
  const PsfModel model;
  const double peak = double(reference::rectangle_integral_nested(
      reference::from_fwhm(model.fwhm, model.beta), -0.5, 0.5, -0.5, 0.5, 0));
  const double tail_level = model.relative_tail * model.min_y;
  const double visible = model.min_y / peak;
  const double cache_limit = tail_level / density_at(model, model.cache_radius);
  const double wing_limit = model.min_y / density_at(model, model.cache_radius);
  const double max_limit = tail_level / density_at(model, model.max_radius);
  REQUIRE(visible < cache_limit);
  REQUIRE(cache_limit < wing_limit);
  REQUIRE(wing_limit < max_limit);

  SUBCASE("min-Y discarded below the visibility floor") {
    CHECK(classify_event(visible * kJustBelow, model).event_class == EventClass::discarded);
    const Classification seen = classify_event(visible * kJustAbove, model);
    CHECK(seen.event_class == EventClass::cache);
    check_support_level(model, visible * kJustAbove, seen.support);
  }
  SUBCASE("cache splat up to R = Rc, wing clip beyond") {
    const Classification cache = classify_event(cache_limit * kJustBelow, model);
    CHECK(cache.event_class == EventClass::cache);
    CHECK(cache.support <= model.cache_radius);
    CHECK(cache.support > model.cache_radius * (1 - 1e-8));
    check_support_level(model, cache_limit * kJustBelow, cache.support);
    const Classification clip = classify_event(cache_limit * kJustAbove, model);
    CHECK(clip.event_class == EventClass::wing_clip);
    CHECK(clip.support == model.cache_radius);
    CHECK_FALSE(clip.bounded_by_max);
  }
  SUBCASE("wing clip while flux * p(Rc) <= min-Y, direct beyond") {
    const Classification clip = classify_event(wing_limit * kJustBelow, model);
    CHECK(clip.event_class == EventClass::wing_clip);
    CHECK(clip.support == model.cache_radius);
    const Classification direct = classify_event(wing_limit * kJustAbove, model);
    CHECK(direct.event_class == EventClass::direct);
    CHECK(direct.support > model.cache_radius);
    CHECK_FALSE(direct.bounded_by_max);
    check_support_level(model, wing_limit * kJustAbove, direct.support);
  }
  SUBCASE("direct supports bounded by the maximum radius") {
    const Classification inside = classify_event(max_limit * kJustBelow, model);
    CHECK(inside.event_class == EventClass::direct);
    CHECK_FALSE(inside.bounded_by_max);
    CHECK(inside.support < model.max_radius);
    check_support_level(model, max_limit * kJustBelow, inside.support);
    const Classification bounded = classify_event(max_limit * kJustAbove, model);
    CHECK(bounded.event_class == EventClass::direct);
    CHECK(bounded.bounded_by_max);
    CHECK(bounded.support == model.max_radius);
    CHECK(classify_event(1e30, model).support == model.max_radius);
  }
  SUBCASE("no flux, negative or not a number: discarded") {
    CHECK(classify_event(0.0, model).event_class == EventClass::discarded);
    CHECK(classify_event(-1.0, model).event_class == EventClass::discarded);
    CHECK(classify_event(std::numeric_limits<double>::quiet_NaN(), model).event_class ==
          EventClass::discarded);
  }
}

TEST_CASE("a wing clip needs R > Rc: with a high tail level the cache class reaches further") {
  PsfModel model;
  model.relative_tail = 0.9;  // supports shrink; wing clips start later
  const EventClassifier classifier(model);
  const double cache_limit = 0.9 * model.min_y / density_at(model, model.cache_radius);
  CHECK(classifier.classify(cache_limit * kJustBelow).event_class == EventClass::cache);
  CHECK(classifier.classify(cache_limit * kJustAbove).event_class == EventClass::wing_clip);
}

TEST_CASE("classify_event follows a change of model") {
  PsfModel narrow;
  PsfModel wide;
  wide.fwhm = 5.0;
  wide.cache_radius = 8;
  const double flux = 0.05;
  for (int round = 0; round < 3; ++round) {
    CHECK(classify_event(flux, narrow).support == EventClassifier(narrow).classify(flux).support);
    CHECK(classify_event(flux, wide).support == EventClassifier(wide).classify(flux).support);
  }
  CHECK(classify_event(flux, narrow).support != classify_event(flux, wide).support);
}

TEST_CASE("stream classes: direct iff the support exceeds the cache radius") {
  const PsfModel model;
  StarEvent event{10, 10, 1, 1, 1, 1.0, 16.0};
  CHECK(stream_event_class(event, model) == EventClass::cache);
  event.support = std::nextafter(16.0, 17.0);
  CHECK(stream_event_class(event, model) == EventClass::direct);
  event.support = 0.5;
  CHECK(stream_event_class(event, model) == EventClass::cache);
  CHECK(std::string(event_class_name(EventClass::wing_clip)) == "wing_clip");
  CHECK(std::string(event_class_name(EventClass::discarded)) == "discarded");
}

}  // namespace
}  // namespace starlens
