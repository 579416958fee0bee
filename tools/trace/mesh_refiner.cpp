#include "mesh_refiner.h"

#include <algorithm>
#include <atomic>
#include <bit>
#include <chrono>
#include <cmath>
#include <numbers>

#include "bisection_mesh.h"
#include "ordered_parallel.h"
#include "prefetch.h"
#include "triangle_measures.h"

namespace starlens {
namespace {

enum class Verdict : std::uint8_t { pending, keep, shadow, split, dropped };

// Per-triangle evaluation, indexed like the mesh's triangles (12 bytes: the mesh's second
// largest array). mu is kept from the measurement, when both solid angles are at hand, so that
// collecting the kept triangles gathers no rays; it is stored as two 4-byte words so that the
// array does not grow to 16 bytes an element for a double's alignment.
struct Evaluation {
  Verdict verdict = Verdict::pending;
  DropReason reason = DropReason::failed;  // why it failed, for split and dropped
  std::int8_t parity = 0;                  // 0: not all escaped, or degenerate
  bool check_neighbours = false;           // orientation against the neighbours still due
  std::array<std::uint32_t, 2> mu_bits{};  // |image| / |source| solid angle, all escaped

  double mu() const { return std::bit_cast<double>(mu_bits); }
  void set_mu(double mu) { mu_bits = std::bit_cast<std::array<std::uint32_t, 2>>(mu); }
};
static_assert(sizeof(Evaluation) == 12);

// A triangle failing size or tolerance whose failure, scaled as if the map were linear down
// to the maximum depth (edges halve every two bisections, errors go with their square),
// would still exceed the bound this many times over is dropped at once: refining it is
// futile (the photon ring's band next to the shadow, where the map winds without bound).
constexpr double kFutileMargin = 8;

// Next to the shadow the map stretches radially without bound (the azimuth goes like
// -log(psi - psi_c)), so a source triangle there is long however small its image: the source
// size limit would refine it to the maximum depth and drop it, and with it the secondary and
// photon-ring images. A triangle whose longest source edge is at least kRingStretch times its
// longest image edge (angles on the camera's sky) may have source edges up to kRingSourceChord
// instead (2 sin(3.5 deg): such a triangle still fits the producer's 4-degree group caps,
// which wider ones did not, each becoming a group of its own); the tolerance criterion then
// decides, as everywhere. Where the map is not that stretched, the source-size limit is as
// given.
constexpr double kRingStretch = 16;
constexpr double kRingSourceChord = 0.12209707906971375;  // 2 sin(3.5 degrees)

class MeshRefiner {
 public:
  MeshRefiner(const Camera& camera, const Spacetime& spacetime, const MeshParameters& parameters,
              const std::function<void(std::uint64_t)>& on_traced)
      : camera_(camera),
        spacetime_(spacetime),
        parameters_(parameters),
        on_traced_(on_traced),
        mesh_(camera.width(), camera.height(), parameters.step),
        max_source_chord_(2 *
                          std::sin(std::min(parameters.max_source_radians, std::numbers::pi) / 2)),
        handedness_(
            vec::dot(camera.axes().forward, vec::cross(camera.axes().right, camera.axes().up))) {}

  RefinedMesh run();

 private:
  void trace_new_vertices();
  void split_in_order(const std::vector<std::int32_t>& visits, std::vector<std::int32_t>& created);
  Vec3 camera_direction(std::uint32_t v) const {
    const PixelPoint& p = mesh_.points()[v];
    return camera_.direction(p.x, p.y);
  }
  ImagePoint point(std::uint32_t v) const {
    const PixelPoint& p = mesh_.points()[v];
    return {p.x, p.y, rays_[v].source_direction};
  }
  bool escaped(std::uint32_t v) const { return rays_[v].status() == RayStatus::escaped; }
  // What the criteria read of triangle t besides its slot: its vertices' rays and positions,
  // and with `midpoints` those of its edge midpoints (see prefetch.h).
  void prefetch_points(std::int32_t t, bool midpoints) const;
  double image_solid_angle(std::int32_t t) const;
  double measure(std::int32_t t);
  void check_vertices(std::int32_t t, double image_solid_angle);
  bool photon_ring_band(std::int32_t t, double longest_source_chord) const;
  void check_neighbours(std::int32_t t);
  void check_midpoints(std::int32_t t);
  void fail(std::int32_t t, DropReason reason, double futility = 0);
  RefinedMesh collect();

  const Camera& camera_;
  const Spacetime& spacetime_;
  const MeshParameters parameters_;
  const std::function<void(std::uint64_t)>& on_traced_;
  BisectionMesh mesh_;
  const double max_source_chord_;
  const double handedness_;  // forward . (right x up) of the camera frame
  BlockVector<StoredRay> rays_;
  BlockVector<std::int8_t> orders_;  // each vertex's image order (TracedRay::order)
  BlockVector<Evaluation> evaluations_;
  std::int64_t passes_ = 0;
  std::int64_t dropped_early_ = 0;
  PhaseTimes phases_;
};

void MeshRefiner::trace_new_vertices() {
  const auto first = static_cast<std::int64_t>(rays_.size());
  const auto count = static_cast<std::int64_t>(mesh_.vertex_count());
  if (first == count) return;
  rays_.resize_for_overwrite(count);  // each new ray is written below
  orders_.resize_for_overwrite(count);
#pragma omp parallel for schedule(dynamic, 1024)
  for (std::int64_t v = first; v < count; ++v) {
    const TracedRay ray = spacetime_.trace(camera_direction(v));
    rays_[v] = StoredRay(ray);
    orders_[v] = ray.status == RayStatus::escaped ? ray.order : std::int8_t{-1};
  }
  if (on_traced_) on_traced_(static_cast<std::uint64_t>(count - first));
}

// The pass's conforming splits, in order, on one thread (the mesh's numbering depends on it):
// `visits` lists the triangles to split (t >= 0) and the drops to count as early (~t). The
// vertices they make are traced by all threads at the start of the next pass: tracing them on
// the other threads while the splits go on slows the splits down as much as it saves, on two
// cores (docs/benchmarks/trace.md).
void MeshRefiner::split_in_order(const std::vector<std::int32_t>& visits,
                                 std::vector<std::int32_t>& created) {
  created.clear();
  const auto visit_count = static_cast<std::int64_t>(visits.size());
  const auto decode = [](std::int32_t visit) { return visit >= 0 ? visit : ~visit; };
  // Room for what the splits will add, first touched on all threads: one triangle each, as a
  // pair of splits that share the hypotenuse adds two (most do; the rest fault on their own).
  mesh_.reserve(visits.size());
  const auto triangle_of_visit = [&](std::int64_t j) -> const MeshTriangle& {
    return mesh_.triangle(decode(visits[j]));
  };
  const auto prefetch_neighbour = [&](std::int32_t n) {
    if (n >= 0) prefetch_for_write(mesh_.triangle(n));
  };
  for (std::int64_t i = 0; i < visit_count; ++i) {
    // The splits read and write triangles at random, one after another: ask for the triangles
    // of the visits ahead, then for the neighbours a split rewrites (across the hypotenuse,
    // the base, and across the second leg), then for the base's across its second leg.
    prefetch_ahead(
        i, visit_count, [&](std::int64_t j) { prefetch(triangle_of_visit(j)); },
        [&](std::int64_t j) {
          const MeshTriangle& triangle = triangle_of_visit(j);
          prefetch_neighbour(triangle.neighbour[0]);
          prefetch_neighbour(triangle.neighbour[1]);
          // A split whose hypotenuse has no midpoint yet places one between its ends.
          if (triangle.midpoint[0] == kNoVertex) {
            prefetch(mesh_.points()[triangle.v[1]]);
            prefetch(mesh_.points()[triangle.v[2]]);
          }
        },
        [&](std::int64_t j) {
          const std::int32_t base = triangle_of_visit(j).neighbour[0];
          if (base >= 0) prefetch_neighbour(mesh_.triangle(base).neighbour[1]);
        });
    const std::int32_t t = decode(visits[i]);
    // A slot refilled by a forced split earlier in this loop holds a new, unevaluated child.
    if (mesh_.triangle(t).fresh) continue;
    if (visits[i] < 0)
      ++dropped_early_;
    else
      mesh_.split(t, created);
  }
}

void MeshRefiner::prefetch_points(std::int32_t t, bool midpoints) const {
  const MeshTriangle& triangle = mesh_.triangle(t);
  const auto prefetch_vertex = [&](std::uint32_t v) {
    prefetch(rays_[v]);
    prefetch(mesh_.points()[v]);
  };
  for (std::uint32_t v : triangle.v) prefetch_vertex(v);
  if (midpoints)
    for (std::uint32_t m : triangle.midpoint) prefetch_vertex(m);
}

// Signed solid angle of a triangle on the camera's sky: for a pinhole camera from pixel
// offsets alone (no unit directions; equal to the unit directions' to rounding, and for tiny
// triangles more accurate, since no digits go into normalising).
double MeshRefiner::image_solid_angle(std::int32_t t) const {
  const auto& v = mesh_.triangle(t).v;
  if (camera_.projection() != Projection::pinhole)
    return signed_solid_angle(camera_direction(v[0]), camera_direction(v[1]),
                              camera_direction(v[2]));
  const double cx = camera_.width() / 2.0, cy = camera_.height() / 2.0;
  const PixelPoint &a = mesh_.points()[v[0]], &b = mesh_.points()[v[1]], &c = mesh_.points()[v[2]];
  return pinhole_solid_angle(camera_.focal_length(), handedness_,
                             {{{a.x - cx, a.y - cy}, {b.x - cx, b.y - cy}, {c.x - cx, c.y - cy}}});
}

// Parity and magnification of an all-escaped triangle: do lensing and the camera wind it the
// same way, and by what ratio of solid angles? Returns the image solid angle (0 unless all
// escaped).
double MeshRefiner::measure(std::int32_t t) {
  const auto& v = mesh_.triangle(t).v;
  if (!(escaped(v[0]) && escaped(v[1]) && escaped(v[2]))) return 0;
  const double image = image_solid_angle(t);
  const double source = signed_solid_angle(
      rays_[v[0]].source_direction, rays_[v[1]].source_direction, rays_[v[2]].source_direction);
  Evaluation& e = evaluations_[t];
  e.set_mu(std::abs(image) / std::abs(source));
  e.parity = static_cast<std::int8_t>((image > 0) == (source > 0) ? 1 : -1);
  if (image == 0 || source == 0) e.parity = 0;
  return image;
}

// `futility`: how many times over the bound the failure would remain at the maximum depth.
void MeshRefiner::fail(std::int32_t t, DropReason reason, double futility) {
  Evaluation& e = evaluations_[t];
  e.reason = reason;
  const bool can_split = mesh_.triangle(t).depth < parameters_.max_depth &&
                         reason != DropReason::failed && reason != DropReason::degenerate &&
                         !(futility > kFutileMargin);
  e.verdict = can_split ? Verdict::split : Verdict::dropped;
}

// Criteria that need only the vertices: status, degeneracy, orientation, source size. The
// comparison of orientation with the neighbours' waits for check_neighbours (their parity may
// be measured in the same pass); it takes precedence over the source size.
void MeshRefiner::check_vertices(std::int32_t t, double image_solid_angle) {
  const MeshTriangle& triangle = mesh_.triangle(t);
  const auto& v = triangle.v;
  int captured = 0;
  for (std::uint32_t index : v) {
    if (rays_[index].status() == RayStatus::failed) return fail(t, DropReason::failed);
    captured += rays_[index].status() == RayStatus::captured;
  }
  if (captured == 3) {
    evaluations_[t].verdict = Verdict::shadow;
    return;
  }
  if (captured > 0) return fail(t, DropReason::status);
  // Zero solid angle on the camera's sky compared with the pixel area's (the poles of an
  // equirect image): nothing maps there.
  const PixelPoint &a = mesh_.points()[v[0]], &b = mesh_.points()[v[1]], &c = mesh_.points()[v[2]];
  const double area = std::abs((b.x - a.x) * (c.y - a.y) - (c.x - a.x) * (b.y - a.y)) / 2;
  const double focal = camera_.focal_length();
  const Evaluation& e = evaluations_[t];
  // (The solid angle as a float, as this test has always compared it.)
  if (std::abs(static_cast<float>(image_solid_angle)) < 1e-9 * area / (focal * focal))
    return fail(t, DropReason::degenerate);
  if (e.parity == 0) return fail(t, DropReason::orientation);
  evaluations_[t].check_neighbours = true;
  // Source edge longer than the limit: compared as chords, 2 sin(angle / 2), exactly
  // equivalent for angles in [0, pi] and free of atan2. One square root, of the largest
  // squared chord: the same number as the largest of three roots (sqrt is monotonic).
  double longest_squared = 0;
  for (int k = 0; k < 3; ++k) {
    const Vec3 edge =
        vec::minus(rays_[v[k]].source_direction, rays_[v[(k + 1) % 3]].source_direction);
    longest_squared = std::max(longest_squared, vec::dot(edge, edge));
  }
  const double longest_chord = std::sqrt(longest_squared);
  if (longest_chord > max_source_chord_) {
    const bool stretched = photon_ring_band(t, longest_chord);
    if (!stretched || longest_chord > kRingSourceChord) {
      // Futile when it could not pass even at the maximum depth: against the band's limit
      // where the map is that stretched.
      const double shrink = std::pow(0.5, (parameters_.max_depth - triangle.depth) / 2.0);
      const double limit = stretched ? kRingSourceChord : max_source_chord_;
      return fail(t, DropReason::source_size, longest_chord * shrink / limit);
    }
  }
  evaluations_[t].verdict = Verdict::pending;  // passed; the midpoints decide
}

// Whether a triangle whose source edge exceeds the limit is as stretched as the band next to
// the shadow (see kRingStretch), where source edges up to kRingSourceChord are allowed.
bool MeshRefiner::photon_ring_band(std::int32_t t, double longest_source_chord) const {
  const auto& v = mesh_.triangle(t).v;
  const Vec3 d[3] = {camera_direction(v[0]), camera_direction(v[1]), camera_direction(v[2])};
  double longest_squared = 0;
  for (int k = 0; k < 3; ++k) {
    const Vec3 edge = vec::minus(d[k], d[(k + 1) % 3]);
    longest_squared = std::max(longest_squared, vec::dot(edge, edge));
  }
  return longest_source_chord >= kRingStretch * std::sqrt(longest_squared);
}

// The orientation criterion against the neighbours, for triangles that check_vertices did not
// reject before it: it overrides a source-size verdict, which comes after it.
void MeshRefiner::check_neighbours(std::int32_t t) {
  const Evaluation& e = evaluations_[t];
  if (!e.check_neighbours) return;
  for (std::int32_t n : mesh_.triangle(t).neighbour)
    if (n >= 0 && evaluations_[n].parity != 0 && evaluations_[n].parity != e.parity)
      return fail(t, DropReason::orientation);
}

// Criterion (b) at the three edge midpoints, with two error measures: the design's (the midpoint's
// angle off the normalised mean of the edge's source ends, in pixels by the edge's
// image/source length ratio) and the producer's own (the midpoint's source placed in the
// triangle by gnomonic barycentric weights, distance from the traced midpoint in pixels).
// The second catches anisotropic stretching that the first underestimates.
void MeshRefiner::check_midpoints(std::int32_t t) {
  const MeshTriangle& triangle = mesh_.triangle(t);
  const auto& midpoints = triangle.midpoint;
  const auto& v = triangle.v;
  const ImagePoint p[3] = {point(v[0]), point(v[1]), point(v[2])};
  const GnomonicFrame frame(p[0].source, p[1].source, p[2].source);
  double worst = 0;
  for (int k = 0; k < 3; ++k) {
    const std::uint32_t m = midpoints[k];
    if (rays_[m].status() == RayStatus::failed) return fail(t, DropReason::failed);
    if (rays_[m].status() == RayStatus::captured) return fail(t, DropReason::status);
    const ImagePoint mid = point(m);
    worst = std::max({worst, edge_midpoint_error(p[(k + 1) % 3], p[(k + 2) % 3], mid),
                      interpolation_error(frame, p[0], p[1], p[2], mid)});
  }
  if (!(worst <= parameters_.tolerance)) {
    const double shrink = std::pow(0.5, parameters_.max_depth - triangle.depth);
    return fail(t, DropReason::tolerance, worst * shrink / parameters_.tolerance);
  }
  evaluations_[t].verdict = Verdict::keep;
}

RefinedMesh MeshRefiner::run() {
  // Wall time of each step, summed over the passes, for the manifest (refine_* in timings_s):
  // end_step(name) closes the step that began where the previous one ended.
  auto step_start = std::chrono::steady_clock::now();
  const auto end_step = [&](const char* name) {
    phases_.add(name, seconds_since(step_start));
    step_start = std::chrono::steady_clock::now();
  };
  std::vector<std::int32_t> pending, candidates, created, visits;
  for (std::int32_t t = 0; t < static_cast<std::int32_t>(mesh_.triangles().size()); ++t)
    if (mesh_.take_fresh(t)) pending.push_back(t);
  while (!pending.empty()) {
    ++passes_;
    trace_new_vertices();  // vertices made by the last pass's splits
    end_step("refine_split_vertex_rays");
    // The new slots are all pending: the sweep below writes their evaluations.
    evaluations_.resize_for_overwrite(mesh_.triangles().size());
    const auto count = static_cast<std::int64_t>(pending.size());
#pragma omp parallel for schedule(dynamic, 4096)
    for (std::int64_t i = 0; i < count; ++i) {
      prefetch_ahead(
          i, count, [&](std::int64_t j) { prefetch_for_write(mesh_.triangle(pending[j])); },
          [&](std::int64_t j) {
            prefetch_for_write(evaluations_[pending[j]]);
            prefetch_points(pending[j], false);
          });
      mesh_.take_fresh(pending[i]);  // (each new triangle is pending exactly once)
      evaluations_[pending[i]] = Evaluation{};
      check_vertices(pending[i], measure(pending[i]));
    }
    // Orientation against the neighbours (all parities are measured now), in the same sweep
    // as the selection of the triangles that passed so far: they need all three edge
    // midpoints traced.
    select_in_parallel(
        count,
        [&](std::int64_t i) {
          prefetch_ahead(
              i, count,
              [&](std::int64_t j) {
                prefetch(mesh_.triangle(pending[j]));
                prefetch(evaluations_[pending[j]]);
              },
              [&](std::int64_t j) {
                for (std::int32_t n : mesh_.triangle(pending[j]).neighbour)
                  if (n >= 0) prefetch(evaluations_[n]);
              });
          check_neighbours(pending[i]);
          return evaluations_[pending[i]].verdict == Verdict::pending;
        },
        [&](std::int64_t i) { return pending[i]; }, candidates);
    end_step("refine_evaluate");
    mesh_.create_midpoints(candidates);
    end_step("refine_midpoints");
    trace_new_vertices();
    end_step("refine_midpoint_rays");
    const auto candidate_count = static_cast<std::int64_t>(candidates.size());
#pragma omp parallel for schedule(dynamic, 4096)
    for (std::int64_t i = 0; i < candidate_count; ++i) {
      prefetch_ahead(
          i, candidate_count,
          [&](std::int64_t j) {
            prefetch(mesh_.triangle(candidates[j]));
            prefetch_for_write(evaluations_[candidates[j]]);
          },
          [&](std::int64_t j) { prefetch_points(candidates[j], true); });
      check_midpoints(candidates[i]);
    }
    // The serial part of the pass: the conforming splits, in pending order. What it visits is
    // selected on all threads first: splits (>= 0) and drops to count as early (~t, < 0).
    select_in_parallel(
        static_cast<std::int64_t>(pending.size()),
        [&](std::int64_t i) {
          const Evaluation& e = evaluations_[pending[i]];
          return e.verdict == Verdict::split ||
                 (e.verdict == Verdict::dropped &&
                  mesh_.triangle(pending[i]).depth < parameters_.max_depth &&
                  (e.reason == DropReason::source_size || e.reason == DropReason::tolerance));
        },
        [&](std::int64_t i) {
          return evaluations_[pending[i]].verdict == Verdict::split ? pending[i] : ~pending[i];
        },
        visits);
    end_step("refine_midpoint_checks");
    split_in_order(visits, created);
    pending.swap(created);  // each new triangle once, in order of creation
    end_step("refine_splits");
  }
  // The pass lists' memory back before collect's arrays (the run's peak) are made.
  for (auto* list : {&pending, &candidates, &created, &visits})
    std::vector<std::int32_t>().swap(*list);
  RefinedMesh result = collect();
  end_step("refine_collect");
  result.phases = phases_;
  return result;
}

RefinedMesh MeshRefiner::collect() {
  RefinedMesh result;
  result.used.resize(mesh_.vertex_count());
  const auto vertex_count = static_cast<std::int64_t>(result.used.size());
#pragma omp parallel for schedule(static)
  for (std::int64_t v = 0; v < vertex_count; ++v) result.used[v] = 0;
  result.passes = passes_;
  result.dropped_early = dropped_early_;
  result.kept_by_depth.assign(parameters_.max_depth + 1, 0);
  const auto& triangles = mesh_.triangles();
  const auto triangle_count = static_cast<std::int64_t>(triangles.size());
  std::array<std::int64_t, kDropReasonCount> dropped_area_total{};
  std::array<std::array<std::int64_t, RefinedMesh::kOrders>, kDropReasonCount>
      dropped_area_by_order_total{};
  std::int64_t shadow_area_total = 0;
#pragma omp parallel
  {
    // Integer counts per thread, summed at the end: the same totals for any thread count.
    std::vector<std::int64_t> kept_by_depth(result.kept_by_depth.size(), 0);
    std::array<std::int64_t, kDropReasonCount> dropped{};
    // Areas in units of a maximum-depth triangle's (2^-max_depth of a base triangle's): every
    // triangle at depth d is 2^(max_depth - d) of them, so the sums are exact integers.
    std::array<std::int64_t, kDropReasonCount> dropped_area{};
    std::array<std::array<std::int64_t, RefinedMesh::kOrders>, kDropReasonCount> by_order{},
        area_by_order{};
    std::int64_t shadow = 0, shadow_area = 0;
#pragma omp for schedule(static) nowait
    for (std::int64_t t = 0; t < triangle_count; ++t) {
      for (std::uint32_t v : triangles[t].v)
        std::atomic_ref<std::uint8_t>(result.used[v]).store(1, std::memory_order_relaxed);
      const Evaluation& e = evaluations_[t];
      switch (e.verdict) {
        case Verdict::keep:
          ++kept_by_depth[triangles[t].depth];
          break;
        case Verdict::shadow:
          ++shadow;
          shadow_area += std::int64_t{1} << (parameters_.max_depth - triangles[t].depth);
          break;
        case Verdict::dropped: {
          const int reason = static_cast<int>(e.reason);
          const std::int64_t area = std::int64_t{1} << (parameters_.max_depth - triangles[t].depth);
          ++dropped[reason];
          dropped_area[reason] += area;
          // The highest image order among its vertices, from their traced rays (a vertex that
          // did not escape: the shadow's edge, counted with the highest orders).
          int order = 0;
          for (const std::uint32_t v : triangles[t].v)
            order = orders_[v] < 0 ? RefinedMesh::kOrders - 1 : std::max<int>(order, orders_[v]);
          const int slot = std::min(order, RefinedMesh::kOrders - 1);
          ++by_order[reason][slot];
          area_by_order[reason][slot] += area;
          break;
        }
        case Verdict::pending:
        case Verdict::split:
          break;  // impossible for a final leaf
      }
    }
#pragma omp critical
    {
      for (std::size_t d = 0; d < kept_by_depth.size(); ++d)
        result.kept_by_depth[d] += kept_by_depth[d];
      for (int r = 0; r < kDropReasonCount; ++r) {
        result.dropped[r] += dropped[r];
        dropped_area_total[r] += dropped_area[r];
        for (int o = 0; o < RefinedMesh::kOrders; ++o) {
          result.dropped_by_order[r][o] += by_order[r][o];
          dropped_area_by_order_total[r][o] += area_by_order[r][o];
        }
      }
      result.shadow_triangles += shadow;
      shadow_area_total += shadow_area;
    }
  }
  // A base triangle is half a step x step cell.
  const double unit_area =
      parameters_.step * parameters_.step / 2 / std::ldexp(1.0, parameters_.max_depth);
  for (int r = 0; r < kDropReasonCount; ++r) {
    result.dropped_area[r] = static_cast<double>(dropped_area_total[r]) * unit_area;
    for (int o = 0; o < RefinedMesh::kOrders; ++o)
      result.dropped_area_by_order[r][o] =
          static_cast<double>(dropped_area_by_order_total[r][o]) * unit_area;
  }
  result.shadow_area = static_cast<double>(shadow_area_total) * unit_area;
  select_in_parallel(
      triangle_count, [&](std::int64_t t) { return evaluations_[t].verdict == Verdict::keep; },
      [&](std::int64_t t) {
        return KeptTriangle{triangles[t].v, evaluations_[t].mu(), evaluations_[t].parity,
                            triangles[t].depth};
      },
      result.kept);
  result.points = mesh_.release_points();
  result.rays = std::move(rays_);
  return result;
}

}  // namespace

const char* drop_reason_name(DropReason reason) {
  switch (reason) {
    case DropReason::failed:
      return "failed";
    case DropReason::status:
      return "status";
    case DropReason::orientation:
      return "orientation";
    case DropReason::tolerance:
      return "tolerance";
    case DropReason::source_size:
      return "source_size";
    case DropReason::degenerate:
      return "degenerate";
  }
  return "?";
}

RefinedMesh refine_lens_mesh(const Camera& camera, const Spacetime& spacetime,
                             const MeshParameters& parameters,
                             const std::function<void(std::uint64_t)>& on_traced) {
  return MeshRefiner(camera, spacetime, parameters, on_traced).run();
}

}  // namespace starlens
