#pragma once
// Carlson's symmetric elliptic integrals R_F, R_C and R_J for complex arguments (Carlson 1995,
// "Numerical computation of real or complex elliptic integrals", Numer. Algorithms 10, 13-26:
// duplication to a fifth- or seventh-order series; R_F and R_J through carlson_fused.h). GSL
// holds only the real ones; the Kerr radial integrals (kerr_radial.h) take them at
// complex-conjugate pairs of arguments, where they are real. Valid where Carlson's theorems hold:
// arguments off the closed negative real axis, and for R_J the first three real and non-negative or
// one real and two conjugate, p with positive real part (the cases the radial integrals meet).
#include <complex>

namespace starlens::carlson {

using Complex = std::complex<double>;

Complex rf(Complex x, Complex y, Complex z);
Complex rc(Complex x, Complex y);
Complex rj(Complex x, Complex y, Complex z, Complex p);

}  // namespace starlens::carlson
