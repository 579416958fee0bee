#include "colour/linear_srgb.h"

namespace starlens {
namespace {

// XYZ of chromaticity (x, y) at luminance Y = 1.
std::array<double, 3> xyz_of_chromaticity(double x, double y) {
  return {x / y, 1.0, (1.0 - x - y) / y};
}

Matrix3 inverse(const Matrix3& m) {
  const double c00 = m[1][1] * m[2][2] - m[1][2] * m[2][1];
  const double c01 = m[1][2] * m[2][0] - m[1][0] * m[2][2];
  const double c02 = m[1][0] * m[2][1] - m[1][1] * m[2][0];
  const double determinant = m[0][0] * c00 + m[0][1] * c01 + m[0][2] * c02;
  Matrix3 result{};
  result[0][0] = c00 / determinant;
  result[1][0] = c01 / determinant;
  result[2][0] = c02 / determinant;
  result[0][1] = (m[0][2] * m[2][1] - m[0][1] * m[2][2]) / determinant;
  result[1][1] = (m[0][0] * m[2][2] - m[0][2] * m[2][0]) / determinant;
  result[2][1] = (m[0][1] * m[2][0] - m[0][0] * m[2][1]) / determinant;
  result[0][2] = (m[0][1] * m[1][2] - m[0][2] * m[1][1]) / determinant;
  result[1][2] = (m[0][2] * m[1][0] - m[0][0] * m[1][2]) / determinant;
  result[2][2] = (m[0][0] * m[1][1] - m[0][1] * m[1][0]) / determinant;
  return result;
}

Matrix3 derive_srgb_to_xyz() {
  const auto red = xyz_of_chromaticity(0.64, 0.33);
  const auto green = xyz_of_chromaticity(0.30, 0.60);
  const auto blue = xyz_of_chromaticity(0.15, 0.06);
  const auto white = xyz_of_chromaticity(0.3127, 0.3290);
  const Matrix3 primaries = {
      {{red[0], green[0], blue[0]}, {red[1], green[1], blue[1]}, {red[2], green[2], blue[2]}}};
  // Scale each primary so that their sum is the white point.
  const Matrix3 unscaled_inverse = inverse(primaries);
  std::array<double, 3> scale{};
  for (int i = 0; i < 3; ++i) {
    scale[i] = unscaled_inverse[i][0] * white[0] + unscaled_inverse[i][1] * white[1] +
               unscaled_inverse[i][2] * white[2];
  }
  Matrix3 result{};
  for (int row = 0; row < 3; ++row) {
    for (int column = 0; column < 3; ++column)
      result[row][column] = primaries[row][column] * scale[column];
  }
  return result;
}

}  // namespace

const Matrix3& linear_srgb_to_xyz_matrix() {
  static const Matrix3 matrix = derive_srgb_to_xyz();
  return matrix;
}

const Matrix3& xyz_to_linear_srgb_matrix() {
  static const Matrix3 matrix = inverse(linear_srgb_to_xyz_matrix());
  return matrix;
}

LinearRgb xyz_to_linear_srgb(double x, double y, double z) {
  const Matrix3& m = xyz_to_linear_srgb_matrix();
  return {m[0][0] * x + m[0][1] * y + m[0][2] * z, m[1][0] * x + m[1][1] * y + m[1][2] * z,
          m[2][0] * x + m[2][1] * y + m[2][2] * z};
}

double luminance_of(const LinearRgb& rgb) {
  const auto& row = linear_srgb_to_xyz_matrix()[1];
  return row[0] * rgb.r + row[1] * rgb.g + row[2] * rgb.b;
}

LinearRgb desaturate_into_gamut(const LinearRgb& rgb) {
  return desaturate_into_gamut(rgb, luminance_of(rgb));
}

}  // namespace starlens
