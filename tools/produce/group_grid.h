#pragma once
// Each triangle group's own grid: the group's source triangles projected gnomonically onto
// the plane tangent at its cap's centre (great circles become straight lines, so each
// triangle stays a triangle), in a frame turned along the group's sliver direction (near
// critical curves source triangles are long and thin, and parallel within a small group), and
// binned on bins as long and as wide as the group's typical triangle. A point finds its few
// candidate triangles with one projection and one bin.
#include <array>
#include <cstdint>
#include <vector>

#include "inline_dot.h"
#include "lens_mesh.h"
#include "optics/host_device.h"
#include "planar_bins.h"
#include "triangle_groups.h"

namespace starlens::produce {

// A triangle filed in a group-grid bin, with the part of the bin its (padded) box covers: steps
// of 1/GroupGrids::kBoxSteps of the bin's sides, from the bin's corner, floored (so a point of
// the triangle is never outside its entry's box).
struct GroupGridEntry {
  std::uint32_t triangle;
  std::uint8_t u_low;
  std::uint8_t u_high;
  std::uint8_t v_low;
  std::uint8_t v_high;
};

class GroupGrids {
 public:
  struct Frame {
    Vec3 centre;  // the tangent point
    Vec3 axis_u;  // along the slivers
    Vec3 axis_v;
    PlanarGrid grid;                // covers the box of the group's projected vertices (padded)
    std::uint32_t first_bin;        // into bin_offsets_
    const GroupGridEntry* entries;  // the group's entries
  };

  GroupGrids() = default;
  // Builds every group's grid (in parallel). Groups must have caps well inside a hemisphere.
  GroupGrids(const LensMesh& mesh, const std::vector<TriangleGroup>& groups);

  std::size_t size() const { return frames_.size(); }
  const Frame& frame(std::uint32_t group) const { return frames_[group]; }
  std::uint64_t entries() const { return entries_; }
  std::uint64_t bins() const { return bins_; }
  // The four corners of the group's grid rectangle, as unit directions (the rectangle's edges
  // are great-circle arcs).
  std::array<Vec3, 4> rectangle_corners(std::uint32_t group) const;
  // Renames every triangle t held to new_number[t].
  void renumber(const std::vector<std::uint32_t>& new_number);

  // Where p (a unit vector) falls in a group's grid: its bin, and its place within the bin in
  // 1/kBoxSteps of the bin's sides.
  struct BinPlace {
    const GroupGridEntry* entries;  // the group's
    std::uint32_t bin;
    std::uint32_t iu;
    std::uint32_t iv;
  };
  // False when p lies outside the group's grid rectangle.
  bool find_bin(std::uint32_t group, const Vec3& p, BinPlace& place) const {
    return find_bin_in(frames_[group], p, place);
  }
  // find_bin for the group of frame f (host and device: index_lookup.h).
  STARLENS_HOST_DEVICE static bool find_bin_in(const Frame& f, const Vec3& p, BinPlace& place) {
    const double depth = inline_dot(p, f.centre);
    if (!(depth > 0.0)) return false;
    const double inverse_depth = 1.0 / depth;
    const double u = inline_dot(p, f.axis_u) * inverse_depth - f.grid.u0;
    const double v = inline_dot(p, f.axis_v) * inverse_depth - f.grid.v0;
    const double column = u / f.grid.bin_u;
    const double row = v / f.grid.bin_v;
    if (!(column >= 0.0 && row >= 0.0 && column < f.grid.columns && row < f.grid.rows))
      return false;
    const auto column_index = static_cast<std::uint32_t>(column);
    const auto row_index = static_cast<std::uint32_t>(row);
    place.entries = f.entries;
    place.bin = f.first_bin + row_index * f.grid.columns + column_index;
    // column - column_index is exact.
    place.iu = static_cast<std::uint32_t>((column - column_index) * kBoxSteps);
    place.iv = static_cast<std::uint32_t>((row - row_index) * kBoxSteps);
    return true;
  }
  // Calls test(triangle) for the triangles of the bin whose box within it holds the place.
  template <class Test>
  void for_each_in_bin(const BinPlace& place, Test&& test) const {
    for (std::uint32_t e = bin_offsets_[place.bin]; e < bin_offsets_[place.bin + 1]; ++e) {
      const Entry& entry = place.entries[e];
      if (holds(entry, place)) test(entry.triangle);
    }
  }
  // Calls test(triangle) for the triangles of `group` whose bins hold p (a unit vector) and
  // whose box within that bin holds p's projection.
  template <class Test>
  void for_each_candidate(std::uint32_t group, const Vec3& p, Test&& test) const {
    BinPlace place;
    if (find_bin(group, p, place)) for_each_in_bin(place, test);
  }

  // Hints for batched lookups (triangle_index.h): start loading what the next step reads.
  void prefetch_frame(std::uint32_t group) const {
    const char* address = reinterpret_cast<const char*>(&frames_[group]);
    __builtin_prefetch(address);
    __builtin_prefetch(address + sizeof(Frame) - 1);
  }
  void prefetch_bin(std::uint32_t bin) const { __builtin_prefetch(&bin_offsets_[bin]); }
  void prefetch_bin_entries(const BinPlace& place) const {
    __builtin_prefetch(place.entries + bin_offsets_[place.bin]);
  }

  using Entry = GroupGridEntry;
  static constexpr double kBoxSteps = 256;
  STARLENS_HOST_DEVICE static bool holds(const Entry& entry, const BinPlace& place) {
    return (place.iu >= entry.u_low) & (place.iu <= entry.u_high) & (place.iv >= entry.v_low) &
           (place.iv <= entry.v_high);
  }
  // The entries of a bin, and whether an entry's box holds a place (evaluated whole, without
  // branches: batched lookups compact the entries that pass).
  struct EntryRange {
    const Entry* first;
    const Entry* end;
  };
  EntryRange bin_entries(const BinPlace& place) const {
    return {place.entries + bin_offsets_[place.bin], place.entries + bin_offsets_[place.bin + 1]};
  }

  // The flat arrays (index_lookup.h): the frames, every group's bin offsets, and a group's
  // entries (which its frame points into).
  const std::vector<Frame>& frames() const { return frames_; }
  const std::vector<std::uint32_t>& bin_offsets() const { return bin_offsets_; }
  const std::vector<Entry>& group_entries(std::uint32_t group) const {
    return group_entries_[group];
  }

 private:
  std::vector<Frame> frames_;
  // Per group, its bins' offsets into its entries, then their end.
  std::vector<std::uint32_t> bin_offsets_;
  std::vector<std::vector<Entry>> group_entries_;
  std::uint64_t bins_ = 0;
  std::uint64_t entries_ = 0;
};

}  // namespace starlens::produce
