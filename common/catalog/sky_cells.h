#pragma once
// HEALPix NESTED sky cells (HEALPix C++, T_Healpix_Base<int64>): the store's cell of a
// star, its sort key, and the choice of order.
#include <healpix_base.h>

#include <cstdint>
#include <vector>

#include "sky/frames.h"

namespace starlens::catalog {

// The order of the sort key: HEALPix C++'s finest 64-bit order (cells of ~0.4 mas).
constexpr int kKeyOrder = 29;
// Largest store order accepted: 12 * 4^12 = 201 million cells (offsets 1.6 GB).
constexpr int kMaxStoreOrder = 12;
// Stars per cell the automatic order aims at (issue 4: "about 10^3").
constexpr double kTargetStarsPerCell = 1000.0;

class SkyCells {
 public:
  explicit SkyCells(int order);
  int order() const { return order_; }
  std::uint64_t count() const { return 12ull << (2 * order_); }
  // Cell of an ICRS direction given in radians.
  std::uint64_t cell_of(double ra, double dec) const;
  std::uint64_t cell_of(const Vec3& direction) const;
  // The cell at this order holding the star with sort key `key`.
  std::uint64_t cell_of_key(std::uint64_t key) const { return key >> (2 * (kKeyOrder - order_)); }
  double cell_solid_angle_sr() const;
  Vec3 centre(std::uint64_t cell) const;
  // Cells overlapping a disc / a spherical polygon (convex, counter-clockwise or not),
  // conservatively: every cell that may overlap is listed (for the producer's queries).
  std::vector<std::uint64_t> cells_in_disc(const Vec3& centre, double radius) const;
  std::vector<std::uint64_t> cells_in_polygon(const std::vector<Vec3>& vertices) const;

 private:
  int order_;
  T_Healpix_Base<int64> base_;
};

// The sort key of a star (ICRS degrees), thread-safe.
std::uint64_t sky_key(double ra_deg, double dec_deg);
// The direction of the centre of a key's cell (ra, dec in degrees), for synthesis.
void key_centre_deg(std::uint64_t key, double& ra_deg, double& dec_deg);

// The order whose mean stars-per-cell is closest (in log) to kTargetStarsPerCell.
int choose_order(std::uint64_t star_count);

}  // namespace starlens::catalog
