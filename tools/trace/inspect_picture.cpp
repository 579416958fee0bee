#include "inspect_picture.h"

#include <algorithm>
#include <cmath>

#include "pixel_coverage.h"

namespace starlens {
namespace {

constexpr std::uint64_t kTrianglesPerRead = 1 << 16;

// Display sRGB in [0, 1] to the linear values the PNG writer encodes back.
double linear_from_display(double value) {
  return value <= 0.04045 ? value / 12.92 : std::pow((value + 0.055) / 1.055, 2.4);
}

void hsv_to_linear(double hue, double saturation, double value, double* rgb) {
  const double h = 6 * (hue - std::floor(hue));
  const int sector = static_cast<int>(h) % 6;
  const double f = h - std::floor(h);
  const double p = value * (1 - saturation), q = value * (1 - saturation * f),
               t = value * (1 - saturation * (1 - f));
  const double table[6][3] = {{value, t, p}, {q, value, p}, {p, value, t},
                              {p, q, value}, {t, p, value}, {value, p, q}};
  for (int c = 0; c < 3; ++c) rgb[c] = linear_from_display(table[sector][c]);
}

void grid_colour(const Vec3& source, bool galactic, double* rgb) {
  const auto [lon, lat] = angles_from_vector(galactic ? icrs_to_galactic(source) : source);
  const double lon_deg = lon / kDegree, lat_deg = lat / kDegree;
  const auto near_line = [](double degrees) {
    const double offset = std::fmod(degrees + 360, 30.0);
    return std::min(offset, 30 - offset) < 0.6;
  };
  if (near_line(lon_deg) || near_line(lat_deg)) {
    rgb[0] = rgb[1] = rgb[2] = 1;
    return;
  }
  const long cell = static_cast<long>(std::floor(lon_deg / 10) + std::floor(lat_deg / 10));
  const double value = cell % 2 == 0 ? 0.95 : 0.6;
  hsv_to_linear(lon_deg / 360, lat_deg >= 0 ? 0.85 : 0.45, value, rgb);
}

struct Corner {
  double x, y;
  Vec3 s;
};

void fill_triangle(Frame& frame, const Corner& a, const Corner& b, const Corner& c, bool galactic) {
  for_each_covered_pixel(frame.width, frame.height, {a.x, a.y}, {b.x, b.y}, {c.x, c.y},
                         [&](std::uint32_t i, std::uint32_t j, double wa, double wb, double wc) {
                           Vec3 s{};
                           for (int k = 0; k < 3; ++k)
                             s[k] = wa * a.s[k] + wb * b.s[k] + wc * c.s[k];
                           grid_colour(normalized(s), galactic, frame.pixel(i, j));
                         });
}

void draw_edge(Frame& frame, const Corner& a, const Corner& b) {
  const int steps = 1 + static_cast<int>(2 * std::hypot(b.x - a.x, b.y - a.y));
  for (int k = 0; k <= steps; ++k) {
    const double t = static_cast<double>(k) / steps;
    const double x = a.x + t * (b.x - a.x), y = a.y + t * (b.y - a.y);
    if (x < 0 || y < 0 || x >= frame.width || y >= frame.height) continue;
    double* rgb = frame.pixel(static_cast<std::uint32_t>(x), static_cast<std::uint32_t>(y));
    rgb[0] = rgb[1] = rgb[2] = 0.5;
  }
}

}  // namespace

Frame render_lensmap_picture(const LensmapReader& reader, bool edges) {
  const auto& attributes = reader.attributes();
  Frame frame(static_cast<std::uint32_t>(attributes.width),
              static_cast<std::uint32_t>(attributes.height));
  const bool galactic = attributes.bh_frame == "galactic";
  const auto vertices = reader.read_vertices(0, reader.vertex_count());
  const auto corner = [&](std::uint32_t v) {
    return Corner{vertices[v].x, vertices[v].y, vertices[v].direction};
  };
  for (int pass = 0; pass < (edges ? 2 : 1); ++pass) {
    for (std::uint64_t first = 0; first < reader.triangle_count(); first += kTrianglesPerRead) {
      const auto triangles = reader.read_triangles(
          first, std::min(kTrianglesPerRead, reader.triangle_count() - first));
      for (const auto& t : triangles) {
        const Corner a = corner(t.v[0]), b = corner(t.v[1]), c = corner(t.v[2]);
        if (pass == 0) {
          fill_triangle(frame, a, b, c, galactic);
        } else {
          draw_edge(frame, a, b);
          draw_edge(frame, b, c);
          draw_edge(frame, c, a);
        }
      }
    }
  }
  return frame;
}

}  // namespace starlens
