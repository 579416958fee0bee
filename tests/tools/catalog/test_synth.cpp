// The synthetic Milky Way: deterministic per seed and block, its density contrast between
// the galactic centre and the poles, 2MASS-like counts per magnitude, plausible
// temperatures, and PSC rows that the 2MASS reader parses back to the same stars.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <numbers>

#include "psc_format.h"
#include "sky/frames.h"
#include "synth_sampler.h"
#include "twomass_psc.h"

namespace starlens::catalog {
namespace {

const SynthSampler& sampler() {
  static const SynthSampler instance;
  return instance;
}

std::vector<SynthStar> stars_of(std::uint64_t seed, std::uint64_t blocks) {
  std::vector<SynthStar> all, block_stars;
  for (std::uint64_t block = 0; block < blocks; ++block) {
    sampler().generate(seed, block, SynthSampler::kBlockStars, block_stars);
    all.insert(all.end(), block_stars.begin(), block_stars.end());
  }
  return all;
}

// Galactic latitude and angle from the galactic centre (degrees) of an ICRS position,
// through the IAU rotation (common/sky), independently of the sampler's own galactic values.
std::array<double, 2> galactic_latitude_and_centre_distance(double ra_deg, double dec_deg) {
  const Vec3 galactic =
      icrs_to_galactic(unit_vector_from_angles(ra_deg * kDegree, dec_deg * kDegree));
  return {std::asin(std::clamp(galactic[2], -1.0, 1.0)) / kDegree,
          std::acos(std::clamp(galactic[0], -1.0, 1.0)) / kDegree};
}

}  // namespace

TEST_CASE("synth: a block depends only on the seed and its index") {
  std::vector<SynthStar> a, b, c;
  sampler().generate(42, 7, 5000, a);
  sampler().generate(42, 7, 5000, b);
  sampler().generate(43, 7, 5000, c);
  REQUIRE(a.size() == 5000);
  bool identical = true, different = false;
  for (std::size_t i = 0; i < a.size(); ++i) {
    identical = identical && a[i].ra_deg == b[i].ra_deg && a[i].dec_deg == b[i].dec_deg &&
                a[i].ks == b[i].ks && a[i].teff_k == b[i].teff_k;
    different = different || a[i].ra_deg != c[i].ra_deg;
  }
  CHECK(identical);
  CHECK(different);
  // A shorter request gives the same first stars.
  sampler().generate(42, 7, 100, b);
  CHECK(b.size() == 100);
  CHECK(b[99].ra_deg == a[99].ra_deg);
  // A slice starting inside the block gives the same stars as the whole block there.
  sampler().generate(42, 7, 3000, b, 2500);
  REQUIRE(b.size() == 500);
  CHECK(b.front().ra_deg == a[2500].ra_deg);
  CHECK(b.back().ks == a[2999].ks);
}

TEST_CASE("synth: density within 5 deg of the galactic centre is 50-100x the polar density") {
  const auto stars = stars_of(1, 8);  // 524,288 stars
  std::uint64_t centre = 0, poles = 0;
  for (const auto& star : stars) {
    const auto [latitude, centre_distance] =
        galactic_latitude_and_centre_distance(star.ra_deg, star.dec_deg);
    if (centre_distance < 5.0) ++centre;
    if (std::fabs(latitude) > 70.0) ++poles;
  }
  // Solid angles: a 5 deg cap, and both caps above |b| = 70 deg.
  const double centre_area = 2 * std::numbers::pi * (1 - std::cos(5 * kDegree));
  const double pole_area = 2 * 2 * std::numbers::pi * (1 - std::sin(70 * kDegree));
  const double contrast = (centre / centre_area) / (poles / pole_area);
  MESSAGE("centre " << centre << " stars, poles " << poles << " stars, contrast " << contrast
                    << " (model " << sampler().expected_centre_pole_contrast() << ")");
  CHECK(contrast > 50);
  CHECK(contrast < 100);
  CHECK(poles > 1000);  // enough stars for the ratio to mean something (relative error < 4%)
}

TEST_CASE("synth: counts per magnitude rise like 2MASS's and turn over at the Ks limit") {
  const auto stars = stars_of(2, 8);
  std::map<int, std::uint64_t> per_half_magnitude;
  for (const auto& star : stars) ++per_half_magnitude[static_cast<int>(std::floor(2 * star.ks))];
  auto count = [&](double ks) {
    return static_cast<double>(per_half_magnitude[static_cast<int>(std::floor(2 * ks))]);
  };
  // Slope of log10 N(m) per magnitude between Ks 8 and 13 (2MASS: about 0.3 to 0.4 over
  // the sky).
  const double slope = (std::log10(count(13.0)) - std::log10(count(8.0))) / 5.0;
  MESSAGE("log10 counts slope (Ks 8 -> 13): " << slope);
  for (auto [half, n] : per_half_magnitude) MESSAGE("Ks " << half / 2.0 << ": " << n);
  CHECK(slope > 0.25);
  CHECK(slope < 0.45);
  // Complete to Ks ~ 14.3, then the counts fall.
  CHECK(count(14.6) < 0.5 * count(13.6));
  CHECK(count(15.5) < 0.01 * count(13.6));
  const int brightest = per_half_magnitude.begin()->first;
  CHECK(brightest / 2.0 < 4.0);  // the sky's bright stars are there too
}

TEST_CASE("synth: temperatures and colours are plausible") {
  const auto stars = stars_of(3, 2);
  std::vector<double> temperatures;
  std::uint64_t reddened = 0;
  for (const auto& star : stars) {
    temperatures.push_back(star.teff_k);
    CHECK(star.teff_k >= 2000);
    CHECK(star.teff_k <= 50000);
    if (star.j - star.ks > 1.0) ++reddened;
  }
  std::sort(temperatures.begin(), temperatures.end());
  const double median = temperatures[temperatures.size() / 2];
  MESSAGE("median temperature " << median << " K; J-Ks > 1: " << reddened);
  CHECK(median > 3500);
  CHECK(median < 6500);
  CHECK(temperatures[temperatures.size() / 100] < 3600);       // M dwarfs and cool giants
  CHECK(temperatures[temperatures.size() * 99 / 100] > 7000);  // a tail of hot stars
}

TEST_CASE("synth: PSC rows parse back to the same stars") {
  std::vector<SynthStar> stars;
  sampler().generate(9, 0, 3000, stars);
  std::uint64_t upper_limits = 0;
  for (std::size_t i = 0; i < stars.size(); ++i) {
    std::string text;
    append_psc_row(text, stars[i], i + 1);
    REQUIRE(text.back() == '\n');
    text.pop_back();
    PscRow row;
    std::string detail;
    REQUIRE_MESSAGE(parse_psc_row(text, row, detail).empty(), detail << ": " << text);
    CHECK(std::fabs(row.ra_deg - stars[i].ra_deg) <= 5e-7);
    CHECK(std::fabs(row.dec_deg - stars[i].dec_deg) <= 5e-7);
    const double magnitudes[3] = {stars[i].j, stars[i].h, stars[i].ks};
    for (int band = 0; band < 3; ++band) {
      if (row.quality[static_cast<std::size_t>(band)] == 'U') {
        ++upper_limits;
        CHECK(magnitudes[band] > kPscLimit[band] + 0.6);
      } else {
        CHECK(std::fabs(row.mag[static_cast<std::size_t>(band)] - magnitudes[band]) <= 5e-4);
      }
    }
  }
  CHECK(upper_limits > 0);
  CHECK(psc_quality(2, 10.0) == 'A');
  CHECK(psc_quality(2, 14.2) == 'C');
  CHECK(psc_quality(2, 14.5) == 'D');
  CHECK(psc_quality(2, 14.8) == 'E');
  CHECK(psc_quality(2, 15.0) == 'U');
}

}  // namespace starlens::catalog
