#pragma once
// The escape azimuth of one observer radius as a function of psi alone (the map is
// axisymmetric about the hole), held as piecewise Chebyshev series fitted to the closed form
// (GSL's gsl_cheb) at the start of a run. Each piece is checked against the closed form between
// its nodes and split until it agrees to kRelativeTolerance; toward the critical angle, where
// the azimuth grows like -log(psi - psi_c), the pieces shrink geometrically. Rays within
// kClosedFormBand of the critical angle, and any piece that would not converge, use the closed
// form itself. A ray costs one series evaluation instead of a cubic's roots and an R_F.
#include <cstddef>
#include <memory>
#include <vector>

struct gsl_cheb_series_struct;

namespace starlens::schwarzschild {

class AzimuthSeries {
 public:
  struct FreeSeries {
    void operator()(gsl_cheb_series_struct* series) const;
  };
  // |series - closed form| allowed at a piece's check points, relative to max(1, |azimuth|),
  // besides the closed form's own rounding near the critical angle (see fit).
  static constexpr double kRelativeTolerance = 1e-13;
  // Angles above the critical angle below which the closed form is evaluated per ray.
  static constexpr double kClosedFormBand = 1e-9;
  static constexpr std::size_t kOrder = 10;

  // Requires r_obs > 3.
  explicit AzimuthSeries(double r_obs);
  AzimuthSeries(const AzimuthSeries&) = delete;
  AzimuthSeries& operator=(const AzimuthSeries&) = delete;

  // escape_azimuth(r_obs, psi) for an escaping ray.
  double azimuth(double psi) const;
  // The azimuth and its derivative d(phi)/d(psi) together (one piece search): the derivative
  // is the exact derivative of the piece's series (gsl_cheb_calc_deriv), or, on pieces left to
  // the closed form and those whose derivative failed its check, a Richardson-extrapolated
  // central difference of the closed form (closed_form_derivative).
  void azimuth_and_derivative(double psi, double& azimuth, double& derivative) const;
  // The azimuth and its first two derivatives at psi from one piece search, and the piece, for
  // slope_near: curvature is NaN where the piece has no derivative series (the closed form's
  // difference is used for the slope there).
  struct Local {
    double azimuth, slope, curvature;
    std::size_t piece;
  };
  Local local(double psi) const;
  // d(phi)/d(psi) at psi from the series of `piece` (psi near it: a series evaluated a little
  // outside its interval stays accurate), or from the closed form where it has none.
  double slope_near(std::size_t piece, double psi) const;
  // The worst relative disagreement of the series' derivatives with closed_form_derivative
  // over the pieces' check points (those that passed it).
  double worst_derivative_error() const { return worst_derivative_error_; }
  // Pieces whose derivative is the closed form's difference quotient.
  std::size_t derivative_fallback_pieces() const { return derivative_fallbacks_; }

  std::size_t piece_count() const { return pieces_.size(); }
  // The worst disagreement with the closed form over all check points, in units of the
  // tolerance (<= 1).
  double worst_check_error() const { return worst_check_error_; }
  // Pieces (radians of psi) left to the closed form because they did not converge.
  double closed_form_width() const { return closed_form_width_; }

 private:
  void fit(double low, double high, int depth, double parent_error);

  double r_obs_;
  double critical_;
  std::vector<double> piece_low_;  // ascending, for the search
  // Per piece, its series; null where the closed form is used.
  std::vector<std::unique_ptr<gsl_cheb_series_struct, FreeSeries>> pieces_;
  // Per piece, the derivative of its series; null where closed_form_derivative is used.
  std::vector<std::unique_ptr<gsl_cheb_series_struct, FreeSeries>> derivatives_;
  // And of the derivative's series (the azimuth's second derivative), where it has one.
  std::vector<std::unique_ptr<gsl_cheb_series_struct, FreeSeries>> curvatures_;
  double worst_derivative_error_ = 0;
  std::size_t derivative_fallbacks_ = 0;
  double worst_check_error_ = 0;
  double closed_form_width_ = 0;
  int fits_ = 0;
};

// d(escape_azimuth)/d(psi) from the closed form alone: the sixth-order central difference
// (45 (f1 - f-1) - 9 (f2 - f-2) + (f3 - f-3)) / 60h with h a fiftieth of the distance x to the
// critical angle (the azimuth's scale there: -log x), at most 1e-3, and the sixth-order
// backward difference next to pi; relative error ~5 (h/x)^6 ~ 3e-10 from truncation, plus the
// closed form's rounding over h (~1e-17 / x relative near the critical angle).
double closed_form_derivative(double r_obs, double psi);

}  // namespace starlens::schwarzschild
