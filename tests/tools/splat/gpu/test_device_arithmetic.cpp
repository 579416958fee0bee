// The per-event arithmetic of the GPU kernels (tools/splat/gpu/splat_device.h, host-device
// code) run on the CPU against the CPU evaluators of common/optics: event by event, every
// pixel must be bitwise the CPU's value and the contribution counts equal. Events include
// pixel centres exactly on the support circle, frame edges, centres off the frame, supports
// at and above the cache radius, and events of zero flux.
#include <doctest/doctest.h>

#include <cstring>
#include <random>
#include <vector>

#include "optics/accumulate.h"
#include "splat_device.h"

using namespace starlens;

namespace {

struct Case {
  std::uint32_t width, height;
  bool all_direct;
};

// `quads` receives the kernels' interleaved copy of the cache (it must outlive the constants).
SplatConstants constants_for(const Case& frame, const PsfModel& model, const PhaseCache& cache,
                             std::vector<PhaseQuad>& quads) {
  const std::int32_t window = 2 * model.cache_radius + 1;
  quads = interleave_phase_cache(cache);
  return {frame.width,
          frame.height,
          model.cache_radius,
          model.phases,
          window,
          frame.all_direct ? 1 : 0,
          moffat_from_fwhm(model.fwhm, model.beta),
          quads.data()};
}

// The GPU kernels' sum for one event: every pixel of the prepared box that pixel_weight
// accepts. Returns the contributions.
std::uint64_t splat_like_gpu(const StarEvent& event, const SplatConstants& c,
                             const DirectPixelRule& rule, std::vector<double>& rgb) {
  const PreparedEvent e = prepare_event(event, c);
  std::uint64_t added = 0;
  for (std::int32_t j = e.box.j0; j <= e.box.j1; ++j)
    for (std::int32_t i = e.box.i0; i <= e.box.i1; ++i) {
      double weight = 0;
      const bool adds = e.direct ? direct_pixel_weight(e, i, j, c.psf, rule, weight)
                                 : cached_pixel_weight(e, i, j, c, weight);
      if (!adds) continue;
      double* pixel = rgb.data() + 3 * (std::size_t(j) * c.width + i);
      pixel[0] += e.flux_r * weight;
      pixel[1] += e.flux_g * weight;
      pixel[2] += e.flux_b * weight;
      ++added;
    }
  // The prepared box never leaves the box the host counts tile references for.
  if (!e.box.empty()) {
    const PixelBox binning = binning_pixel_box(event.x, event.y, event.support, c.width, c.height);
    CHECK(e.box.i0 >= binning.i0);
    CHECK(e.box.i1 <= binning.i1);
    CHECK(e.box.j0 >= binning.j0);
    CHECK(e.box.j1 <= binning.j1);
    // A cached event's box fits the window: the binning keeps ranks for that many tiles.
    if (!e.direct) {
      CHECK(e.box.i1 - e.box.i0 + 1 <= c.window);
      CHECK(e.box.j1 - e.box.j0 + 1 <= c.window);
    }
  }
  return added;
}

std::vector<StarEvent> test_events(const Case& frame, double cache_radius) {
  std::mt19937_64 random(20261130);
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  std::vector<StarEvent> events;
  const double w = frame.width, h = frame.height;
  auto add = [&](double x, double y, double support, double flux) {
    events.push_back({x, y, 0.3 + 0.5 * unit(random), 0.9, 1.2 * unit(random), flux, support});
  };
  for (int n = 0; n < 400; ++n) {  // anywhere, edges and beyond included
    const double x = -25 + (w + 50) * unit(random), y = -25 + (h + 50) * unit(random);
    const double kind = unit(random);
    const double support = kind < 0.5   ? 0.2 + 6 * unit(random)
                           : kind < 0.8 ? cache_radius * unit(random)
                           : kind < 0.9 ? cache_radius
                                        : cache_radius + 30 * unit(random);
    add(x, y, support, 1e-3 + 10 * unit(random));
  }
  // Pixel centres exactly on the circle (3-4-5 and axis-aligned), at integer and half-integer
  // positions, on the frame's corners and edges.
  for (const double support : {1.0, 2.5, 5.0, 10.0, 16.0})
    for (const double x : {0.5, 7.5, 8.0, w - 0.5, w})
      for (const double y : {0.0, 0.5, 9.5, h - 0.5}) add(x, y, support, 1.0);
  add(w / 2, h / 2, 3.0, 0.0);   // zero flux: the CPU adds (and counts) nothing
  add(-17.2, h / 2, 16.0, 1.0);  // just off the left edge
  add(w + 16.9, h / 2, 17.0, 1.0);
  add(w / 2, -1e12, 5.0, 1.0);  // far off the frame
  return events;
}

void check_case(const Case& frame) {
  const PsfModel model;
  const PhaseCache cache(model);
  std::vector<PhaseQuad> quads;
  const SplatConstants c = constants_for(frame, model, cache, quads);
  const Moffat psf = c.psf;
  const DirectPixelRule rule = direct_pixel_rule(psf);  // what the direct kernel's launch passes
  std::vector<double> cpu(std::size_t(frame.width) * frame.height * 3);
  std::vector<double> gpu(cpu.size());
  std::uint64_t total = 0;
  for (const StarEvent& event : test_events(frame, model.cache_radius)) {
    std::fill(cpu.begin(), cpu.end(), 0.0);
    std::fill(gpu.begin(), gpu.end(), 0.0);
    const bool direct = frame.all_direct || event.support > model.cache_radius;
    const std::uint64_t cpu_count =
        direct
            ? accumulate_direct(event, psf, cpu.data(), frame.width, frame.height, 0, frame.height)
            : accumulate_cached(event, cache, cpu.data(), frame.width, frame.height, 0,
                                frame.height);
    const std::uint64_t gpu_count = splat_like_gpu(event, c, rule, gpu);
    INFO("event x " << event.x << " y " << event.y << " support " << event.support << " flux "
                    << event.flux << (direct ? " direct" : " cached"));
    CHECK(gpu_count == cpu_count);
    CHECK(std::memcmp(cpu.data(), gpu.data(), cpu.size() * sizeof(double)) == 0);
    total += cpu_count;
  }
  CHECK(total > 10000);  // the cases do reach the frame
}

}  // namespace

TEST_CASE("GPU event arithmetic equals the CPU evaluators bit for bit") {
  check_case({61, 47, false});  // not multiples of the tile sizes
}

TEST_CASE("GPU event arithmetic equals the CPU evaluators bit for bit: --psf-direct") {
  check_case({40, 33, true});
}
