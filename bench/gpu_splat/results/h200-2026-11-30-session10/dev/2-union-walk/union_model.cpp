// A model of scatter16's tile lists on the CPU: 2^22 events of a stream binned into 16 px tiles,
// each list ordered by position cell (argument 2: cells a side, 1 = no order) as the experiment's
// binning orders it, cut into groups of 4 references: how many groups' box unions fit 64, 96, 128
// pixels, and the walk steps a reference takes alone or in its group's union.
// Build (repo root, after a -Dgpu=cuda build): g++ -std=c++20 -O2 -I. -Icommon -Itools/splat/gpu
//   -Ibuild-cuda -Ibuild-cuda/common -o union_model union_model.cpp
//   build-cuda/common/events/libstarlens_events.a build-cuda/common/core/libstarlens_core.a
//   build-cuda/common/*/lib*.a -lxxhash -lssl -lcrypto
// Run: union_model events.sle 8
#include <algorithm>
#include <cstdio>
#include <map>
#include <vector>

#include "events/event_stream.h"
#include "splat_device.h"  // tools/splat/gpu
using namespace starlens;
int main(int argc, char** argv) {
  EventReader reader(argv[1], StreamHash::none);
  const auto& h = reader.header();
  SplatConstants c{};
  c.width = h.width;
  c.height = h.height;
  c.cache_radius = h.psf.cache_radius;
  c.phases = h.psf.phases;
  c.window = 2 * c.cache_radius + 1;
  const int T = 16, order = argc > 2 ? atoi(argv[2]) : 8;
  const int cols = (h.width + T - 1) / T, rows = (h.height + T - 1) / T;
  std::vector<std::vector<std::pair<int, PixelBox>>> lists(cols * rows);  // (cell, clipped box)
  std::vector<StarEvent> ev;
  ChunkInfo info;
  long n = 0;
  while (reader.next_chunk(ev, info) && n < 4194304)
    for (auto& e : ev) {
      ++n;
      PreparedEvent p = prepare_event(e, c);
      if (p.direct || p.box.empty()) continue;
      for (int ty = p.box.j0 / T; ty <= p.box.j1 / T; ++ty)
        for (int tx = p.box.i0 / T; tx <= p.box.i1 / T; ++tx) {
          PixelBox b{std::max(p.box.i0, tx * T), std::min(p.box.i1, tx * T + T - 1),
                     std::max(p.box.j0, ty * T), std::min(p.box.j1, ty * T + T - 1)};
          int x = std::clamp((p.box.i0 + p.box.i1) / 2 - tx * T, 0, T - 1),
              y = std::clamp((p.box.j0 + p.box.j1) / 2 - ty * T, 0, T - 1);
          int cell = (y * order / T) * order + x * order / T;
          lists[ty * cols + tx].push_back({cell, b});
        }
    }
  long refs = 0, groups = 0, le64 = 0, le96 = 0, le128 = 0;
  double steps_single = 0, steps_union = 0, area = 0;
  std::map<int, long> hist;
  for (auto& l : lists) {
    std::stable_sort(l.begin(), l.end(), [](auto& a, auto& b) { return a.first < b.first; });
    for (size_t g = 0; g < l.size(); g += 4) {
      PixelBox u = l[g].second;
      double s = 0;
      for (size_t k = g; k < std::min(l.size(), g + 4); ++k) {
        auto b = l[k].second;
        u = {std::min(u.i0, b.i0), std::max(u.i1, b.i1), std::min(u.j0, b.j0),
             std::max(u.j1, b.j1)};
        int a = (b.i1 - b.i0 + 1) * (b.j1 - b.j0 + 1);
        area += a;
        s += (a + 31) / 32;
        ++refs;
        hist[std::min(a, 256) / 16]++;
      }
      int ua = (u.i1 - u.i0 + 1) * (u.j1 - u.j0 + 1);
      ++groups;
      le64 += ua <= 64;
      le96 += ua <= 96;
      le128 += ua <= 128;
      steps_single += s;
      steps_union += (ua + 31) / 32;
    }
  }
  printf(
      "order %d: events %ld refs %ld (%.2f/event) mean piece area %.1f, steps/ref %.2f; groups "
      "%ld: union<=64 %.1f%% <=96 %.1f%% <=128 %.1f%%; union steps/ref %.2f\n",
      order, n, refs, double(refs) / n, area / refs, steps_single / refs, groups,
      100.0 * le64 / groups, 100.0 * le96 / groups, 100.0 * le128 / groups, steps_union / refs);
  for (auto [k, v] : hist)
    printf("  area %3d-%3d: %5.1f%%\n", k * 16, k * 16 + 15, 100.0 * v / refs);
}
