// Photometry against the published relations written out independently, and the order
// choice against a brute-force search.
#include <doctest/doctest.h>

#include <cmath>
#include <numbers>

#include "catalog/photometry.h"
#include "catalog/sky_cells.h"
#include "core/errors.h"

namespace starlens::catalog {
namespace {

// Hotter for bluer colours, over the relation's whole validity range, in steps of 0.01.
void check_hotter_when_bluer(const ColourTemperatureRelation& relation) {
  double previous = 1e9;
  for (double c = relation.colour_min; c <= relation.colour_max; c += 0.01) {
    const double t = relation.temperature_k(c);
    CHECK(t < previous);
    previous = t;
  }
}

}  // namespace

TEST_CASE("photometry: zero points and magnitudes") {
  const Band& v = band_by_name("V", "--band");
  CHECK(v.zero_point_jy == 3640.0);
  CHECK(v.wavelength_um == 0.551);
  CHECK(flux_density_jy(v, 0.0) == doctest::Approx(3640.0).epsilon(1e-15));
  CHECK(flux_density_jy(v, 5.0) == doctest::Approx(36.40).epsilon(1e-14));  // 5 mag = factor 100
  CHECK(flux_density_jy(band_by_name("J", "b"), 2.5) == doctest::Approx(159.4).epsilon(1e-14));
  CHECK(band_by_name("H", "b").zero_point_jy == 1024.0);
  CHECK(band_by_name("Ks", "b").zero_point_jy == 666.7);
  for (double m : {-1.46, 0.0, 7.3, 15.9})
    CHECK(
        magnitude_from_flux(band_by_name("Ks", "b"), flux_density_jy(band_by_name("Ks", "b"), m)) ==
        doctest::Approx(m).epsilon(1e-12));
  CHECK_THROWS_AS(band_by_name("K", "--band"), InputError);
  CHECK_THROWS_WITH(band_by_name("R", "--band"), doctest::Contains("known: V, J, H, Ks, G"));
}

TEST_CASE("photometry: Ballesteros 2012 B-V and Casagrande 2010 J-Ks, clamped and counted") {
  TemperatureCounts counts;
  const auto& ballesteros = ballesteros2012_b_v();
  // The Sun, B-V = 0.65: 4600 (1/2.298 + 1/1.218) = 5778.4 K.
  CHECK(temperature_from_colour(ballesteros, 0.65, counts) ==
        doctest::Approx(4600.0 * (1 / (0.92 * 0.65 + 1.7) + 1 / (0.92 * 0.65 + 0.62)))
            .epsilon(1e-14));
  CHECK(temperature_from_colour(ballesteros, 0.65, counts) ==
        doctest::Approx(5778.4).epsilon(1e-4));
  CHECK(counts.from_colour == 2);
  const double blue_end = temperature_from_colour(ballesteros, -0.4, counts);
  CHECK(temperature_from_colour(ballesteros, -0.5, counts) == blue_end);
  CHECK(counts.clamped_blue == 1);
  CHECK(temperature_from_colour(ballesteros, 3.0, counts) ==
        temperature_from_colour(ballesteros, 2.0, counts));
  CHECK(counts.clamped_red == 1);

  const auto& casagrande = casagrande2010_j_ks();
  // CATALOG_FORMATS.md: X = 0.36 gives about 5790 K.
  CHECK(temperature_from_colour(casagrande, 0.36, counts) == doctest::Approx(5790).epsilon(2e-3));
  const double x = 0.5;
  const double theta = 0.6393 + 0.6104 * x + 0.0920 * x * x - 0.0330 * x * x * x +
                       0.0291 * x * x * x * x + 0.0020 * x * x * x * x * x;
  CHECK(temperature_from_colour(casagrande, x, counts) ==
        doctest::Approx(5040 / theta).epsilon(1e-14));
  CHECK(temperature_from_colour(casagrande, 1.2, counts) ==
        temperature_from_colour(casagrande, 0.80, counts));
  CHECK(temperature_from_colour(casagrande, 0.0, counts) ==
        temperature_from_colour(casagrande, 0.07, counts));
  CHECK(temperature_from_colour(casagrande, std::nan(""), counts) == kDefaultTemperatureK);
  CHECK(counts.without_colour == 1);
  check_hotter_when_bluer(casagrande);
}

TEST_CASE(
    "photometry: Gaia BP-RP temperatures (Mucciarelli et al. 2021) and G to V (Riello 2021)") {
  TemperatureCounts counts;
  const auto& mucciarelli = mucciarelli2021_bp_rp();
  CHECK(mucciarelli.colour == "BP-RP");
  CHECK(mucciarelli.colour_min == 0.39);
  CHECK(mucciarelli.colour_max == 1.50);
  // Table 1, dwarfs, (BP-RP)0 at [Fe/H] = 0: theta = 0.4929 + 0.5092 C - 0.0353 C^2.
  for (const double c : {0.39, 0.6, 0.82, 1.0, 1.5}) {
    const double theta = 0.4929 + 0.5092 * c - 0.0353 * c * c;
    CHECK(temperature_from_colour(mucciarelli, c, counts) ==
          doctest::Approx(5040.0 / theta).epsilon(1e-14));
  }
  CHECK(counts.from_colour == 5);
  // The Sun, (BP-RP)0 = 0.82 (Casagrande & VandenBerg 2018), Teff 5772 K (IAU 2015 B3): within
  // two of the relation's 61 K sigma.
  CHECK(std::fabs(temperature_from_colour(mucciarelli, 0.82, counts) - 5772.0) < 122.0);
  CHECK(temperature_from_colour(mucciarelli, 0.2, counts) == mucciarelli.temperature_k(0.39));
  CHECK(temperature_from_colour(mucciarelli, 3.0, counts) == mucciarelli.temperature_k(1.50));
  CHECK(counts.clamped_blue == 1);
  CHECK(counts.clamped_red == 1);
  check_hotter_when_bluer(mucciarelli);

  // Riello et al. 2021, table C.2: G - V = -0.02704 + 0.01424 C - 0.2156 C^2 + 0.01426 C^3.
  GaiaGvCounts gv;
  CHECK(gaia_g_minus_v(0.0) == -0.02704);
  for (const double c : {-0.5, 0.0, 0.82, 2.0, 5.0}) {
    const double g_minus_v = -0.02704 + 0.01424 * c - 0.2156 * c * c + 0.01426 * c * c * c;
    CHECK(v_from_gaia_g(10.0, c, gv) == doctest::Approx(10.0 - g_minus_v).epsilon(1e-14));
  }
  CHECK(gv.converted == 5);
  // The Sun: G - V = -0.15 at BP-RP = 0.82 (G = -26.90, V = -26.76 in Casagrande & VandenBerg
  // 2018 give -0.14; the relation's scatter is 0.03 mag).
  CHECK(std::fabs(gaia_g_minus_v(0.82) + 0.14) < 0.03);
  CHECK(v_from_gaia_g(10.0, -0.9, gv) == v_from_gaia_g(10.0, -0.5, gv));
  CHECK(v_from_gaia_g(10.0, 7.0, gv) == v_from_gaia_g(10.0, 5.0, gv));
  CHECK(gv.clamped_blue == 1);
  CHECK(gv.clamped_red == 1);
  CHECK(gv.converted == 7);
  // Band G carries V's zero point and wavelength: its flux densities are V's.
  const Band& g = band_by_name("G", "--band");
  CHECK(g.zero_point_jy == 3640.0);
  CHECK(g.wavelength_um == 0.551);
}

TEST_CASE("cells: the automatic order is the one nearest 1000 stars per cell") {
  for (std::uint64_t n :
       {1ull, 100ull, 12000ull, 603418ull, 5000000ull, 100000000ull, 470992970ull, 1000000000ull}) {
    int best = 0;
    double best_distance = 1e300;
    for (int k = 0; k <= kMaxStoreOrder; ++k) {
      const double distance =
          std::fabs(std::log(static_cast<double>(n) / (12.0 * std::pow(4.0, k)) / 1000.0));
      if (distance < best_distance) {
        best_distance = distance;
        best = k;
      }
    }
    CHECK_MESSAGE(choose_order(n) == best, "n = " << n);
  }
  CHECK(choose_order(0) == 0);
  CHECK(choose_order(603418) == 3);
  CHECK(choose_order(470992970) == 8);
}

TEST_CASE("cells: keys are hierarchical NESTED indices") {
  // The cell of a key at order k is the ang2pix of the key's own centre at order k.
  const SkyCells cells(5);
  CHECK(cells.count() == 12 * 1024);
  CHECK(cells.cell_solid_angle_sr() * static_cast<double>(cells.count()) ==
        doctest::Approx(4 * std::numbers::pi));
  for (double ra : {0.0, 45.0, 123.456, 359.9999}) {
    for (double dec : {-89.99, -30.0, 0.0, 41.8, 89.999}) {
      const std::uint64_t key = sky_key(ra, dec);
      CHECK(cells.cell_of_key(key) == cells.cell_of(ra * kDegree, dec * kDegree));
      double centre_ra = 0, centre_dec = 0;
      key_centre_deg(key, centre_ra, centre_dec);
      CHECK(sky_key(centre_ra, centre_dec) == key);
      CHECK(std::fabs(centre_dec - dec) < 1e-6);
    }
  }
  CHECK_THROWS_AS(SkyCells(13), InputError);
  CHECK_THROWS_AS(SkyCells(-1), InputError);
}

TEST_CASE("cells: disc and polygon queries contain the cells of points inside them") {
  const SkyCells cells(6);
  const Vec3 centre = normalized({0.3, -0.5, 0.8});
  const auto disc = cells.cells_in_disc(centre, 2 * kDegree);
  CHECK(!disc.empty());
  const Vec3 a = normalized({1, 0, 0.1}), b = normalized({1, 0.1, 0.1}),
             c = normalized({1, 0.05, 0.2});
  const auto triangle = cells.cells_in_polygon({a, b, c});
  auto contains = [](const std::vector<std::uint64_t>& list, std::uint64_t cell) {
    return std::find(list.begin(), list.end(), cell) != list.end();
  };
  for (double u = 0; u <= 1; u += 0.1)
    for (double v = 0; u + v <= 1; v += 0.1) {
      const double w = 1 - u - v;
      const Vec3 p = normalized({u * a[0] + v * b[0] + w * c[0], u * a[1] + v * b[1] + w * c[1],
                                 u * a[2] + v * b[2] + w * c[2]});
      CHECK(contains(triangle, cells.cell_of(p)));
    }
  CHECK(contains(disc, cells.cell_of(centre)));
}

}  // namespace starlens::catalog
