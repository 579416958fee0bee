#include "trace_run.h"

#include <fcntl.h>
#include <malloc.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <future>
#include <iostream>
#include <limits>
#include <memory>

#include "core/errors.h"
#include "core/output_set.h"
#include "core/progress.h"
#include "core/stopwatch.h"
#include "lensmap_output.h"
#include "manifest/block_tree_sha256.h"
#include "manifest/hash_pool.h"
#include "manifest/manifest.h"
#include "orbit_map.h"
#include "spacetime/moving_observer.h"
#include "spacetime/schwarzschild.h"

namespace starlens {
namespace {

constexpr char kTool[] = "starlens-trace";

void record_parameters(Manifest& manifest, const TraceSetup& setup, int threads) {
  const LensmapAttributes& a = setup.attributes;
  auto& p = manifest.parameters();
  p["spacetime"] = a.spacetime;
  p["r_obs"] = a.r_obs;
  p["ray_azimuth"] = a.ray_azimuth;
  p["bh_frame"] = a.bh_frame;
  p["bh_lon_deg"] = a.bh_lon_deg;
  p["bh_lat_deg"] = a.bh_lat_deg;
  p["bh_ra_deg"] = a.bh_ra_deg;
  p["bh_dec_deg"] = a.bh_dec_deg;
  p["look_dlon_deg"] = a.look_dlon_deg;
  p["look_dlat_deg"] = a.look_dlat_deg;
  p["roll_deg"] = a.roll_deg;
  p["observer"] = a.observer;
  if (a.observer != "static")
    p["observer_velocity_icrs"] = {a.observer_velocity[0], a.observer_velocity[1],
                                   a.observer_velocity[2]};
  p["projection"] = a.projection;
  p["fov_deg"] = a.fov_deg;
  p["width"] = a.width;
  p["height"] = a.height;
  p["mesh_step"] = a.mesh_step;
  p["mesh_tol"] = a.mesh_tol;
  p["mesh_max_source_deg"] = a.mesh_max_source_deg;
  p["mesh_max_depth"] = a.mesh_max_depth;
  manifest.set_threads(threads);
}

void record_counts(Manifest& manifest, const RefinedMesh& mesh) {
  auto& c = manifest.counts();
  // Sums and extremes over millions of entries, on all threads (on one they would lengthen the
  // part of the run that otherwise only waits for the output's hash).
  std::int64_t vertices = 0, mirrored = 0;
  double mu_min = std::numeric_limits<double>::infinity(), mu_max = -mu_min;
  const auto vertex_slots = static_cast<std::int64_t>(mesh.used.size());
  const auto kept = static_cast<std::int64_t>(mesh.kept.size());
#pragma omp parallel
  {
#pragma omp for reduction(+ : vertices) nowait
    for (std::int64_t v = 0; v < vertex_slots; ++v) vertices += mesh.used[v];
#pragma omp for reduction(+ : mirrored) reduction(min : mu_min) reduction(max : mu_max)
    for (std::int64_t t = 0; t < kept; ++t) {
      mirrored += mesh.kept[t].parity < 0;
      mu_min = std::min(mu_min, mesh.kept[t].mu);
      mu_max = std::max(mu_max, mesh.kept[t].mu);
    }
  }
  c["vertices"] = vertices;
  c["triangles"] = mesh.kept.size();
  c["traced_rays"] = mesh.rays.size();
  c["passes"] = mesh.passes;
  c["dropped_before_max_depth"] = mesh.dropped_early;
  c["shadow_triangles"] = mesh.shadow_triangles;
  for (int r = 0; r < kDropReasonCount; ++r) {
    c["dropped"][drop_reason_name(static_cast<DropReason>(r))] = mesh.dropped[r];
    c["dropped_area_px2"][drop_reason_name(static_cast<DropReason>(r))] = mesh.dropped_area[r];
    c["dropped_by_order"][drop_reason_name(static_cast<DropReason>(r))] = mesh.dropped_by_order[r];
    c["dropped_area_px2_by_order"][drop_reason_name(static_cast<DropReason>(r))] =
        mesh.dropped_area_by_order[r];
  }
  c["shadow_area_px2"] = mesh.shadow_area;
  c["kept_triangles_by_depth"] = mesh.kept_by_depth;
  c["mirrored_triangles"] = mirrored;
  if (kept > 0) {
    c["mu_min"] = mu_min;
    c["mu_max"] = mu_max;
  }
}

// The azimuth series' size and agreement with the closed form, when one is used.
void record_azimuth_series(Manifest& manifest, const Spacetime& spacetime) {
  const auto* moving = dynamic_cast<const MovingObserverSpacetime*>(&spacetime);
  const auto* schwarzschild =
      dynamic_cast<const SchwarzschildSpacetime*>(moving ? &moving->at_rest() : &spacetime);
  if (!schwarzschild || !schwarzschild->azimuth_series()) return;
  const schwarzschild::AzimuthSeries& series = *schwarzschild->azimuth_series();
  auto& c = manifest.counts()["azimuth_series"];
  c["pieces"] = series.piece_count();
  c["order"] = schwarzschild::AzimuthSeries::kOrder;
  c["worst_check_error_in_tolerances"] = series.worst_check_error();
  c["closed_form_band_rad"] = schwarzschild::AzimuthSeries::kClosedFormBand;
  c["closed_form_pieces_width_rad"] = series.closed_form_width();
}

// --orbit-map: this frame's lens map from another frame's of the same circular orbit, turned
// about the orbit's axis (orbit_map.h) rather than traced.
int write_orbit_frame(const TraceOptions& options, const PathFrame& path, const TraceSetup& setup,
                      OutputSet& outputs, const std::filesystem::path& temp, Manifest& manifest) {
  if (!path.rigid_orbit)
    throw_input_error(options.path, "worldline",
                      "--orbit-map needs a circular orbit whose camera keeps its orientation to "
                      "the hole (worldline type orbit, no look.look_at)");
  PhaseTimes times;
  const LensmapReader source(options.orbit_map);
  check_orbit_map_source(source.attributes(), setup.attributes, options.orbit_map);
  TraceOptions at_source = options;
  at_source.frame = source.attributes().path_frame;
  const PathFrame from = apply_camera_path(at_source);
  const Vec3 axis = path.sky_frame == "icrs" ? Vec3{0, 0, 1} : galactic_to_icrs({0, 0, 1});
  const double angle = path.phi - from.phi;
  manifest.add_input(std::filesystem::path(options.orbit_map), "orbit_map");
  LensmapAttributes attributes = setup.attributes;
  attributes.path = path.text;
  attributes.path_frame = path.frame;
  attributes.path_time = path.time;
  RotatedMapCounts counts;
  {
    ScopedPhase phase(times, "rotate_and_write");
    counts = write_rotated_lensmap(source, axis, angle, temp, options.output, attributes);
    outputs.sync(options.output);
  }
  auto& c = manifest.counts();
  c["vertices"] = counts.vertices;
  c["triangles"] = counts.triangles;
  c["traced_rays"] = 0;
  c["shadow_triangles"] = source.attributes().shadow_triangles;
  for (const auto& [reason, dropped] : source.attributes().dropped) c["dropped"][reason] = dropped;
  c["mirrored_triangles"] = counts.mirrored_triangles;
  if (counts.triangles > 0) {
    c["mu_min"] = counts.mu_min;
    c["mu_max"] = counts.mu_max;
  }
  c["orbit_map"] = {{"source_frame", from.frame}, {"angle_deg", angle / kDegree}};
  manifest.add_timings(times);
  manifest.add_output(outputs, options.output, "lensmap");
  manifest.commit(outputs, options.output);
  if (!options.common.quiet)
    std::cerr << kTool << ": frame " << path.frame << " from frame " << from.frame << " turned by "
              << angle / kDegree << " deg: " << counts.vertices << " vertices, " << counts.triangles
              << " triangles -> " << options.output << '\n';
  return kExitOk;
}

}  // namespace

int run_trace(const TraceOptions& given, int argc, char** argv) {
  if (given.output.empty()) throw_input_error("(arguments)", "-o/--output", "required");
  TraceOptions options = given;
  PathFrame path;
  if (!options.path.empty()) path = apply_camera_path(options);
  TraceSetup setup = resolve_trace_options(options);
  if (!options.path.empty()) {
    setup.attributes.path = path.text;
    setup.attributes.path_frame = path.frame;
    setup.attributes.path_time = path.time;
  }
  const auto spacetime = make_spacetime(options.spacetime, setup.observer, setup.ray_azimuth);
  const Camera camera(setup.axes, setup.projection, setup.fov_degrees, options.width,
                      options.height);
  // Refuse before the long run, not after it.
  check_output_path(options.output, options.common.force);
  check_output_path(manifest_path_for(options.output), options.common.force);
  // Both locked before the run, committed together after it.
  OutputSet outputs(options.common.force);
  const std::filesystem::path temp = outputs.add(options.output);
  outputs.add_record(manifest_path_for(options.output));

  Manifest manifest(kTool, argc, argv);
  const int threads = apply_thread_count(options.common.threads);
  set_hash_threads(threads);
  record_parameters(manifest, setup, threads);
  if (!options.path.empty()) {
    manifest.add_input(options.path, "path");
    manifest.parameters()["path_frame"] = path.frame;
    manifest.parameters()["path_time"] = path.time;
  }
  manifest.parameters()["output"] = options.output;
  manifest.exclude_from_digest("output");
  if (!options.orbit_map.empty())
    return write_orbit_frame(options, path, setup, outputs, temp, manifest);

  PhaseTimes times;
  RefinedMesh mesh;
  {
    ScopedPhase phase(times, "trace_and_refine");
    Progress progress("tracing rays", 0, options.common.quiet);
    mesh = refine_lens_mesh(camera, *spacetime, setup.mesh,
                            [&](std::uint64_t rays) { progress.advance(rays); });
    progress.finish();
  }
  for (const auto& [step, seconds] : mesh.phases.all()) times.add(step, seconds);
  LensmapAttributes attributes = setup.attributes;
  attributes.shadow_triangles = mesh.shadow_triangles;
  for (int r = 0; r < kDropReasonCount; ++r)
    attributes.dropped[drop_reason_name(static_cast<DropReason>(r))] = mesh.dropped[r];
  // Declared before the hash's future, so that it is closed after the hash has finished.
  struct ReadBack {
    int fd = -1;
    ~ReadBack() {
      if (fd >= 0) ::close(fd);
    }
  } written;
  std::future<std::string> tree_sha256;
  std::uint64_t size = 0;
  {
    ScopedPhase phase(times, "write");
    write_refined_mesh(temp, options.output, attributes, mesh);
    // The manifest's hash of the finished file (read back from the page cache on the hash
    // pool: HDF5 writes its metadata out of order, so the bytes cannot be hashed as written),
    // while this thread waits for fsync and frees the mesh.
    size = std::filesystem::file_size(temp);
    written.fd = ::open(temp.c_str(), O_RDONLY | O_CLOEXEC);
    if (written.fd < 0) throw_run_failure(options.output, "cannot read back the written lens map");
    tree_sha256 = std::async(std::launch::async, [fd = written.fd, name = options.output] {
      return block_tree_sha256_open_file(fd, name);
    });
    outputs.sync(options.output);
  }
  record_counts(manifest, mesh);
  record_azimuth_series(manifest, *spacetime);
  const std::int64_t kept_triangles = static_cast<std::int64_t>(mesh.kept.size());
  const std::int64_t shadow_triangles = mesh.shadow_triangles;
  // The mesh's memory back to the system now, while the hash runs, rather than when the
  // process exits (where the kernel's unmapping would come after everything else).
  mesh = RefinedMesh{};
  malloc_trim(0);
  manifest.add_timings(times);
  manifest.add_output_hashed(options.output, "lensmap", size, tree_sha256.get());
  manifest.commit(outputs, options.output);
  if (!options.common.quiet)
    std::cerr << kTool << ": " << manifest.counts()["vertices"].get<std::int64_t>() << " vertices, "
              << kept_triangles << " triangles (" << shadow_triangles << " in the shadow) -> "
              << options.output << '\n';
  return kExitOk;
}

}  // namespace starlens
