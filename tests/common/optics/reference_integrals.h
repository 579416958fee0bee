#pragma once
// Independent references for the PSF tests: they share nothing with common/optics but the
// Moffat formula itself. Pixel integrals are Cartesian: an adaptive GSL quadrature (cquad)
// over columns integrated by Gauss-Legendre, or a tensor Gauss-Legendre rule, in long
// double; enclosed fractions of regions are one-dimensional GSL integrals in the angle.
#include <gsl/gsl_errno.h>
#include <gsl/gsl_integration.h>

#include <algorithm>
#include <cmath>
#include <functional>
#include <numbers>
#include <stdexcept>
#include <vector>

namespace starlens::reference {

struct MoffatParameters {
  long double alpha;
  long double beta;
};

inline MoffatParameters from_fwhm(double fwhm, double beta) {
  // p(fwhm/2) = p(0)/2  <=>  (1 + (fwhm/2)^2/alpha^2)^beta = 2.
  const long double b = beta;
  return {static_cast<long double>(fwhm) / 2 / std::sqrt(std::pow(2.0L, 1 / b) - 1), b};
}

inline long double density(const MoffatParameters& m, long double r_sq) {
  const long double pi = std::numbers::pi_v<long double>;
  return (m.beta - 1) / (pi * m.alpha * m.alpha) *
         std::pow(1 + r_sq / (m.alpha * m.alpha), -m.beta);
}

inline long double enclosed(const MoffatParameters& m, long double r) {
  return 1 - std::pow(1 + r * r / (m.alpha * m.alpha), 1 - m.beta);
}

// GSL adaptive integral (cquad, doubly adaptive, copes with endpoint singularities) of f
// over [a, b], split at the given interior points.
class Cquad {
 public:
  // GSL aborts on a missed tolerance by default; the tests judge the results themselves.
  Cquad() : workspace_(gsl_integration_cquad_workspace_alloc(200)) { gsl_set_error_handler_off(); }
  ~Cquad() { gsl_integration_cquad_workspace_free(workspace_); }
  Cquad(const Cquad&) = delete;
  Cquad& operator=(const Cquad&) = delete;

  double integrate(const std::function<double(double)>& f, double a, double b,
                   std::vector<double> splits = {}, double relative = 1e-14) {
    splits.push_back(a);
    splits.push_back(b);
    std::sort(splits.begin(), splits.end());
    double total = 0;
    for (std::size_t i = 0; i + 1 < splits.size(); ++i) {
      const double lo = std::max(a, splits[i]);
      const double hi = std::min(b, splits[i + 1]);
      if (!(hi > lo)) continue;
      gsl_function g;
      g.function = [](double x, void* p) {
        return (*static_cast<const std::function<double(double)>*>(p))(x);
      };
      g.params = const_cast<std::function<double(double)>*>(&f);
      double result = 0, error = 0;
      std::size_t evaluations = 0;
      gsl_integration_cquad(&g, lo, hi, 0.0, relative, workspace_, &result, &error, &evaluations);
      total += result;
    }
    return total;
  }

 private:
  gsl_integration_cquad_workspace* workspace_;
};

// Gauss-Legendre (GSL's tabulated rule) of the density along the column x over [lo, hi],
// split at y = 0, in long double. The column integrand is analytic (its singularities are at
// y = +-i sqrt(alpha^2 + x^2)), so a 32-point rule is exact to rounding on a unit pixel.
inline long double column_integral(const MoffatParameters& m,
                                   const gsl_integration_glfixed_table* table, double x, double lo,
                                   double hi) {
  long double total = 0;
  const double pieces[2][2] = {{lo, std::min(hi, 0.0)}, {std::max(lo, 0.0), hi}};
  for (const auto& piece : pieces) {
    if (!(piece[1] > piece[0])) continue;
    for (std::size_t i = 0; i < table->n; ++i) {
      double y = 0, w = 0;
      gsl_integration_glfixed_point(piece[0], piece[1], i, &y, &w, table);
      total += w * density(m, (long double)x * x + (long double)y * y);
    }
  }
  return total;
}

// Integral of the density over [x0,x1] x [y0,y1] intersected with the disc of radius clip
// (clip <= 0: none) in Cartesian coordinates, columns inside a Gauss-Legendre rule in x.
// The x range is split where the column limits change form (x = 0, +-clip and where the
// circle crosses y = y0, y = y1). Where the circle bounds the columns, x = +-(clip - s^2)
// turns the column length s sqrt(2 clip - s^2) into an analytic function of s, so the
// square-root turn of the circle costs no accuracy.
inline double rectangle_integral_nested(const MoffatParameters& m, double x0, double x1, double y0,
                                        double y1, double clip) {
  gsl_integration_glfixed_table* column_rule = gsl_integration_glfixed_table_alloc(32);
  gsl_integration_glfixed_table* outer_rule = gsl_integration_glfixed_table_alloc(64);
  const long double c = clip;
  // Half-length of the disc's chord at x, from s^2 = c - |x| where that is known exactly.
  auto chord_half = [&](long double s) { return s * std::sqrt(2 * c - s * s); };
  auto column = [&](double x, long double half) {
    const double lo = clip > 0 ? std::max(y0, double(-half)) : y0;
    const double hi = clip > 0 ? std::min(y1, double(half)) : y1;
    if (!(hi > lo)) return 0.0L;
    return column_integral(m, column_rule, x, lo, hi);
  };
  std::vector<double> splits = {x0, x1, 0.0};
  if (clip > 0) {
    splits.push_back(clip);
    splits.push_back(-clip);
    for (double y : {y0, y1}) {
      if (std::fabs(y) < clip) {
        const double h = double(std::sqrt((c - y) * (c + y)));
        splits.push_back(h);
        splits.push_back(-h);
      }
    }
  }
  std::sort(splits.begin(), splits.end());
  long double total = 0;
  for (std::size_t k = 0; k + 1 < splits.size(); ++k) {
    const double a = std::max(x0, splits[k]), b = std::min(x1, splits[k + 1]);
    if (!(b > a)) continue;
    const double mid = 0.5 * (a + b);
    const bool circle_bounds =
        clip > 0 && (std::fabs(mid) >= clip || chord_half(std::sqrt(c - std::fabs(mid))) <
                                                   std::max(std::fabs(y0), std::fabs(y1)));
    for (std::size_t i = 0; i < outer_rule->n; ++i) {
      double t = 0, w = 0;
      if (!circle_bounds) {
        gsl_integration_glfixed_point(a, b, i, &t, &w, outer_rule);
        total += w * column(t, c);
        continue;
      }
      if (std::fabs(mid) >= clip) continue;  // outside the disc
      // x = sign * (c - s^2), s between sqrt(c - |a|) and sqrt(c - |b|).
      const double sign = mid > 0 ? 1.0 : -1.0;
      const long double s_a = std::sqrt(std::max(0.0L, c - std::fabs((long double)a)));
      const long double s_b = std::sqrt(std::max(0.0L, c - std::fabs((long double)b)));
      gsl_integration_glfixed_point(double(std::min(s_a, s_b)), double(std::max(s_a, s_b)), i, &t,
                                    &w, outer_rule);
      const long double s = t;
      total += w * 2 * s * column(double(sign * (c - s * s)), chord_half(s));
    }
  }
  gsl_integration_glfixed_table_free(outer_rule);
  gsl_integration_glfixed_table_free(column_rule);
  return double(total);
}

// Tensor Gauss-Legendre (GSL's tabulated 128-point rule) with the integrand and sums in long
// double; for unclipped rectangles only (the integrand is analytic there). Each axis is split at 0.
inline long double rectangle_integral_gauss(const MoffatParameters& m, double x0, double x1,
                                            double y0, double y1, std::size_t order = 128) {
  gsl_integration_glfixed_table* table = gsl_integration_glfixed_table_alloc(order);
  auto segments = [](double a, double b) {
    std::vector<std::pair<double, double>> s;
    if (a < 0 && b > 0) {
      s = {{a, 0.0}, {0.0, b}};
    } else {
      s = {{a, b}};
    }
    return s;
  };
  long double total = 0;
  for (auto [xa, xb] : segments(x0, x1)) {
    for (auto [ya, yb] : segments(y0, y1)) {
      for (std::size_t i = 0; i < order; ++i) {
        double x = 0, wx = 0;
        gsl_integration_glfixed_point(xa, xb, i, &x, &wx, table);
        for (std::size_t j = 0; j < order; ++j) {
          double y = 0, wy = 0;
          gsl_integration_glfixed_point(ya, yb, j, &y, &wy, table);
          total += (long double)wx * wy * density(m, (long double)x * x + (long double)y * y);
        }
      }
    }
  }
  gsl_integration_glfixed_table_free(table);
  return total;
}

// Flux of a star at the origin inside the rectangle [x0,x1] x [y0,y1] that contains it,
// within radius `support`: (1/2pi) * integral over theta of E(min(support, exit distance)).
inline double enclosed_in_rectangle_polar(const MoffatParameters& m, double x0, double x1,
                                          double y0, double y1, double support) {
  if (!(x0 <= 0 && x1 >= 0 && y0 <= 0 && y1 >= 0)) throw std::logic_error("centre outside");
  const double pi = std::numbers::pi;
  auto exit_distance = [&](double theta) {
    const double c = std::cos(theta), s = std::sin(theta);
    double r = support;
    if (c > 0) r = std::min(r, x1 / c);
    if (c < 0) r = std::min(r, x0 / c);
    if (s > 0) r = std::min(r, y1 / s);
    if (s < 0) r = std::min(r, y0 / s);
    return r;
  };
  std::vector<double> splits;
  for (double x : {x0, x1}) {
    for (double y : {y0, y1}) {
      double a = std::atan2(y, x);
      if (a < 0) a += 2 * pi;
      splits.push_back(a);
    }
  }
  // Where the support circle crosses the edge lines.
  for (double x : {x0, x1}) {
    if (std::fabs(x) < support) {
      const double h = std::sqrt(support * support - x * x);
      for (double y : {h, -h}) splits.push_back(std::fmod(std::atan2(y, x) + 2 * pi, 2 * pi));
    }
  }
  for (double y : {y0, y1}) {
    if (std::fabs(y) < support) {
      const double h = std::sqrt(support * support - y * y);
      for (double x : {h, -h}) splits.push_back(std::fmod(std::atan2(y, x) + 2 * pi, 2 * pi));
    }
  }
  Cquad quad;
  return quad.integrate([&](double t) { return double(enclosed(m, exit_distance(t))); }, 0.0,
                        2 * pi, splits) /
         (2 * pi);
}

}  // namespace starlens::reference
