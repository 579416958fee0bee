#pragma once
// The adaptive lens-map mesh of docs/design.md section 3: trace the base grid, then bisect
// triangles while (a) their vertices (or edge midpoints) disagree in status, (b) linear inverse
// mapping errs by more than the tolerance at an edge midpoint, or (c) the source triangle is too
// large or its orientation differs from a neighbour's (it straddles a critical curve), up to
// the maximum depth; what still fails there is dropped and counted by reason. A triangle that
// could not pass even at the maximum depth is dropped at once (see mesh_refiner.cpp).
#include <array>
#include <cstdint>
#include <functional>
#include <vector>

#include "bisection_mesh.h"
#include "block_vector.h"
#include "core/stopwatch.h"
#include "fill_vector.h"
#include "lensmap/camera.h"
#include "spacetime/spacetime.h"

namespace starlens {

struct MeshParameters {
  double step = 4;                // px, base grid
  double tolerance = 0.01;        // px, linear inverse mapping error
  double max_source_radians = 0;  // longest source edge
  int max_depth = 10;             // bisections below the base grid
};

// Why a triangle was not kept. `degenerate`: zero solid angle on the camera's sky (the
// poles of an equirect image), never refined.
enum class DropReason : std::uint8_t {
  failed,
  status,
  orientation,
  tolerance,
  source_size,
  degenerate
};
constexpr int kDropReasonCount = 6;
const char* drop_reason_name(DropReason reason);

// A traced ray in 32 bytes instead of 40 (the mesh's largest array): the status rides in g,
// which is positive exactly for escaped rays (0 captured, -1 failed).
struct StoredRay {
  Vec3 source_direction{};
  double g = -1;
  StoredRay() = default;
  explicit StoredRay(const TracedRay& ray)
      : source_direction(ray.source_direction),
        g(ray.status == RayStatus::escaped    ? (ray.g > 0 ? ray.g : -1)
          : ray.status == RayStatus::captured ? 0
                                              : -1) {}
  RayStatus status() const {
    return g > 0 ? RayStatus::escaped : g == 0 ? RayStatus::captured : RayStatus::failed;
  }
};

struct KeptTriangle {
  std::array<std::uint32_t, 3> v;
  double mu;
  std::int8_t parity;
  std::uint8_t depth;
};

struct RefinedMesh {
  BlockVector<PixelPoint> points;  // every vertex created, pixels
  BlockVector<StoredRay> rays;     // its traced ray
  FillVector<std::uint8_t> used;   // 1 where a final (kept, shadow or dropped) triangle uses it
  FillVector<KeptTriangle> kept;
  std::int64_t shadow_triangles = 0;
  std::array<std::int64_t, kDropReasonCount> dropped{};
  // Image-plane areas (pixels^2, of the mesh's cells: at the right and bottom edges they may
  // reach past the image) of the dropped triangles by reason and of the shadow's.
  std::array<double, kDropReasonCount> dropped_area{};
  double shadow_area = 0;
  // The dropped triangles and their areas by reason and by the highest image order among their
  // vertices (0, 1, 2, 3 and more; TracedRay::order; a vertex that did not escape counts 3+).
  static constexpr int kOrders = 4;
  std::array<std::array<std::int64_t, kOrders>, kDropReasonCount> dropped_by_order{};
  std::array<std::array<double, kOrders>, kDropReasonCount> dropped_area_by_order{};
  std::vector<std::int64_t> kept_by_depth;  // histogram, index = depth
  std::int64_t passes = 0;
  // Wall time of the refinement's steps (refine_split_vertex_rays, refine_evaluate,
  // refine_midpoints, refine_midpoint_rays, refine_midpoint_checks, refine_splits,
  // refine_collect), summed over the passes.
  PhaseTimes phases;
  // Of the dropped: those given up before the maximum depth as futile (see kFutileMargin).
  std::int64_t dropped_early = 0;
};

// `on_traced(n)` is called (from one thread) after each batch of n rays.
RefinedMesh refine_lens_mesh(const Camera& camera, const Spacetime& spacetime,
                             const MeshParameters& parameters,
                             const std::function<void(std::uint64_t)>& on_traced);

}  // namespace starlens
