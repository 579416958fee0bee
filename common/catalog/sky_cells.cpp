#include "catalog/sky_cells.h"

#include <pointing.h>
#include <rangeset.h>

#include <algorithm>
#include <cmath>
#include <numbers>

#include "core/errors.h"

namespace starlens::catalog {
namespace {

const T_Healpix_Base<int64>& key_base() {
  static const T_Healpix_Base<int64> base(kKeyOrder, NEST);
  return base;
}

pointing pointing_of(double ra, double dec) {
  return pointing(0.5 * std::numbers::pi - dec, ra);
}

vec3 vec3_of(const Vec3& v) {
  return vec3(v[0], v[1], v[2]);
}

std::vector<std::uint64_t> expand(const rangeset<int64>& ranges) {
  std::vector<std::uint64_t> cells;
  for (tsize i = 0; i < ranges.nranges(); ++i)
    for (int64 cell = ranges.ivbegin(i); cell < ranges.ivend(i); ++cell)
      cells.push_back(static_cast<std::uint64_t>(cell));
  return cells;
}

}  // namespace

SkyCells::SkyCells(int order) : order_(order) {
  if (order < 0 || order > kMaxStoreOrder)
    throw_input_error(
        "order", "",
        std::to_string(order) + " outside [0, " + std::to_string(kMaxStoreOrder) + "]");
  base_.Set(order, NEST);
}

std::uint64_t SkyCells::cell_of(double ra, double dec) const {
  return static_cast<std::uint64_t>(base_.ang2pix(pointing_of(ra, dec)));
}

std::uint64_t SkyCells::cell_of(const Vec3& direction) const {
  return static_cast<std::uint64_t>(base_.vec2pix(vec3_of(direction)));
}

double SkyCells::cell_solid_angle_sr() const {
  return 4.0 * std::numbers::pi / static_cast<double>(count());
}

Vec3 SkyCells::centre(std::uint64_t cell) const {
  const vec3 v = base_.pix2vec(static_cast<int64>(cell));
  return {v.x, v.y, v.z};
}

std::vector<std::uint64_t> SkyCells::cells_in_disc(const Vec3& centre, double radius) const {
  rangeset<int64> ranges;
  base_.query_disc_inclusive(pointing(vec3_of(centre)), radius, ranges, 4);
  return expand(ranges);
}

std::vector<std::uint64_t> SkyCells::cells_in_polygon(const std::vector<Vec3>& vertices) const {
  std::vector<pointing> corners;
  for (const Vec3& v : vertices) corners.emplace_back(vec3_of(v));
  rangeset<int64> ranges;
  base_.query_polygon_inclusive(corners, ranges, 4);
  return expand(ranges);
}

std::uint64_t sky_key(double ra_deg, double dec_deg) {
  return static_cast<std::uint64_t>(
      key_base().ang2pix(pointing_of(ra_deg * kDegree, dec_deg * kDegree)));
}

void key_centre_deg(std::uint64_t key, double& ra_deg, double& dec_deg) {
  const pointing centre = key_base().pix2ang(static_cast<int64>(key));
  ra_deg = centre.phi / kDegree;
  dec_deg = 90.0 - centre.theta / kDegree;
}

int choose_order(std::uint64_t star_count) {
  if (star_count == 0) return 0;
  const double per_base_cell = static_cast<double>(star_count) / (12.0 * kTargetStarsPerCell);
  const int order = static_cast<int>(std::lround(std::log(per_base_cell) / std::log(4.0)));
  return std::clamp(order, 0, kMaxStoreOrder);
}

}  // namespace starlens::catalog
