#include "spacetime/carlson.h"

#include <boost/math/policies/policy.hpp>
#include <boost/math/special_functions/ellint_rc.hpp>
#include <boost/math/special_functions/ellint_rf.hpp>
#include <boost/math/special_functions/ellint_rj.hpp>
#include <cmath>
#include <limits>

namespace starlens::carlson {
namespace {

namespace policies = boost::math::policies;

// Errors give NaN (or infinity) instead of throwing; double stays double (Boost would otherwise
// evaluate in long double, at twice the cost, for an error that is already below 1e-15).
using Policy = policies::policy<policies::domain_error<policies::errno_on_error>,
                                policies::pole_error<policies::errno_on_error>,
                                policies::overflow_error<policies::errno_on_error>,
                                policies::evaluation_error<policies::errno_on_error>,
                                policies::promote_double<false>>;

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

bool proper(double x, double y, double z) {
  const int zeros = (x == 0) + (y == 0) + (z == 0);
  return x >= 0 && y >= 0 && z >= 0 && zeros <= 1 && std::isfinite(x + y + z);
}

double finite_or_nan(double value) {
  return std::isfinite(value) ? value : kNaN;
}

}  // namespace

double rf(double x, double y, double z) {
  if (!proper(x, y, z)) return kNaN;
  return finite_or_nan(boost::math::ellint_rf(x, y, z, Policy()));
}

double rj(double x, double y, double z, double p) {
  // Boost returns the principal value for p < 0; this function's contract leaves it to the caller.
  if (!proper(x, y, z) || !(p > 0) || !std::isfinite(p)) return kNaN;
  return finite_or_nan(boost::math::ellint_rj(x, y, z, p, Policy()));
}

double rc(double x, double y) {
  if (!(x >= 0) || !(y > 0) || !std::isfinite(x + y)) return kNaN;
  return finite_or_nan(boost::math::ellint_rc(x, y, Policy()));
}

}  // namespace starlens::carlson
