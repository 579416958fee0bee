#include "colour/blackbody_tristimulus.h"

#include <gsl/gsl_integration.h>

#include <cmath>
#include <memory>
#include <vector>

#include "colour/cie1931.h"
#include "colour/planck.h"

namespace starlens {
namespace {

constexpr double kMetresPerNanometre = 1e-9;
constexpr double kSecondRadiationConstantNmK = kSecondRadiationConstant / kMetresPerNanometre;

// One quadrature point: its wavelength and, per colour-matching function, the weight
// (Gauss-Legendre weight) * cmf(lambda) * lambda^-5 with lambda in nm.
struct QuadraturePoint {
  double wavelength_nm;
  double weight_x;
  double weight_y;
  double weight_z;
};

std::vector<QuadraturePoint> build_quadrature() {
  const std::unique_ptr<gsl_integration_glfixed_table,
                        decltype(&gsl_integration_glfixed_table_free)>
      table(gsl_integration_glfixed_table_alloc(kGaussLegendreOrder),
            &gsl_integration_glfixed_table_free);
  std::vector<QuadraturePoint> points;
  for (int interval = 0; interval + 1 < cie1931::kCieCount; ++interval) {
    const double low = cie_wavelength_nm(interval);
    const double high = cie_wavelength_nm(interval + 1);
    for (int i = 0; i < kGaussLegendreOrder; ++i) {
      double wavelength = 0;
      double weight = 0;
      gsl_integration_glfixed_point(low, high, static_cast<std::size_t>(i), &wavelength, &weight,
                                    table.get());
      const ColourMatch match = colour_match_at(wavelength);
      const double planck_weight = weight / std::pow(wavelength, 5);
      points.push_back({wavelength, planck_weight * match.x_bar, planck_weight * match.y_bar,
                        planck_weight * match.z_bar});
    }
  }
  return points;
}

const std::vector<QuadraturePoint>& quadrature() {
  static const std::vector<QuadraturePoint> points = build_quadrature();
  return points;
}

// ln of the factor that turns the sums (lambda in nm) into SI: 2 h c^2 times
// lambda^-5 d lambda in m^-4 = (1e-9)^-5 * 1e-9 = 1e36 times the same in nm^-4.
const double kLogRadianceFactor =
    std::log(2.0 * kPlanckConstant * kSpeedOfLight * kSpeedOfLight) + 36.0 * std::log(10.0);

}  // namespace

BlackbodyTristimulus blackbody_tristimulus(double temperature_k) {
  // B_lambda / (2 h c^2 lambda^-5) = 1 / (e^x - 1) = e^(-x) / (1 - e^(-x)); we sum
  // e^(x_min - x) / (1 - e^(-x)) and add -x_min to the logarithm afterwards.
  const double x_min = kSecondRadiationConstantNmK / (cie_last_nm() * temperature_k);
  double sum_x = 0, sum_y = 0, sum_z = 0;
  double slope_x = 0, slope_y = 0, slope_z = 0;
  for (const QuadraturePoint& point : quadrature()) {
    const double x = kSecondRadiationConstantNmK / (point.wavelength_nm * temperature_k);
    const double one_minus_exp = -std::expm1(-x);
    const double radiance = std::exp(x_min - x) / one_minus_exp;
    // d B / d ln T = B x / (1 - e^(-x)).
    const double radiance_slope = radiance * x / one_minus_exp;
    sum_x += radiance * point.weight_x;
    sum_y += radiance * point.weight_y;
    sum_z += radiance * point.weight_z;
    slope_x += radiance_slope * point.weight_x;
    slope_y += radiance_slope * point.weight_y;
    slope_z += radiance_slope * point.weight_z;
  }
  BlackbodyTristimulus result{};
  result.log_y = kLogRadianceFactor + std::log(sum_y) - x_min;
  result.x_over_y = sum_x / sum_y;
  result.z_over_y = sum_z / sum_y;
  result.dlog_y_dlog_t = slope_y / sum_y;
  // Quotient rule, written so that nothing is squared (no overflow at huge T).
  result.dx_over_y_dlog_t = (slope_x - result.x_over_y * slope_y) / sum_y;
  result.dz_over_y_dlog_t = (slope_z - result.z_over_y * slope_y) / sum_y;
  return result;
}

}  // namespace starlens
