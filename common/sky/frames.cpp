#include "sky/frames.h"

#include <cmath>
#include <numbers>

namespace starlens {
namespace {

// Rows: galactic x (toward l=0,b=0), y (l=90), z (north galactic pole) in ICRS.
constexpr double kIcrsToGalactic[3][3] = {
    {-0.0548755604162154, -0.8734370902348850, -0.4838350155487132},
    {+0.4941094278755837, -0.4448296299600112, +0.7469822444972189},
    {-0.8676661490190047, -0.1980763734312015, +0.4559837761750669}};

}  // namespace

Vec3 unit_vector_from_angles(double longitude, double latitude) {
  return {std::cos(latitude) * std::cos(longitude), std::cos(latitude) * std::sin(longitude),
          std::sin(latitude)};
}

std::array<double, 2> angles_from_vector(const Vec3& v) {
  double longitude = std::atan2(v[1], v[0]);
  if (longitude < 0) longitude += 2 * std::numbers::pi;
  const double latitude = std::atan2(v[2], std::hypot(v[0], v[1]));
  return {longitude, latitude};
}

Vec3 icrs_to_galactic(const Vec3& icrs) {
  Vec3 galactic{};
  for (int row = 0; row < 3; ++row)
    for (int column = 0; column < 3; ++column)
      galactic[row] += kIcrsToGalactic[row][column] * icrs[column];
  return galactic;
}

Vec3 galactic_to_icrs(const Vec3& galactic) {
  Vec3 icrs{};
  for (int row = 0; row < 3; ++row)
    for (int column = 0; column < 3; ++column)
      icrs[column] += kIcrsToGalactic[row][column] * galactic[row];
  return icrs;
}

double dot(const Vec3& a, const Vec3& b) {
  return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}

Vec3 cross(const Vec3& a, const Vec3& b) {
  return {a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]};
}

double norm(const Vec3& v) {
  return std::sqrt(dot(v, v));
}

Vec3 normalized(const Vec3& v) {
  const double length = norm(v);
  return {v[0] / length, v[1] / length, v[2] / length};
}

std::pair<Vec3, Vec3> tangent_axes(const Vec3& centre) {
  int least = 0;
  for (int c = 1; c < 3; ++c)
    if (std::abs(centre[c]) < std::abs(centre[least])) least = c;
  Vec3 pole{0, 0, 0};
  pole[least] = 1;
  const Vec3 u = normalized(cross(pole, centre));
  return {u, cross(centre, u)};
}

}  // namespace starlens
