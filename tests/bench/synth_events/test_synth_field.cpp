// Synthetic fields: positions, class shares, supports and colours checked against closed
// forms (Gaussian and uniform probabilities, the Moffat density of docs/design.md section 5).
#include <doctest/doctest.h>

#include <cmath>
#include <cstring>
#include <numbers>
#include <vector>

#include "core/errors.h"
#include "optics/event_class.h"
#include "optics/moffat.h"
#include "synth_field.h"

using namespace starlens;
using namespace starlens::synth;

namespace {

std::vector<StarEvent> draw(SyntheticField& field, std::size_t count) {
  std::vector<StarEvent> events(count);
  for (auto& event : events) event = field.next();
  return events;
}

FieldOptions options_for(Distribution distribution, std::uint64_t seed = 5) {
  FieldOptions options;
  options.distribution = distribution;
  options.width = 400;
  options.height = 300;
  options.seed = seed;
  return options;
}

bool within_binomial(double observed, double expected, std::size_t n, double sigmas = 5) {
  return std::abs(observed - expected) <= sigmas * std::sqrt(expected * (1 - expected) / n);
}

}  // namespace

TEST_CASE("the same seed gives the same events, another seed other events") {
  for (const auto distribution :
       {Distribution::uniform, Distribution::hotspot, Distribution::mixed}) {
    SyntheticField a(options_for(distribution, 9)), b(options_for(distribution, 9));
    SyntheticField c(options_for(distribution, 10));
    const auto ea = draw(a, 3000), eb = draw(b, 3000), ec = draw(c, 3000);
    CHECK(std::memcmp(ea.data(), eb.data(), ea.size() * sizeof(StarEvent)) == 0);
    CHECK(std::memcmp(ea.data(), ec.data(), ea.size() * sizeof(StarEvent)) != 0);
  }
}

TEST_CASE("uniform: corners first, then positions uniform over the whole frame") {
  SyntheticField field(options_for(Distribution::uniform));
  constexpr std::size_t kCount = 200000;
  const auto events = draw(field, kCount);
  CHECK(events[0].x == 0);
  CHECK(events[0].y == 0);
  CHECK(events[3].x == std::nextafter(400.0, 0.0));
  CHECK(events[3].y == std::nextafter(300.0, 0.0));
  // Shares of a 4 x 4 grid of cells, each 1/16 of the frame.
  std::vector<std::size_t> cells(16, 0);
  bool on_frame = true;
  for (const auto& e : events) {
    on_frame = on_frame && e.x >= 0 && e.x < 400 && e.y >= 0 && e.y < 300;
    if (on_frame) ++cells[std::size_t(e.y / 75) * 4 + std::size_t(e.x / 100)];
  }
  CHECK(on_frame);
  for (const std::size_t n : cells) CHECK(within_binomial(double(n) / kCount, 1.0 / 16, kCount));
}

TEST_CASE("hotspot: the share inside k sigma of the centre matches the mixture's closed form") {
  FieldOptions options = options_for(Distribution::hotspot);
  SyntheticField field(options);
  constexpr std::size_t kCount = 200000;
  const auto events = draw(field, kCount);
  const double sigma = options.hotspot_sigma * options.height;
  for (const double k : {1.0, 2.0, 3.0}) {
    CAPTURE(k);
    const double radius = k * sigma;
    std::size_t inside = 0;
    for (const auto& e : events) inside += std::hypot(e.x - 200, e.y - 150) < radius;
    // A 2-D Gaussian puts 1 - exp(-k^2/2) within k sigma; the uniform rest puts the disc's
    // share of the frame's area. (The Gaussian's mass off the frame is ~e^-50: none.)
    const double expected =
        options.hotspot_fraction * (1 - std::exp(-k * k / 2)) +
        (1 - options.hotspot_fraction) * std::numbers::pi * radius * radius / (400.0 * 300);
    CHECK(within_binomial(double(inside) / kCount, expected, kCount));
  }
}

TEST_CASE("every written event is visible, with the support docs/design.md section 5 defines") {
  for (const auto distribution : {Distribution::uniform, Distribution::mixed}) {
    FieldOptions options = options_for(distribution);
    SyntheticField field(options);
    const PsfModel& psf = options.psf;
    const Moffat moffat = moffat_from_fwhm(psf.fwhm, psf.beta);
    const double peak_pixel = moffat_rectangle_integral(moffat, -0.5, 0.5, -0.5, 0.5, 0);
    const double tail = psf.relative_tail * psf.min_y;
    std::size_t cache = 0, wing = 0, direct = 0;
    for (const auto& e : draw(field, 50000)) {
      REQUIRE(e.flux * peak_pixel >= psf.min_y);  // not below the visibility floor
      const double at_rc = e.flux * moffat_density(moffat, psf.cache_radius);
      if (e.support > psf.cache_radius) {
        ++direct;
        CHECK(at_rc > psf.min_y);
        if (e.support < psf.max_radius)
          CHECK(e.flux * moffat_density(moffat, e.support) == doctest::Approx(tail).epsilon(1e-9));
      } else if (e.support == psf.cache_radius && at_rc > tail * (1 + 1e-12)) {
        ++wing;  // R > Rc, wing at Rc invisible: clipped to Rc
        CHECK(at_rc <= psf.min_y);
      } else {
        ++cache;
        CHECK(e.flux * moffat_density(moffat, e.support) == doctest::Approx(tail).epsilon(1e-9));
      }
      CHECK(0.2126 * e.r + 0.7152 * e.g + 0.0722 * e.b == doctest::Approx(1).epsilon(1e-13));
    }
    const ClassCounts& counts = field.counts();
    CHECK(counts.cache == cache);
    CHECK(counts.wing_clip == wing);
    CHECK(counts.direct == direct);
    CHECK(counts.written() == 50000);
    CHECK(counts.drawn == counts.written() + counts.discarded);
    if (distribution == Distribution::mixed) {
      CHECK(direct >= 50000 / kMixedPeriod);
      CHECK(wing >= 50000 / kMixedPeriod);
    }
  }
}

TEST_CASE("regular fluxes follow the power law cut at the visibility floor") {
  FieldOptions options = options_for(Distribution::uniform);
  SyntheticField field(options);
  const auto events = draw(field, 200000);
  const FieldOptions& resolved = field.options();
  const double floor = field.thresholds().visibility_floor;
  CHECK(resolved.flux_min == doctest::Approx(0.8 * floor));
  // Written fluxes are the power law conditioned on F >= floor: the share above t is
  // (t^(1-a) - max^(1-a)) / (floor^(1-a) - max^(1-a)).
  const double e = 1 - resolved.flux_slope;
  for (const double t : {2 * floor, 10 * floor, 1000 * floor}) {
    std::size_t above = 0;
    for (const auto& event : events) above += event.flux >= t;
    const double expected = (std::pow(t, e) - std::pow(resolved.flux_max, e)) /
                            (std::pow(floor, e) - std::pow(resolved.flux_max, e));
    CHECK(within_binomial(double(above) / events.size(), expected, events.size()));
  }
  // The discarded share is the power law's mass below the floor.
  const double below = (std::pow(resolved.flux_min, e) - std::pow(floor, e)) /
                       (std::pow(resolved.flux_min, e) - std::pow(resolved.flux_max, e));
  const ClassCounts& counts = field.counts();
  CHECK(within_binomial(double(counts.discarded) / counts.drawn, below, counts.drawn));
}

TEST_CASE("bad options are input errors naming the flag") {
  auto message = [](FieldOptions options) -> std::string {
    try {
      SyntheticField field(options);
    } catch (const InputError& error) {
      return error.what();
    }
    return "(accepted)";
  };
  FieldOptions o = options_for(Distribution::uniform);
  o.width = 0;
  CHECK(message(o) == "--width: must be > 0");
  o = options_for(Distribution::uniform);
  o.psf.beta = 1;
  CHECK(message(o) == "--psf-beta: must be > 1");
  o = options_for(Distribution::uniform);
  o.psf.max_radius = 10;
  CHECK(message(o).rfind("--psf-max-radius: must be > --psf-cache-radius", 0) == 0);
  o = options_for(Distribution::uniform);
  o.flux_max = 1e-9;
  CHECK(message(o).rfind("--flux-max: must be > --flux-min", 0) == 0);
  o = options_for(Distribution::uniform);
  o.flux_min = 1e-12;
  o.flux_max = 1e-9;
  CHECK(message(o).rfind("--flux-max: almost every flux would fall below the visibility floor",
                         0) == 0);
  o = options_for(Distribution::mixed);
  o.flux_max = 0.01;
  CHECK(message(o).rfind("--flux-max: must exceed the direct threshold", 0) == 0);
  o = options_for(Distribution::uniform);
  o.psf.relative_tail = 2;
  CHECK(message(o) == "--psf-relative-tail: must be within (0, 1]");
  o = options_for(Distribution::hotspot);
  o.hotspot_fraction = 1.5;
  CHECK(message(o) == "--hotspot-fraction: must be within [0, 1]");
  o = options_for(Distribution::uniform);
  o.temperature_max = 1000;
  CHECK(message(o) == "--temperature-max: must be >= --temperature-min");
}
