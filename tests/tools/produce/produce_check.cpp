// Checks an event stream against references computed here, independently of the producer:
// the design's pinhole camera (pinhole_camera.h), exact Schwarzschild images found
// by bisection on the spacetime's ray map, and each star's unlensed colour by exact
// integration (colour/observed_colour.h). Prints what it measured; exits 1 on a failure.
//   minkowski EVENTS STARS.csv --bh-ra --bh-dec --fov --width --height [--band]
//   images EVENTS --r-obs --bh-ra --bh-dec --fov --width --height --star-ra --star-dec
//          --teff --flux [--band] --position-tolerance PX --lensmap MAP
//   ring EVENTS --r-obs --bh-ra --bh-dec --fov --width --height --mesh-step PX
#include <CLI/CLI.hpp>
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <numbers>
#include <optional>
#include <sstream>
#include <vector>

#include "catalog/photometry.h"
#include "colour/colour_table.h"
#include "colour/flux_unit.h"
#include "colour/observed_colour.h"
#include "events/event_stream.h"
#include "lensmap/lensmap_file.h"
#include "pinhole_camera.h"
#include "spacetime/schwarzschild.h"

using namespace starlens;
using produce::testing::PinholeCamera;

namespace {

int failures = 0;
void expect(bool ok, const std::string& what) {
  if (!ok) {
    std::printf("FAIL: %s\n", what.c_str());
    ++failures;
  }
}

std::vector<StarEvent> read_events(const std::string& path) {
  EventReader reader(path);
  std::vector<StarEvent> all, chunk;
  ChunkInfo info;
  while (reader.next_chunk(chunk, info)) all.insert(all.end(), chunk.begin(), chunk.end());
  return all;
}

struct CameraOptions {
  double bh_ra = 0, bh_dec = 0, fov = 40;
  std::uint32_t width = 256, height = 256;
  PinholeCamera camera() const {
    return {unit_vector_from_angles(bh_ra * kDegree, bh_dec * kDegree), fov, width, height};
  }
};

// Unlensed Y of a star (mu = g = 1), and the observed one through (mu, g). The store keeps
// temperature and flux density as float32, so the reference starts from those roundings.
double star_flux(const std::string& band, double teff, double flux_jy, double mu = 1,
                 double g = 1) {
  teff = static_cast<float>(teff);
  flux_jy = static_cast<float>(flux_jy);
  const double k =
      spectrum_scale_k(flux_jy, catalog::band_by_name(band, "--band").wavelength_um, teff);
  return observed_colour_exact(g * teff, mu * k).flux;
}

int check_minkowski(const std::string& events_path, const std::string& stars_path,
                    const CameraOptions& options, const std::string& band) {
  const PinholeCamera camera = options.camera();
  const std::vector<StarEvent> events = read_events(events_path);
  std::ifstream in(stars_path);
  std::string line;
  double worst_position = 0, worst_flux = 0, expected_total = 0, total = 0;
  std::size_t in_field = 0;
  std::vector<bool> used(events.size(), false);
  const double tolerance = colour_table_max_relative_error() + 1e-12;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#') continue;
    std::replace(line.begin(), line.end(), ',', ' ');
    std::istringstream fields(line);
    double ra, dec, teff, flux;
    fields >> ra >> dec >> teff >> flux;
    const Vec3 d = unit_vector_from_angles(ra * kDegree, dec * kDegree);
    if (dot(d, camera.forward) <= 0) continue;
    const auto xy = camera.project(d);
    if (!(xy[0] > 0 && xy[0] < options.width && xy[1] > 0 && xy[1] < options.height)) continue;
    ++in_field;
    const double y = star_flux(band, teff, flux);
    expected_total += y;
    std::size_t best = events.size();
    double best_distance = 1e300;
    for (std::size_t e = 0; e < events.size(); ++e) {
      const double distance = std::hypot(events[e].x - xy[0], events[e].y - xy[1]);
      if (distance < best_distance) best_distance = distance, best = e;
    }
    if (best == events.size()) {
      expect(false, "no event for the star at " + std::to_string(ra) + ", " + std::to_string(dec));
      continue;
    }
    expect(!used[best], "two stars matched one event");
    used[best] = true;
    worst_position = std::max(worst_position, best_distance);
    worst_flux = std::max(worst_flux, std::abs(events[best].flux - y) / y);
  }
  for (const StarEvent& event : events) total += event.flux;
  const double total_error = std::abs(total - expected_total) / expected_total;
  std::printf(
      "minkowski: %zu stars in the field, %zu events, worst position error %.3g px, worst "
      "relative flux error %.3g, total Y %.15g vs %.15g (relative %.3g), tolerance %.3g\n",
      in_field, events.size(), worst_position, worst_flux, total, expected_total, total_error,
      tolerance);
  expect(in_field > 0, "stars in the field");
  expect(events.size() == in_field, "one event per star in the field");
  expect(worst_position <= 1e-6, "positions within 1e-6 px");
  expect(worst_flux <= tolerance, "fluxes equal to the unlensed Y");
  expect(total_error <= tolerance, "total Y equal to the sum over the stars in the field");
  return failures ? 1 : 0;
}

// The Schwarzschild images of a star: camera rays in the plane of the hole h and the star,
// d(psi) = cos(psi) h + side sin(psi) e, whose source direction is the star's.
struct ExactImage {
  double psi;
  int side;
  double magnification;
  std::array<double, 2> pixel;
};

// The lens map's triangle holding an image pixel: its vertices' pixel positions.
std::optional<std::array<std::array<double, 2>, 3>> triangle_at(const LensmapReader& map,
                                                                const std::array<double, 2>& p) {
  const auto vertices = map.read_vertices(0, map.vertex_count());
  for (const LensmapTriangle& t : map.read_triangles(0, map.triangle_count())) {
    std::array<std::array<double, 2>, 3> xy;
    for (int i = 0; i < 3; ++i) xy[i] = {vertices[t.v[i]].x, vertices[t.v[i]].y};
    bool inside = true;
    for (int i = 0; i < 3; ++i) {
      const auto& a = xy[i];
      const auto& b = xy[(i + 1) % 3];
      inside = inside && (b[0] - a[0]) * (p[1] - a[1]) - (b[1] - a[1]) * (p[0] - a[0]) >= 0;
    }
    if (inside) return xy;
  }
  return std::nullopt;
}

struct ExactMap {
  const SchwarzschildSpacetime& spacetime;
  Vec3 hole;
  Vec3 toward;  // unit, normal to hole: the plane of the images
  double beta;  // the star's angle from the hole
  // The ray at angle psi from the hole on `side` of it, and the signed angle of its source
  // from the hole toward `toward`, minus beta.
  Vec3 ray(double psi, int side) const {
    const double s = side * std::sin(psi);
    return {std::cos(psi) * hole[0] + s * toward[0], std::cos(psi) * hole[1] + s * toward[1],
            std::cos(psi) * hole[2] + s * toward[2]};
  }
  double mismatch(double psi, int side) const {
    const Vec3 q = spacetime.trace(ray(psi, side)).source_direction;
    return std::atan2(dot(q, toward), dot(q, hole)) - beta;
  }
  // mu(psi) = |sin(psi) / (sin(source angle) d(source angle)/dpsi)|: axisymmetric, so it
  // depends on psi alone.
  double magnification(double psi) const {
    const double h = 1e-6;
    const double source = mismatch(psi, 1) + beta;
    const double derivative = (mismatch(psi + h, 1) - mismatch(psi - h, 1)) / (2 * h);
    return std::abs(std::sin(psi) / (std::sin(source) * derivative));
  }
};

std::vector<ExactImage> exact_images(const ExactMap& map, const PinholeCamera& camera,
                                     double r_obs) {
  const double critical = std::asin(3 * std::sqrt(3.0) * std::sqrt(1 - 2 / r_obs) / r_obs);
  std::vector<ExactImage> images;
  for (const int side : {1, -1}) {
    const auto mismatch = [&](double psi) { return map.mismatch(psi, side); };
    const int steps = 20000;
    double previous_psi = critical + 1e-6, previous = mismatch(previous_psi);
    for (int k = 1; k <= steps; ++k) {
      const double psi = critical + 1e-6 + (std::numbers::pi / 2 - critical) * k / steps;
      const double value = mismatch(psi);
      if (std::signbit(value) != std::signbit(previous) && std::abs(value - previous) < 1) {
        double lo = previous_psi, hi = psi, flo = previous;
        for (int it = 0; it < 200 && hi - lo > 1e-15; ++it) {
          const double mid = 0.5 * (lo + hi), fmid = mismatch(mid);
          if (std::signbit(fmid) == std::signbit(flo))
            lo = mid, flo = fmid;
          else
            hi = mid;
        }
        const double root = 0.5 * (lo + hi);
        images.push_back(
            {root, side, map.magnification(root), camera.project(map.ray(root, side))});
      }
      previous_psi = psi;
      previous = value;
    }
  }
  return images;
}

struct StarOptions {
  double ra = 0, dec = 0, teff = 5800, flux = 1;
};

int check_images(const std::string& events_path, const CameraOptions& options, double r_obs,
                 const StarOptions& star, const std::string& band, double position_tolerance,
                 const std::string& lensmap_path) {
  const PinholeCamera camera = options.camera();
  const Vec3 hole = camera.forward;
  const SchwarzschildSpacetime spacetime({r_obs, hole});
  const Vec3 direction = unit_vector_from_angles(star.ra * kDegree, star.dec * kDegree);
  const ExactMap exact{spacetime, hole,
                       normalized({direction[0] - dot(direction, hole) * hole[0],
                                   direction[1] - dot(direction, hole) * hole[1],
                                   direction[2] - dot(direction, hole) * hole[2]}),
                       std::atan2(norm(cross(hole, direction)), dot(hole, direction))};
  const std::vector<ExactImage> images = exact_images(exact, camera, r_obs);
  const LensmapReader lensmap(lensmap_path);
  const std::vector<StarEvent> events = read_events(events_path);
  const double g = spacetime.frequency_ratio();
  std::vector<std::array<double, 2>> found;
  int matched = 0;
  for (const ExactImage& image : images) {
    const bool visible = image.pixel[0] > 0 && image.pixel[0] < options.width &&
                         image.pixel[1] > 0 && image.pixel[1] < options.height;
    const double unit = star_flux(band, star.teff, star.flux, 1, g);  // Y per unit mu
    const double expected = unit * image.magnification;
    double best = 1e300;
    const StarEvent* nearest = nullptr;
    for (const StarEvent& event : events) {
      const double distance = std::hypot(event.x - image.pixel[0], event.y - image.pixel[1]);
      if (distance < best) best = distance, nearest = &event;
    }
    std::printf(
        "image side %+d psi %.6f deg at (%.4f, %.4f) px, mu %.6g, expected Y %.6g; nearest "
        "event %.3g px away",
        image.side, image.psi / kDegree, image.pixel[0], image.pixel[1], image.magnification,
        expected, best);
    // The lens-map triangle's mu (image over source solid angle: a harmonic mean of the
    // exact mu over the triangle) lies within the exact mu's range over its vertices' psi.
    double low = 1e300, high = 0;
    if (const auto triangle = triangle_at(lensmap, image.pixel)) {
      double psi_low = std::numbers::pi, psi_high = 0;
      for (const auto& vertex : *triangle) {
        const double psi = std::acos(std::min(1.0, dot(camera.ray(vertex[0], vertex[1]), hole)));
        psi_low = std::min(psi_low, psi);
        psi_high = std::max(psi_high, psi);
      }
      for (int k = 0; k <= 40; ++k) {
        const double value = exact.magnification(psi_low + (psi_high - psi_low) * k / 40);
        low = std::min(low, value);
        high = std::max(high, value);
      }
    }
    if (nearest)
      std::printf(" with Y %.6g: mu %.6g (exact %.6g, over its triangle %.6g .. %.6g)",
                  nearest->flux, nearest->flux / unit, image.magnification, low, high);
    std::printf("%s\n", visible ? "" : " (outside the frame)");
    // Primary (side +1) and secondary (side -1), the two outside the photon ring's crowd.
    if (!visible ||
        image.psi < 1.05 * std::asin(3 * std::sqrt(3.0) * std::sqrt(1 - 2 / r_obs) / r_obs))
      continue;
    expect(best <= position_tolerance, "image within the position tolerance");
    if (nearest) {
      const double mu = nearest->flux / unit;
      // 1e-3: the flat image triangle against the curved preimage of the source triangle.
      expect(mu >= low * (1 - 1e-3) && mu <= high * (1 + 1e-3),
             "image magnification within the exact map's range over its triangle");
      found.push_back({nearest->x - 0.5 * options.width, nearest->y - 0.5 * options.height});
    }
    ++matched;
  }
  expect(matched == 2, "a primary and a secondary image (" + std::to_string(matched) + ")");
  if (found.size() == 2) {
    const double along = found[0][0] * found[1][0] + found[0][1] * found[1][1];
    const double across = found[0][0] * found[1][1] - found[0][1] * found[1][0];
    std::printf("images relative to the hole: (%.3f, %.3f) and (%.3f, %.3f)\n", found[0][0],
                found[0][1], found[1][0], found[1][1]);
    expect(along < 0, "images on opposite sides of the hole");
    expect(std::abs(across) <=
               0.02 * std::hypot(found[0][0], found[0][1]) * std::hypot(found[1][0], found[1][1]),
           "images on one line through the hole");
  }
  return failures ? 1 : 0;
}

int check_ring(const std::string& events_path, const CameraOptions& options, double r_obs,
               double step) {
  const PinholeCamera camera = options.camera();
  const Vec3 hole = camera.forward;
  const SchwarzschildSpacetime spacetime({r_obs, hole});
  // The Einstein angle: the ray in any plane through the hole whose source is the hole's
  // direction (the primary ring, outside the photon ring's crowd).
  const Vec3 e = camera.up;
  const auto beta = [&](double psi) {
    const Vec3 q = spacetime
                       .trace({std::cos(psi) * hole[0] + std::sin(psi) * e[0],
                               std::cos(psi) * hole[1] + std::sin(psi) * e[1],
                               std::cos(psi) * hole[2] + std::sin(psi) * e[2]})
                       .source_direction;
    return std::atan2(dot(q, e), dot(q, hole));
  };
  double lo = std::asin(3 * std::sqrt(3.0) * std::sqrt(1 - 2 / r_obs) / r_obs) * 1.05,
         hi = std::numbers::pi / 2;
  for (int it = 0; it < 200; ++it) {
    const double mid = 0.5 * (lo + hi);
    (beta(mid) < 0 ? lo : hi) = mid;
  }
  const double einstein = 0.5 * (lo + hi);
  const double ring_px = camera.focal * std::tan(einstein);
  const std::vector<StarEvent> events = read_events(events_path);
  std::vector<int> bins(36, 0);
  double worst = 0;
  for (const StarEvent& event : events) {
    const double dx = event.x - 0.5 * options.width, dy = event.y - 0.5 * options.height;
    worst = std::max(worst, std::abs(std::hypot(dx, dy) - ring_px));
    const double azimuth = std::atan2(dy, dx) + std::numbers::pi;
    ++bins[std::min(35, static_cast<int>(azimuth / (2 * std::numbers::pi) * 36))];
  }
  const auto lit = std::count_if(bins.begin(), bins.end(), [](int n) { return n > 0; });
  std::printf(
      "ring: Einstein angle %.6f deg = %.4f px, %zu events, worst distance from the ring %.4f "
      "px, %ld of 36 azimuth bins lit\n",
      einstein / kDegree, ring_px, events.size(), worst, static_cast<long>(lit));
  expect(events.size() >= 36, "many events along the ring");
  expect(worst <= std::sqrt(2.0) * step, "every event within one mesh cell of the ring");
  expect(lit == 36, "every azimuth lit");
  return failures ? 1 : 0;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"Checks starlens-produce's events against independent references"};
  app.require_subcommand(1);
  std::string events, stars, band = "V";
  CameraOptions camera;
  StarOptions star;
  double r_obs = 100, position_tolerance = 0.01, step = 4;
  auto* minkowski = app.add_subcommand("minkowski");
  auto* images = app.add_subcommand("images");
  auto* ring = app.add_subcommand("ring");
  for (auto* command : {minkowski, images, ring}) {
    command->add_option("events", events)->required();
    if (command == minkowski) command->add_option("stars", stars)->required();
    command->add_option("--bh-ra", camera.bh_ra);
    command->add_option("--bh-dec", camera.bh_dec);
    command->add_option("--fov", camera.fov);
    command->add_option("--width", camera.width);
    command->add_option("--height", camera.height);
    command->add_option("--band", band);
  }
  for (auto* command : {images, ring}) command->add_option("--r-obs", r_obs);
  images->add_option("--star-ra", star.ra);
  images->add_option("--star-dec", star.dec);
  images->add_option("--teff", star.teff);
  images->add_option("--flux", star.flux);
  images->add_option("--position-tolerance", position_tolerance);
  std::string lensmap;
  images->add_option("--lensmap", lensmap)->required();
  ring->add_option("--mesh-step", step);
  CLI11_PARSE(app, argc, argv);
  try {
    if (*minkowski) return check_minkowski(events, stars, camera, band);
    if (*images)
      return check_images(events, camera, r_obs, star, band, position_tolerance, lensmap);
    return check_ring(events, camera, r_obs, step);
  } catch (const std::exception& error) {
    std::printf("FAIL: %s\n", error.what());
    return 1;
  }
}
