#version 450
// Accumulate the cached events: a workgroup per 16 x 16 tile, an invocation per pixel. The
// tile's pixels are read from the frame into workgroup-local doubles, the tile's events (in
// stream order, tile_sort.comp) are staged into shared memory 64 at a time with their chords of
// the tile's 16 rows (a square root a row, as on the CPU, not a pixel) and each invocation adds,
// event after event, what falls on its pixel; the tile is then merged back into the
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
shared ivec2 chords[kStaged * kTileSide];  // per staged event and tile row

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
  const int tile_row = int((tile / pc.tiles_x) * kTileSide);
  uint contributions = 0u;
  for (uint base = begin; base < end; base += kStaged) {
    barrier();
    if (thread < kStaged && base + thread < end) staged[thread] = prepared[tile_refs[base + thread]];
    barrier();
    const uint staged_count = min(kStaged, end - base);
    // accumulate_cached's row chords, once per staged event and row of the tile: the frame's
    // columns [x, y] of the row's chord (empty: x > y).
    for (uint entry = thread; entry < staged_count * kTileSide; entry += 256u) {
      const uint k = entry / kTileSide;
      const int row = tile_row + int(entry % kTileSide);
      ivec2 chord = ivec2(1, 0);
      if (row >= staged[k].row_first && row <= staged[k].row_last) {
        const int bias = pc.radius + 3;
        precise double dy = double(row - staged[k].iy) - staged[k].cy;
        precise double reach_sq = staged[k].support_sq - dy * dy;
        if (reach_sq >= 0.0LF) {
          precise double reach = sqrt(reach_sq);
          precise double left_biased = double(bias) - (staged[k].cx - reach);
          precise double right_biased = (staged[k].cx + reach) + double(bias);
          chord = ivec2(max(staged[k].col_first, staged[k].ix + bias - int(left_biased)),
                        min(staged[k].col_last, staged[k].ix + int(right_biased) - bias));
        }
      }
      chords[entry] = chord;
    }
    barrier();
    if (!inside) continue;
    for (uint k = 0u; k < staged_count; ++k) {
      const ivec2 chord = chords[k * kTileSide + gl_LocalInvocationID.y];
      if (px < chord.x || px > chord.y) continue;
      // accumulate_cached's weight.
      const int di = px - staged[k].ix, dj = py - staged[k].iy;
      const int stride = (2 * pc.radius + 1) * (2 * pc.radius + 1);
      const int at = staged[k].phase + dj * (2 * pc.radius + 1) + di;
      const int phase_row = (pc.phases + 1) * stride;
      precise double weight = staged[k].c00 * weights[at] + staged[k].c10 * weights[at + stride] +
                              staged[k].c01 * weights[at + phase_row] +
                              staged[k].c11 * weights[at + phase_row + stride];
      precise double red = tile_rgb[3u * thread] + staged[k].red * weight;
      precise double green = tile_rgb[3u * thread + 1u] + staged[k].green * weight;
      precise double blue = tile_rgb[3u * thread + 2u] + staged[k].blue * weight;
      tile_rgb[3u * thread] = red;
      tile_rgb[3u * thread + 1u] = green;
      tile_rgb[3u * thread + 2u] = blue;
      ++contributions;
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
