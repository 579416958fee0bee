// The Moffat profile and its pixel integral against independent references: the defining
// property of alpha, a radial quadrature of the density, nested adaptive 2-D quadrature and
// long-double tensor Gauss-Legendre per pixel, closed forms for whole windows.
#include <doctest/doctest.h>

#include <cmath>
#include <numbers>
#include <random>

#include "optics/moffat.h"
#include "reference_integrals.h"

namespace starlens {
namespace {

double relative_error(double value, double reference) {
  return std::fabs(value - reference) / std::fabs(reference);
}

struct Shape {
  double fwhm;
  double beta;
};
constexpr Shape kShapes[] = {{2.0, 2.5}, {1.0, 1.5}, {3.5, 4.765}, {2.0, 2.0}};

TEST_CASE("alpha from the FWHM puts half the peak density at fwhm/2") {
  for (const Shape& s : kShapes) {
    const Moffat psf = moffat_from_fwhm(s.fwhm, s.beta);
    CHECK(relative_error(moffat_density(psf, s.fwhm / 2), moffat_density(psf, 0) / 2) < 1e-14);
    const reference::MoffatParameters ref = reference::from_fwhm(s.fwhm, s.beta);
    CHECK(relative_error(psf.alpha, double(ref.alpha)) < 1e-14);
  }
}

TEST_CASE("the enclosed fraction is the radial integral of the density") {
  reference::Cquad quad;
  for (const Shape& s : kShapes) {
    const Moffat psf = moffat_from_fwhm(s.fwhm, s.beta);
    for (double r : {1e-3, 0.5, 1.0, 3.0, 16.0, 256.0}) {
      const double radial = quad.integrate(
          [&](double t) { return 2 * std::numbers::pi * t * moffat_density(psf, t); }, 0, r);
      CHECK(relative_error(moffat_enclosed(psf, r), radial) < 1e-13);
    }
    // Near the centre E(r) ~ (beta-1) r^2/alpha^2 keeps its relative accuracy.
    const double r = 1e-6;
    const double small = (s.beta - 1) * r * r / (psf.alpha * psf.alpha);
    CHECK(relative_error(moffat_enclosed(psf, r), small) < 1e-10);
    CHECK(moffat_enclosed(psf, 0.0) == 0.0);
  }
}

struct PixelCase {
  double x0, y0;  // lower corner relative to the centre; the pixel is 1 x 1
  double clip;
};
// Centre inside, on an edge, on a corner, next to it, far in the wings, clipped.
constexpr PixelCase kPixels[] = {
    {-0.5, -0.5, 0},      {-0.3, -0.8, 0},     {0.0, 0.0, 0},       {-1.0, 0.0, 0},
    {0.0, -0.25, 0},      {-1e-9, -0.7, 0},    {-0.999, -0.001, 0}, {1e-7, 0.3, 0},
    {1.0, 0.0, 0},        {0.5, 0.5, 0},       {-2.25, 1.125, 0},   {9.5, 2.5, 0},
    {-50.3, 19.9, 0},     {199.5, -100.2, 0},  {255.3, -0.4, 0},    {-0.2, 40.0, 0},
    {2.5, 0.2, 3.0},      {15.7, -0.5, 16.0},  {-0.4, -0.6, 0.3},   {-0.1, -0.9, 0.5},
    {11.0, 11.0, 16.0},   {-12.3, 10.1, 16.0}, {0.6, 15.5, 16.0},   {180.2, 180.7, 256.0},
    {255.5, -0.5, 256.0}, {-0.5, -0.5, 0.5},   {1e-6, -1e-6, 1.0},  {0.0, 0.0, 0.7},
};

TEST_CASE("pixel integrals match nested Cartesian quadrature to 1e-12") {
  for (const Shape& s : kShapes) {
    const Moffat psf = moffat_from_fwhm(s.fwhm, s.beta);
    const reference::MoffatParameters ref = reference::from_fwhm(s.fwhm, s.beta);
    for (const PixelCase& c : kPixels) {
      const double value = moffat_rectangle_integral(psf, c.x0, c.x0 + 1, c.y0, c.y0 + 1, c.clip);
      const double expected =
          reference::rectangle_integral_nested(ref, c.x0, c.x0 + 1, c.y0, c.y0 + 1, c.clip);
      INFO("fwhm " << s.fwhm << " beta " << s.beta << " pixel (" << c.x0 << ", " << c.y0
                   << ") clip " << c.clip << ": " << value << " vs " << expected);
      CHECK(relative_error(value, expected) < 1e-12);
    }
  }
}

TEST_CASE("unclipped pixel integrals match long-double Gauss-Legendre to 1e-13") {
  for (const Shape& s : kShapes) {
    const Moffat psf = moffat_from_fwhm(s.fwhm, s.beta);
    const reference::MoffatParameters ref = reference::from_fwhm(s.fwhm, s.beta);
    for (const PixelCase& c : kPixels) {
      if (c.clip > 0) continue;
      const double value = moffat_rectangle_integral(psf, c.x0, c.x0 + 1, c.y0, c.y0 + 1, 0);
      const double expected =
          double(reference::rectangle_integral_gauss(ref, c.x0, c.x0 + 1, c.y0, c.y0 + 1));
      INFO("pixel (" << c.x0 << ", " << c.y0 << "): " << value << " vs " << expected);
      CHECK(relative_error(value, expected) < 1e-13);
    }
  }
}

TEST_CASE("random pixels and clips match nested Cartesian quadrature") {
  std::mt19937_64 random(20261129);
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  const Moffat psf = moffat_from_fwhm(2.0, 2.5);
  const reference::MoffatParameters ref = reference::from_fwhm(2.0, 2.5);
  double worst = 0;
  for (int trial = 0; trial < 200; ++trial) {
    // Distances from 1e-3 to 300 px, log-uniform; phases uniform; clips through the pixel.
    const double distance = std::exp(std::log(1e-3) + unit(random) * std::log(3e5));
    const double angle = 2 * std::numbers::pi * unit(random);
    const double x0 = distance * std::cos(angle) - unit(random);
    const double y0 = distance * std::sin(angle) - unit(random);
    const double centre = std::hypot(x0 + 0.5, y0 + 0.5);
    const double clip = trial % 2 == 0 ? 0.0 : std::max(0.05, centre + (unit(random) - 0.5));
    const double value = moffat_rectangle_integral(psf, x0, x0 + 1, y0, y0 + 1, clip);
    const double expected = reference::rectangle_integral_nested(ref, x0, x0 + 1, y0, y0 + 1, clip);
    INFO("pixel (" << x0 << ", " << y0 << ") clip " << clip << ": " << value << " vs " << expected);
    // A sliver cut off by the circle is ill-conditioned (its flux moves by ~1/width times
    // the rounding of its corner): judge it against the whole pixel's flux instead.
    const double whole = reference::rectangle_integral_nested(ref, x0, x0 + 1, y0, y0 + 1, 0);
    const double error = std::fabs(value - expected) / std::max(expected, 1e-2 * whole);
    CHECK(error < 1e-12);
    worst = std::max(worst, error);
  }
  MESSAGE("worst relative error over random pixels: " << worst);
}

TEST_CASE("a pixel holding the whole clip disc gets the enclosed fraction") {
  for (const Shape& s : kShapes) {
    const Moffat psf = moffat_from_fwhm(s.fwhm, s.beta);
    const reference::MoffatParameters ref = reference::from_fwhm(s.fwhm, s.beta);
    for (double clip : {0.05, 0.2, 0.45}) {
      const double value = moffat_rectangle_integral(psf, -0.5, 0.5, -0.47, 0.53, clip);
      CHECK(relative_error(value, double(reference::enclosed(ref, clip))) < 1e-14);
    }
  }
}

TEST_CASE("the four pixels around a centre on a pixel corner are equal quarters") {
  const Moffat psf = moffat_from_fwhm(2.0, 2.5);
  const reference::MoffatParameters ref = reference::from_fwhm(2.0, 2.5);
  // Closed form for the 2x2 block needs the polar reference of the square.
  const double block = reference::enclosed_in_rectangle_polar(ref, -1, 1, -1, 1, 1e9);
  for (double x0 : {-1.0, 0.0}) {
    for (double y0 : {-1.0, 0.0}) {
      CHECK(relative_error(moffat_rectangle_integral(psf, x0, x0 + 1, y0, y0 + 1, 0), block / 4) <
            1e-13);
    }
  }
}

TEST_CASE("degenerate rectangles and pixels beyond the clip circle are empty") {
  const Moffat psf = moffat_from_fwhm(2.0, 2.5);
  CHECK(moffat_rectangle_integral(psf, 1, 1, 0, 1, 0) == 0.0);
  CHECK(moffat_rectangle_integral(psf, 2, 1, 0, 1, 0) == 0.0);
  CHECK(moffat_rectangle_integral(psf, 0, 1, 0.5, 0.5, 0) == 0.0);
  CHECK(moffat_rectangle_integral(psf, 3, 4, 0, 1, 3.0) == 0.0);
  CHECK(moffat_rectangle_integral(psf, 3, 4, 3, 4, 4.2) == 0.0);  // corner at 4.24
  CHECK(moffat_rectangle_integral(psf, 0, 1, 0, 1, 0) > 0.0);
}

// Flux of the square [-L, L]^2 around the star for beta = 2 in closed form:
// (4/pi) k atan(k), k = L / sqrt(alpha^2 + L^2).
double square_flux_beta2(double alpha, double half_side) {
  const double k = half_side / std::sqrt(alpha * alpha + half_side * half_side);
  return 4 / std::numbers::pi * k * std::atan(k);
}

TEST_CASE("the pixels of a window sum to the window's flux") {
  SUBCASE("beta = 2, closed form, star on a pixel corner and on a pixel centre") {
    const Moffat psf = moffat_from_fwhm(2.0, 2.0);
    for (int half : {1, 4, 16, 64}) {
      double corner_sum = 0, centre_sum = 0;
      for (int j = -half; j < half; ++j) {
        for (int i = -half; i < half; ++i) {
          corner_sum += moffat_rectangle_integral(psf, i, i + 1, j, j + 1, 0);
        }
      }
      for (int j = -half; j <= half; ++j) {
        for (int i = -half; i <= half; ++i) {
          centre_sum += moffat_rectangle_integral(psf, i - 0.5, i + 0.5, j - 0.5, j + 0.5, 0);
        }
      }
      CHECK(relative_error(corner_sum, square_flux_beta2(psf.alpha, half)) < 1e-13);
      CHECK(relative_error(centre_sum, square_flux_beta2(psf.alpha, half + 0.5)) < 1e-13);
    }
  }
  SUBCASE("any beta, off-centre star, polar reference with the tail beyond the window") {
    for (const Shape& s : kShapes) {
      const Moffat psf = moffat_from_fwhm(s.fwhm, s.beta);
      const reference::MoffatParameters ref = reference::from_fwhm(s.fwhm, s.beta);
      const double cx = 0.37, cy = 0.81;  // star position in pixel (0, 0)
      const int half = 20;
      double sum = 0;
      for (int j = -half; j <= half; ++j) {
        for (int i = -half; i <= half; ++i) {
          sum += moffat_rectangle_integral(psf, i - cx, i + 1 - cx, j - cy, j + 1 - cy, 0);
        }
      }
      const double window = reference::enclosed_in_rectangle_polar(ref, -half - cx, half + 1 - cx,
                                                                   -half - cy, half + 1 - cy, 1e12);
      CHECK(relative_error(sum, window) < 1e-13);
      // The flux beyond the window lies between the tails beyond its inscribed and
      // circumscribed circles (closed form).
      const double inner = half - 0.81, outer = std::hypot(half + 0.63, half + 0.81);
      CHECK(1 - sum < 1 - moffat_enclosed(psf, inner));
      CHECK(1 - sum > 1 - moffat_enclosed(psf, outer));
    }
  }
}

}  // namespace
}  // namespace starlens
