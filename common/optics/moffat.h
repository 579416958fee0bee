#pragma once
// The Moffat PSF p(r) = (beta-1)/(pi alpha^2) (1 + r^2/alpha^2)^-beta (docs/design.md section 5)
// and its integral over a pixel, exactly (to quadrature rounding) and optionally clipped to the
// event's circular support. Header-only and dependency-free: the GPU kernels call the same
// code, so CPU and GPU differ only in the order of additions.
#include "optics/host_device.h"

namespace starlens {

struct Moffat {
  double alpha;  // px
  double beta;   // > 1
};

// alpha from the full width at half maximum: alpha = fwhm / (2 sqrt(2^(1/beta) - 1)).
STARLENS_HOST_DEVICE Moffat moffat_from_fwhm(double fwhm, double beta);
// Surface density per px^2 at radius r.
STARLENS_HOST_DEVICE double moffat_density(const Moffat& psf, double r);
// Fraction of the flux within radius r: 1 - (1 + r^2/alpha^2)^(1-beta).
STARLENS_HOST_DEVICE double moffat_enclosed(const Moffat& psf, double r);

// Integral of the PSF centred at the origin over the rectangle [x0,x1] x [y0,y1] (px),
// intersected with the disc of radius `clip` around the centre (clip <= 0: no clipping).
// Exact in the radial direction (closed form of the enclosed fraction) and Gauss-Legendre in
// the angle between the breakpoints where the integrand's form changes; see
// docs/ACCURACY.md for the measured error.
STARLENS_HOST_DEVICE double moffat_rectangle_integral(const Moffat& psf, double x0, double x1,
                                                      double y0, double y1, double clip);

}  // namespace starlens

#include "optics/moffat_impl.h"
