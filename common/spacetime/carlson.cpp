#include "spacetime/carlson.h"

#include <gsl/gsl_errno.h>
#include <gsl/gsl_sf_ellint.h>

#include <limits>

namespace starlens::carlson {

namespace {
// GSL's default error handler aborts; its status codes are checked instead.
const bool gsl_abort_disabled = [] {
  gsl_set_error_handler_off();
  return true;
}();
}  // namespace

double rf(double x, double y, double z) {
  (void)gsl_abort_disabled;
  gsl_sf_result result;
  if (gsl_sf_ellint_RF_e(x, y, z, GSL_PREC_DOUBLE, &result) != GSL_SUCCESS)
    return std::numeric_limits<double>::quiet_NaN();
  return result.val;
}

}  // namespace starlens::carlson
