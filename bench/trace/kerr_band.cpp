// starlens-bench-kerr-band: why the Kerr benchmark view's mesh refines the band next to the
// flattened side of the shadow (docs/BENCHMARKS.md, trace). On the view of bench/trace/run.sh's
// Kerr benchmark (a = 0.998, inclination 80 deg, r_obs 30, 1920x1080, pinhole 60 deg) it traces
// single rays: the image order along row Y, the source direction's derivatives at (X, Y) and
// their scaling with the step (a smooth map: second differences go as h^2), and the producer's
// interpolation error (tools/trace/triangle_measures.h, the mesh's own criterion) of right
// isosceles triangles with legs h at (X, Y), in both orientations the bisection mesh makes.
// usage: starlens-bench-kerr-band [X] [Y]   (defaults 832 540)
#include <array>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <numbers>

#include "spacetime/vector_ops.h"
#include "trace_options.h"
#include "triangle_measures.h"

using namespace starlens;

int main(int argc, char** argv) {
  const double x0 = argc > 1 ? std::atof(argv[1]) : 832, y0 = argc > 2 ? std::atof(argv[2]) : 540;
  TraceOptions options;
  options.spacetime = "kerr";
  options.spin = 0.998;
  options.inclination = 80;
  options.fov = 60;
  const TraceSetup setup = resolve_trace_options(options);
  const auto spacetime = make_spacetime(options.spacetime, setup.observer, setup.ray_azimuth);
  const Camera camera(setup.axes, setup.projection, setup.fov_degrees, options.width,
                      options.height);
  const auto ray = [&](double x, double y) { return spacetime->trace(camera.direction(x, y)); };
  const auto source = [&](double x, double y) { return ray(x, y).source_direction; };

  std::printf("row y = %g: image order along x (-1: captured)\n", y0);
  int last = -2;
  for (double x = x0 - 40; x <= x0 + 40; x += 0.01) {
    const TracedRay r = ray(x, y0);
    const int order = r.status == RayStatus::escaped ? r.order : -1;
    if (order != last) std::printf("  from x = %.2f: %d\n", x, order);
    last = order;
  }

  std::printf("\nderivatives at (%g, %g), per pixel (central differences, step h)\n", x0, y0);
  for (const double h : {1e-2, 1e-3, 1e-4}) {
    for (int axis = 0; axis < 2; ++axis) {
      const double dx = axis == 0 ? h : 0, dy = axis == 0 ? 0 : h;
      const Vec3 minus = source(x0 - dx, y0 - dy), mid = source(x0, y0),
                 plus = source(x0 + dx, y0 + dy);
      const Vec3 first = vec::scaled(1 / (2 * h), vec::minus(plus, minus));
      const Vec3 second =
          vec::scaled(1 / (h * h), vec::plus(vec::minus(plus, vec::scaled(2, mid)), minus));
      // The second derivative off the sphere's normal and off the path's direction: how far
      // the path curves off its great circle.
      const Vec3 t = vec::normalized(first);
      const Vec3 off = vec::minus(vec::minus(second, vec::scaled(vec::dot(second, t), t)),
                                  vec::scaled(vec::dot(second, mid), mid));
      std::printf("  h %-6g %-10s |ds| %.4g rad/px   geodesic curvature %.4g rad/px^2\n", h,
                  axis == 0 ? "radial (x)" : "along (y)", vec::norm(first), vec::norm(off));
    }
  }

  std::printf("\ninterpolation error (px) of triangles with legs h at (%g, %g)\n", x0, y0);
  for (double h = 0.5; h > 0.007; h /= 2) {
    std::printf("  h %-10g", h);
    for (const double angle : {0.0, 45.0}) {
      const double c = std::cos(angle * std::numbers::pi / 180) * h,
                   s = std::sin(angle * std::numbers::pi / 180) * h;
      const std::array<double, 2> p[3] = {{x0, y0}, {x0 + c, y0 + s}, {x0 - s, y0 + c}};
      ImagePoint v[3];
      for (int k = 0; k < 3; ++k) v[k] = {p[k][0], p[k][1], source(p[k][0], p[k][1])};
      double worst = 0;
      for (int k = 0; k < 3; ++k) {
        const ImagePoint &a = v[(k + 1) % 3], &b = v[(k + 2) % 3];
        const double mx = (a.x + b.x) / 2, my = (a.y + b.y) / 2;
        const ImagePoint m{mx, my, source(mx, my)};
        worst = std::max(worst, interpolation_error(v[0], v[1], v[2], m));
      }
      std::printf("  legs at %2.0f deg: %.3e", angle, worst);
    }
    std::printf("\n");
  }
  return 0;
}
