// starlens-bench-direct: the direct evaluator (accumulate_direct, direct_pixel_integral per
// pixel) against the same loop with every pixel integrated exactly (moffat_rectangle_integral,
// the evaluator before the tensor rule), on one thread and the same direct events: time,
// contributions per second of each (thread CPU time), the speed-up, and the largest difference
// between the two frames' pixels; then the same events' pixels by the path the direct evaluator
// takes (tensor rule, cut-pixel rule, sub-squares, exact quadrature for the rest), each
// path's share and time per pixel, against the exact quadrature on the same pixels.
// Events: the `mixed` synthetic field's direct events (bench/synth_events) for the given PSF.
#include <CLI/CLI.hpp>
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <ctime>
#include <vector>

#include "core/tool_main.h"
#include "optics/accumulate.h"
#include "optics/direct_pixel.h"
#include "optics/moffat.h"
#include "synth_field.h"

namespace starlens {
namespace {

// accumulate_direct's loop over rows and columns with the exact pixel integral.
std::uint64_t accumulate_exact(const StarEvent& event, const Moffat& psf, double* rgb,
                               std::uint32_t width, std::uint32_t height) {
  const double support = event.support;
  const double first = std::max(0.0, std::floor(event.y - support));
  const double last = std::min(height - 1.0, std::ceil(event.y + support) - 1);
  std::uint64_t contributions = 0;
  for (std::int64_t row = std::int64_t(first); row <= std::int64_t(last); ++row) {
    const double y0 = row - event.y, y1 = row + 1 - event.y;
    const double nearest_dy = y0 > 0 ? y0 : y1 < 0 ? -y1 : 0.0;
    if (!(nearest_dy < support)) continue;
    const double reach = std::sqrt((support - nearest_dy) * (support + nearest_dy));
    const double lo = std::max(0.0, std::floor(event.x - reach));
    const double hi = std::min(width - 1.0, std::ceil(event.x + reach) - 1);
    double* out = rgb + 3 * std::size_t(row) * width;
    for (std::int64_t column = std::int64_t(lo); column <= std::int64_t(hi); ++column) {
      const double weight =
          moffat_rectangle_integral(psf, column - event.x, column + 1 - event.x, y0, y1, support);
      out[3 * column] += event.flux * event.r * weight;
      out[3 * column + 1] += event.flux * event.g * weight;
      out[3 * column + 2] += event.flux * event.b * weight;
    }
    if (hi >= lo) contributions += std::uint64_t(hi - lo + 1);
  }
  return contributions;
}

// One pixel of an event, relative to its centre, and its support.
struct Pixel {
  double x0, x1, y0, y1, support;
};

// The pixels accumulate_direct visits for `events`, sorted by the path direct_pixel_integral
// takes: 0 tensor rule, 1 cut-pixel rule, 2 exact (cut), 3 sub-squares, 4 exact (centre).
void pixels_by_path(const std::vector<StarEvent>& events, const DirectPixelRule& rule,
                    std::uint32_t width, std::uint32_t height, std::vector<Pixel> (&paths)[5]) {
  for (const StarEvent& e : events) {
    const double first = std::max(0.0, std::floor(e.y - e.support));
    const double last = std::min(height - 1.0, std::ceil(e.y + e.support) - 1);
    for (std::int64_t row = std::int64_t(first); row <= std::int64_t(last); ++row) {
      const double y0 = row - e.y, y1 = row + 1 - e.y;
      const double nearest_dy = y0 > 0 ? y0 : y1 < 0 ? -y1 : 0.0;
      if (!(nearest_dy < e.support)) continue;
      const double reach = std::sqrt((e.support - nearest_dy) * (e.support + nearest_dy));
      const double lo = std::max(0.0, std::floor(e.x - reach));
      const double hi = std::min(width - 1.0, std::ceil(e.x + reach) - 1);
      for (std::int64_t column = std::int64_t(lo); column <= std::int64_t(hi); ++column) {
        const Pixel p{column - e.x, column + 1 - e.x, y0, y1, e.support};
        int path = 0;
        if (direct_pixel_order(rule, p.x0, p.x1, p.y0, p.y1, p.support) == 0) {
          if (direct_pixel_cut(p.x0, p.x1, p.y0, p.y1, p.support)) {
            path = direct_cut_order(rule, p.x0, p.x1, p.y0, p.y1, p.support) > 0 ? 1 : 2;
          } else {
            path = direct_subdivision(rule, p.x0, p.x1, p.y0, p.y1, p.support) > 0 ? 3 : 4;
          }
        }
        paths[path].push_back(p);
      }
    }
  }
}

// CPU time of this thread: on a shared machine less disturbed by other load than wall time.
double thread_seconds() {
  timespec t{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  return double(t.tv_sec) + 1e-9 * double(t.tv_nsec);
}

int run(int argc, char** argv) {
  CLI::App app{"starlens-bench-direct: the direct evaluator against exact pixel integrals"};
  synth::FieldOptions field;
  field.distribution = synth::Distribution::mixed;
  field.width = 1024;
  field.height = 1024;
  field.psf.min_y = 1e-10;
  std::uint32_t events = 300;
  app.add_option("--events", events, "Direct events timed")->capture_default_str();
  app.add_option("--psf-fwhm", field.psf.fwhm, "Moffat FWHM, px")->capture_default_str();
  app.add_option("--psf-beta", field.psf.beta, "Moffat beta (> 1)")->capture_default_str();
  app.add_option("--psf-min-y", field.psf.min_y, "Visibility floor")->capture_default_str();
  app.add_option("--psf-max-radius", field.psf.max_radius, "Bound on direct supports, px")
      ->capture_default_str();
  app.add_option("--flux-max", field.flux_max, "Largest flux drawn, Vega units")
      ->capture_default_str();
  app.add_option("--flux-slope", field.flux_slope, "Power law dN/dF ~ F^-slope")
      ->capture_default_str();
  app.add_option("--seed", field.seed, "Random seed")->capture_default_str();
  CLI11_PARSE(app, argc, argv);

  synth::SyntheticField source(field);
  std::vector<StarEvent> direct;
  while (direct.size() < events) {
    const StarEvent e = source.next();
    if (e.support > field.psf.cache_radius) direct.push_back(e);
  }
  const Moffat psf = moffat_from_fwhm(field.psf.fwhm, field.psf.beta);
  const std::uint32_t w = field.width, h = field.height;
  std::vector<double> fast(std::size_t(w) * h * 3), exact(fast.size());
  accumulate_direct(direct[0], psf, fast.data(), w, h, 0, h);  // builds the thread's rule
  std::fill(fast.begin(), fast.end(), 0.0);

  double start = thread_seconds();
  std::uint64_t fast_count = 0;
  for (const StarEvent& e : direct)
    fast_count += accumulate_direct(e, psf, fast.data(), w, h, 0, h);
  const double fast_s = thread_seconds() - start;
  start = thread_seconds();
  std::uint64_t exact_count = 0;
  for (const StarEvent& e : direct) exact_count += accumulate_exact(e, psf, exact.data(), w, h);
  const double exact_s = thread_seconds() - start;

  double worst = 0, largest = 0;
  for (double v : exact) largest = std::max(largest, std::fabs(v));
  for (std::size_t k = 0; k < fast.size(); ++k)
    if (exact[k] > 1e-300) worst = std::max(worst, std::fabs(fast[k] / exact[k] - 1));
  double mean_support = 0;
  for (const StarEvent& e : direct) mean_support += e.support / direct.size();
  std::printf("events %zu (mean support %.1f px), fwhm %g, beta %g, min_y %g, max radius %g\n",
              direct.size(), mean_support, field.psf.fwhm, field.psf.beta, field.psf.min_y,
              field.psf.max_radius);
  std::printf("contributions %llu (exact loop %llu)\n", (unsigned long long)fast_count,
              (unsigned long long)exact_count);
  std::printf("exact   %8.3f s %8.3f M contributions/s (thread CPU time)\n", exact_s,
              exact_count / exact_s / 1e6);
  std::printf("direct  %8.3f s %8.3f M contributions/s (thread CPU time)\n", fast_s,
              fast_count / fast_s / 1e6);
  std::printf("speed-up %.2f\n", exact_s / fast_s);
  std::printf("largest relative frame difference %.3e\n", worst);

  const DirectPixelRule rule = direct_pixel_rule(psf);
  std::vector<Pixel> paths[5];
  volatile double sink = 0;  // keeps the timed sums
  pixels_by_path(direct, rule, w, h, paths);
  const char* names[5] = {"tensor rule", "cut-pixel rule", "exact, cut", "sub-squares",
                          "exact, centre"};
  std::printf("%-15s %8s %7s %12s %12s\n", "path", "pixels", "share", "us/pixel", "exact us/px");
  for (int path = 0; path < 5; ++path) {
    double checksum = 0;
    start = thread_seconds();
    for (const Pixel& p : paths[path])
      checksum += direct_pixel_integral(psf, rule, p.x0, p.x1, p.y0, p.y1, p.support);
    const double path_s = thread_seconds() - start;
    start = thread_seconds();
    for (const Pixel& p : paths[path])
      checksum -= moffat_rectangle_integral(psf, p.x0, p.x1, p.y0, p.y1, p.support);
    const double exact_path_s = thread_seconds() - start;
    if (paths[path].empty()) continue;
    const double count = double(paths[path].size());
    std::printf("%-15s %8zu %6.2f%% %12.3f %12.3f\n", names[path], paths[path].size(),
                100.0 * paths[path].size() / double(fast_count), path_s / count * 1e6,
                exact_path_s / count * 1e6);
    sink = sink + checksum;
  }
  return fast_count == exact_count ? 0 : 1;
}

}  // namespace
}  // namespace starlens

int main(int argc, char** argv) {
  return starlens::run_tool("starlens-bench-direct", [&] { return starlens::run(argc, argv); });
}
