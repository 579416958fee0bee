#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>

#include "colour/linear_srgb.h"
#include "relative.h"

using namespace starlens;

namespace {
LinearRgb rgb_of_chromaticity(double x, double y) {
  return xyz_to_linear_srgb(x / y, 1.0, (1 - x - y) / y);
}
}  // namespace

TEST_CASE("the sRGB primaries map to unit channels and D65 to R = G = B = 1") {
  const LinearRgb red = rgb_of_chromaticity(0.64, 0.33);
  const LinearRgb green = rgb_of_chromaticity(0.30, 0.60);
  const LinearRgb blue = rgb_of_chromaticity(0.15, 0.06);
  CHECK(std::abs(red.g / red.r) < 1e-14);
  CHECK(std::abs(red.b / red.r) < 1e-14);
  CHECK(std::abs(green.r / green.g) < 1e-14);
  CHECK(std::abs(green.b / green.g) < 1e-14);
  CHECK(std::abs(blue.r / blue.b) < 1e-14);
  CHECK(std::abs(blue.g / blue.b) < 1e-14);
  const LinearRgb white = rgb_of_chromaticity(0.3127, 0.3290);
  CHECK(white.r == doctest::Approx(1.0).epsilon(1e-14));
  CHECK(white.g == doctest::Approx(1.0).epsilon(1e-14));
  CHECK(white.b == doctest::Approx(1.0).epsilon(1e-14));
  CHECK(luminance_of({1, 1, 1}) == doctest::Approx(1.0).epsilon(1e-15));
}

TEST_CASE("the matrices round to the ones printed in IEC 61966-2-1") {
  // The standard prints RGB -> XYZ rounded to 4 digits, and XYZ -> RGB as the 4-digit
  // inverse of that rounded matrix (hence its larger difference).
  const Matrix3 printed_to_xyz = {
      {{0.4124, 0.3576, 0.1805}, {0.2126, 0.7152, 0.0722}, {0.0193, 0.1192, 0.9505}}};
  const Matrix3 printed_to_rgb = {
      {{3.2406, -1.5372, -0.4986}, {-0.9689, 1.8758, 0.0415}, {0.0557, -0.2040, 1.0570}}};
  for (int i = 0; i < 3; ++i) {
    for (int j = 0; j < 3; ++j) {
      CHECK(std::abs(linear_srgb_to_xyz_matrix()[i][j] - printed_to_xyz[i][j]) <= 0.5e-4 + 1e-12);
      CHECK(std::abs(xyz_to_linear_srgb_matrix()[i][j] - printed_to_rgb[i][j]) <= 5e-4);
      double product = 0;
      for (int k = 0; k < 3; ++k) {
        product += xyz_to_linear_srgb_matrix()[i][k] * linear_srgb_to_xyz_matrix()[k][j];
      }
      CHECK(product == doctest::Approx(i == j ? 1.0 : 0.0).epsilon(1e-14).scale(1.0));
    }
  }
}

TEST_CASE("in-gamut colours are left alone") {
  for (const LinearRgb c : {LinearRgb{1, 1, 1}, LinearRgb{0, 1.2, 0.3}, LinearRgb{4, 0, 0}}) {
    const LinearRgb d = desaturate_into_gamut(c);
    CHECK(d.r == c.r);
    CHECK(d.g == c.g);
    CHECK(d.b == c.b);
  }
}

TEST_CASE("out-of-gamut colours mix with their own grey just until no channel is negative") {
  for (const LinearRgb c : {LinearRgb{4.5, 0.1, -0.3}, LinearRgb{-0.2, 1.3, 0.5},
                            LinearRgb{0.7, -0.05, 3.0}, LinearRgb{-1, -0.5, 30}}) {
    const double y = luminance_of(c);
    REQUIRE(y > 0);
    const LinearRgb d = desaturate_into_gamut(c);
    CHECK(luminance_of(d) == relative(y, 1e-14));
    CHECK(std::min({d.r, d.g, d.b}) == doctest::Approx(0.0).scale(1.0).epsilon(1e-14));
    CHECK(std::min({d.r, d.g, d.b}) >= 0.0);
    // d = c + s (Y - c) for one s in (0, 1): the same s from every channel.
    const double s_r = (d.r - c.r) / (y - c.r);
    const double s_g = (d.g - c.g) / (y - c.g);
    const double s_b = (d.b - c.b) / (y - c.b);
    CHECK(s_r > 0);
    CHECK(s_r < 1);
    CHECK(s_g == relative(s_r, 1e-12));
    CHECK(s_b == relative(s_r, 1e-12));
    // Minimal: a slightly smaller mix leaves a channel negative.
    const double less = s_r * (1 - 1e-9);
    CHECK(std::min({c.r + less * (y - c.r), c.g + less * (y - c.g), c.b + less * (y - c.b)}) < 0);
  }
  const LinearRgb no_light = desaturate_into_gamut({1.0, -2.0, 0.1});
  CHECK(no_light.r == 0.0);
  CHECK(no_light.g == 0.0);
  CHECK(no_light.b == 0.0);
}
