#include "spacetime/carlson.h"

#include <gsl/gsl_errno.h>
#include <gsl/gsl_sf_ellint.h>

#include <limits>

namespace starlens::carlson {

double rf(double x, double y, double z) {
  // GSL's default error handler aborts; its status codes are checked instead.
  static const bool handler_off = (gsl_set_error_handler_off(), true);
  (void)handler_off;
  gsl_sf_result result;
  if (gsl_sf_ellint_RF_e(x, y, z, GSL_PREC_DOUBLE, &result) != GSL_SUCCESS)
    return std::numeric_limits<double>::quiet_NaN();
  return result.val;
}

}  // namespace starlens::carlson
