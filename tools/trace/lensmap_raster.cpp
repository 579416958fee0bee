#include "lensmap_raster.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <numbers>
#include <optional>
#include <sstream>

#include "core/errors.h"
#include "lensmap/lensmap_camera.h"
#include "pixel_coverage.h"
#include "spacetime/schwarzschild_point_lens.h"

namespace starlens {
namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
constexpr double kDegreesPerRadian = 180 / std::numbers::pi;
constexpr std::uint64_t kTrianglesPerRead = 1 << 16;

const std::map<std::string, LensmapQuantity>& quantity_names() {
  static const std::map<std::string, LensmapQuantity> names = {
      {"mu", LensmapQuantity::mu},         {"parity", LensmapQuantity::parity},
      {"g", LensmapQuantity::g},           {"deflection", LensmapQuantity::deflection},
      {"source", LensmapQuantity::source}, {"critical", LensmapQuantity::critical},
      {"stmap", LensmapQuantity::stmap}};
  return names;
}

bool wants(const std::vector<LensmapQuantity>& quantities, LensmapQuantity q) {
  return std::find(quantities.begin(), quantities.end(), q) != quantities.end();
}

// What one covered pixel centre gets, before it is written into the planes.
struct PixelValues {
  double mu, parity, g, deflection_deg, lon, lat;
};

// The pixel planes each quantity owns, in the order they are written.
struct Planes {
  double* mu = nullptr;
  double* parity = nullptr;
  double* g = nullptr;
  double* deflection = nullptr;
  double* lon = nullptr;
  double* lat = nullptr;
  double* critical = nullptr;
  double* s = nullptr;
  double* t = nullptr;
  double* alpha = nullptr;
};

Planes add_planes(Raster& raster, const std::vector<LensmapQuantity>& quantities, bool point_mu) {
  // Pointers are taken once every plane is added (the vector may move them before).
  std::vector<std::pair<std::size_t, double**>> owners;
  Planes planes;
  const auto add = [&](double** owner, const char* name, const char* unit,
                       const std::string& description, double fill) {
    raster.add_plane(name, unit, description, fill);
    owners.emplace_back(raster.planes.size() - 1, owner);
  };
  for (const LensmapQuantity q : quantities) {
    switch (q) {
      case LensmapQuantity::mu:
        add(&planes.mu, "mu", "",
            point_mu ? "magnification, exact point value" : "magnification, triangle average",
            kNaN);
        break;
      case LensmapQuantity::parity:
        add(&planes.parity, "parity", "", "image parity, -1 mirrored", kNaN);
        break;
      case LensmapQuantity::g:
        add(&planes.g, "g", "", "frequency ratio nu_obs / nu_source", kNaN);
        break;
      case LensmapQuantity::deflection:
        add(&planes.deflection, "deflection", "deg", "angle camera ray to source direction", kNaN);
        break;
      case LensmapQuantity::source:
        add(&planes.lon, "source.lon", "deg", "source longitude in bh_frame", kNaN);
        add(&planes.lat, "source.lat", "deg", "source latitude in bh_frame", kNaN);
        break;
      case LensmapQuantity::critical:
        add(&planes.critical, "critical", "", "1 beside a pixel of the other parity", kNaN);
        break;
      case LensmapQuantity::stmap:
        add(&planes.s, "R", "", "STMap s: lat-long texture x, 0 left", 0);
        add(&planes.t, "G", "", "STMap t: lat-long texture y, 0 bottom", 0);
        add(nullptr, "B", "", "0", 0);
        add(&planes.alpha, "A", "", "1 where a kept triangle covers the pixel", 0);
        break;
    }
  }
  for (const auto& [index, owner] : owners)
    if (owner) *owner = raster.planes[index].values.data();
  return planes;
}

// Pixels of opposite parity side by side: both lie beside a critical curve.
void mark_critical(const std::vector<double>& parity, std::uint32_t width, std::uint32_t height,
                   double* critical) {
  for (std::uint32_t j = 0; j < height; ++j) {
    for (std::uint32_t i = 0; i < width; ++i) {
      const std::size_t p = std::size_t(j) * width + i;
      if (std::isnan(parity[p])) continue;
      const auto other = [&](std::size_t q) { return parity[q] == -parity[p]; };
      const bool beside = (i > 0 && other(p - 1)) || (i + 1 < width && other(p + 1)) ||
                          (j > 0 && other(p - width)) || (j + 1 < height && other(p + width));
      critical[p] = beside ? 1 : 0;
    }
  }
}

}  // namespace

std::vector<LensmapQuantity> parse_lensmap_quantities(const std::string& list) {
  std::vector<LensmapQuantity> quantities;
  std::stringstream items(list);
  std::string item;
  while (std::getline(items, item, ',')) {
    const auto found = quantity_names().find(item);
    if (found == quantity_names().end())
      throw_input_error(
          "(arguments)", "--quantity",
          "'" + item + "' is not one of mu, parity, g, deflection, source, critical, stmap");
    if (wants(quantities, found->second))
      throw_input_error("(arguments)", "--quantity", "'" + item + "' is given twice");
    quantities.push_back(found->second);
  }
  if (quantities.empty()) throw_input_error("(arguments)", "--quantity", "names no quantity");
  return quantities;
}

bool has_point_magnification(const LensmapAttributes& attributes) {
  return attributes.spacetime == "schwarzschild" && attributes.observer == "static";
}

Raster rasterize_lensmap(const LensmapReader& reader, const std::string& path,
                         const std::vector<LensmapQuantity>& quantities) {
  const LensmapAttributes& attributes = reader.attributes();
  const Camera camera = lensmap_camera(attributes, path);
  Raster raster;
  raster.width = camera.width();
  raster.height = camera.height();
  const bool point_mu = has_point_magnification(attributes);
  const Planes planes = add_planes(raster, quantities, point_mu);
  std::optional<schwarzschild::PointLens> lens;
  if (point_mu && planes.mu)
    lens.emplace(attributes.r_obs, lensmap_hole_direction(attributes, path));
  // The parity of every pixel, for the critical curves even when parity is not asked for.
  std::vector<double> parity(planes.critical ? std::size_t(raster.width) * raster.height : 0, kNaN);
  const bool galactic = attributes.bh_frame == "galactic";
  const auto vertices = reader.read_vertices(0, reader.vertex_count());

  const auto paint = [&](const LensmapTriangle& t, std::uint32_t i, std::uint32_t j,
                         const double(&w)[3]) {
    const std::size_t p = std::size_t(j) * raster.width + i;
    Vec3 s{};
    double g = 0;
    for (int k = 0; k < 3; ++k) {
      const LensmapVertex& v = vertices[t.v[k]];
      for (int c = 0; c < 3; ++c) s[c] += w[k] * v.direction[c];
      g += w[k] * v.g;
    }
    s = normalized(s);
    // The pixel centre's camera ray, for the point magnification and the deflection.
    const Vec3 ray = (lens || planes.deflection) ? camera.direction(i + 0.5, j + 0.5) : Vec3{};
    if (planes.mu) {
      double mu = t.mu;
      if (lens) {
        const double psi = lens->psi_of(ray);
        if (psi > lens->critical_angle()) {
          double phi = 0, slope = 0;
          lens->series().azimuth_and_derivative(psi, phi, slope);
          mu = std::sin(psi) / (std::abs(std::sin(phi)) * std::abs(slope));
        }
      }
      planes.mu[p] = mu;
    }
    if (planes.parity) planes.parity[p] = t.parity;
    if (!parity.empty()) parity[p] = t.parity;
    if (planes.g) planes.g[p] = g;
    if (planes.deflection) {
      planes.deflection[p] = kDegreesPerRadian * std::atan2(norm(cross(ray, s)), dot(ray, s));
    }
    if (planes.lon || planes.s) {
      auto [lon, lat] = angles_from_vector(galactic ? icrs_to_galactic(s) : s);
      if (planes.lon) {
        planes.lon[p] = kDegreesPerRadian * lon;
        planes.lat[p] = kDegreesPerRadian * lat;
      }
      if (planes.s) {
        if (lon > std::numbers::pi) lon -= 2 * std::numbers::pi;  // (-180, 180]
        planes.s[p] = 0.5 - lon / (2 * std::numbers::pi);
        planes.t[p] = 0.5 + lat / std::numbers::pi;
        planes.alpha[p] = 1;
      }
    }
  };

  for (std::uint64_t first = 0; first < reader.triangle_count(); first += kTrianglesPerRead) {
    const auto triangles =
        reader.read_triangles(first, std::min(kTrianglesPerRead, reader.triangle_count() - first));
    for (std::size_t n = 0; n < triangles.size(); ++n) {
      const LensmapTriangle& t = triangles[n];
      const auto corner = [&](int k) {
        return ImageCorner{vertices[t.v[k]].x, vertices[t.v[k]].y};
      };
      // A pixel centre on a shared edge is painted by both triangles, the later one in the
      // file last: the same raster on every run.
      for_each_covered_pixel(
          raster.width, raster.height, corner(0), corner(1), corner(2),
          [&](std::uint32_t i, std::uint32_t j, double wa, double wb, double wc) {
            paint(t, i, j, {wa, wb, wc});
          });
    }
  }
  if (planes.critical) mark_critical(parity, raster.width, raster.height, planes.critical);
  return raster;
}

}  // namespace starlens
