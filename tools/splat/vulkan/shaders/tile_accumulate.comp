#version 450
// Accumulate the cached events: a workgroup per 16 x 16 tile, an invocation per pixel. The
// tile's pixels are read from the frame into workgroup-local doubles, the tile's events (in
// stream order, tile_sort.comp) are staged into shared memory 64 at a time and each invocation
// adds, event after event, what falls on its pixel; the tile is then merged back into the
// frame. A dispatch takes a window of each list (pc.list_first, pc.list_window): llvmpipe ends
// a shader's loops after 65,535 iterations in all. Each pixel receives its events'
// contributions in the CPU's order and with the CPU's arithmetic (accumulate_cached: the same
// operations, none fused, so the same bits).
#extension GL_GOOGLE_include_directive : require
#include "splat_layout.glsl"
layout(local_size_x = 16, local_size_y = 16) in;

const uint kStaged = 64u;
shared Prepared staged[kStaged];
shared double tile_rgb[3u * 256u];
shared uint tile_contributions[256];

void main() {
  const uint tile = workgroup_linear();
  if (tile >= pc.tile_count) return;
  const uvec2 window = list_window(tile);
  const uint begin = window.x, end = window.y;
  if (begin == end) return;
  const uint thread = gl_LocalInvocationIndex;
  const int px = int((tile % pc.tiles_x) * kTileSide + gl_LocalInvocationID.x);
  const int py = int((tile / pc.tiles_x) * kTileSide + gl_LocalInvocationID.y);
  const bool inside = px < int(pc.width) && py < int(pc.height);
  const uint pixel = 3u * (uint(py) * pc.width + uint(px));
  if (inside) {
    tile_rgb[3u * thread] = frame[pixel];
    tile_rgb[3u * thread + 1u] = frame[pixel + 1u];
    tile_rgb[3u * thread + 2u] = frame[pixel + 2u];
  }
  uint contributions = 0u;
  for (uint base = begin; base < end; base += kStaged) {
    barrier();
    if (thread < kStaged && base + thread < end) staged[thread] = prepared[tile_refs[base + thread]];
    barrier();
    const uint staged_count = inside ? min(kStaged, end - base) : 0u;
    for (uint k = 0u; k < staged_count; ++k) {
      bool on = py >= staged[k].row_first && py <= staged[k].row_last &&
                px >= staged[k].col_first && px <= staged[k].col_last;
      double weight = 0.0LF;
      // accumulate_cached's row chord and weight.
      if (on) {
        const int bias = pc.radius + 3;
        const int di = px - staged[k].ix, dj = py - staged[k].iy;
        precise double dy = double(dj) - staged[k].cy;
        precise double reach_sq = staged[k].support_sq - dy * dy;
        on = reach_sq >= 0.0LF;
        if (on) {
          precise double reach = sqrt(reach_sq);
          precise double left_biased = double(bias) - (staged[k].cx - reach);
          precise double right_biased = (staged[k].cx + reach) + double(bias);
          const int lo = bias - int(left_biased), hi = int(right_biased) - bias;
          on = di >= lo && di <= hi;
        }
        if (on) {
          const int stride = (2 * pc.radius + 1) * (2 * pc.radius + 1);
          const int at = staged[k].phase + dj * (2 * pc.radius + 1) + di;
          const int row = (pc.phases + 1) * stride;
          precise double w = staged[k].c00 * weights[at] + staged[k].c10 * weights[at + stride] +
                             staged[k].c01 * weights[at + row] +
                             staged[k].c11 * weights[at + row + stride];
          weight = w;
        }
      }
      if (on) {
        precise double red = tile_rgb[3u * thread] + staged[k].red * weight;
        precise double green = tile_rgb[3u * thread + 1u] + staged[k].green * weight;
        precise double blue = tile_rgb[3u * thread + 2u] + staged[k].blue * weight;
        tile_rgb[3u * thread] = red;
        tile_rgb[3u * thread + 1u] = green;
        tile_rgb[3u * thread + 2u] = blue;
        ++contributions;
      }
    }
  }
  if (inside) {
    frame[pixel] = tile_rgb[3u * thread];
    frame[pixel + 1u] = tile_rgb[3u * thread + 1u];
    frame[pixel + 2u] = tile_rgb[3u * thread + 2u];
  }
  // The tile's contributions, summed in shared memory, added to the 64-bit counter.
  tile_contributions[thread] = contributions;
  barrier();
  for (uint step = 128u; step > 0u; step >>= 1) {
    if (thread < step) tile_contributions[thread] += tile_contributions[thread + step];
    barrier();
  }
  if (thread == 0u && tile_contributions[0] != 0u) {
    const uint added = tile_contributions[0];
    const uint old = atomicAdd(info[1], added);
    if (old + added < old) atomicAdd(info[2], 1u);
  }
}
