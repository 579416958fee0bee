#version 450
// Prepare: one invocation per event; the record prepared exactly as accumulate_cached and
// accumulate_direct (common/optics/accumulate.cpp) compute it over the whole frame, and the
// event counted in every tile its box touches.
#extension GL_GOOGLE_include_directive : require
#include "splat_layout.glsl"
layout(local_size_x = 256) in;

bool usable(Event e) {
  return !isnan(e.x) && !isinf(e.x) && !isnan(e.y) && !isinf(e.y) && !isnan(e.flux) &&
         !isinf(e.flux) && e.flux > 0.0LF && e.support > 0.0LF;
}

void prepare_cached(Event e, inout Prepared p) {
  const int radius = pc.radius, phases = pc.phases, side = 2 * radius + 1;
  precise double support = min(e.support, double(radius));
  const double band_end = double(pc.height);
  if (!(e.y + support + 0.5LF > 0.0LF && e.y - support - 0.5LF < band_end)) return;
  if (!(e.x + support + 0.5LF > 0.0LF && e.x - support - 0.5LF < double(pc.width))) return;
  const int bias = radius + 3;
  // floor_of(v) = int(v + bias) - bias, ceil_of(v) = bias - int(bias - v): truncations.
  precise double biased_x = e.x + double(bias), biased_y = e.y + double(bias);
  const int ix = int(biased_x) - bias, iy = int(biased_y) - bias;
  precise double offset_x = e.x - double(ix), offset_y = e.y - double(iy);
  precise double scaled_x = offset_x * double(phases), scaled_y = offset_y * double(phases);
  const int a = min(int(scaled_x), phases - 1), b = min(int(scaled_y), phases - 1);
  precise double tx = scaled_x - double(a), ty = scaled_y - double(b);
  precise double c00 = (1.0LF - tx) * (1.0LF - ty), c10 = tx * (1.0LF - ty);
  precise double c01 = (1.0LF - tx) * ty, c11 = tx * ty;
  precise double centre_x = offset_x - 0.5LF, centre_y = offset_y - 0.5LF;
  precise double top = centre_y - support, bottom = centre_y + support;
  precise double left = centre_x - support, right = centre_x + support;
  precise double top_biased = double(bias) - top, bottom_biased = bottom + double(bias);
  precise double left_biased = double(bias) - left, right_biased = right + double(bias);
  // The box in frame rows and columns (accumulate_cached's offsets from (ix, iy) plus ix, iy):
  // sums and differences only, no negated integer, which NVIDIA's compiler (driver 580)
  // evaluated wrongly in max(-radius, -ix).
  const int row_first = max(iy + bias - int(top_biased), 0);
  const int row_last = min(iy + int(bottom_biased) - bias, int(pc.height) - 1);
  const int col_first = max(max(ix - radius, 0), ix + bias - int(left_biased));
  const int col_last = min(min(ix + radius, int(pc.width) - 1), ix + int(right_biased) - bias);
  if (col_first > col_last || row_first > row_last) return;
  precise double red = e.flux * e.r, green = e.flux * e.g, blue = e.flux * e.b;
  precise double support_sq = support * support;
  p.c00 = c00, p.c10 = c10, p.c01 = c01, p.c11 = c11;
  p.red = red, p.green = green, p.blue = blue;
  p.cx = centre_x, p.cy = centre_y, p.support_sq = support_sq;
  p.ix = ix, p.iy = iy;
  p.row_first = row_first, p.row_last = row_last;
  p.col_first = col_first, p.col_last = col_last;
  p.phase = (b * (phases + 1) + a) * side * side + radius * side + radius;
  p.flags = 1;
}

void prepare_direct(Event e, inout Prepared p) {
  const double support = e.support;
  // Rows of every pixel whose square meets the support disc (clamp_rows), columns likewise.
  const double lo = floor(e.y - support), hi = ceil(e.y + support) - 1.0LF;
  const double bottom = double(pc.height) - 1.0LF;
  if (!(lo <= bottom && hi >= 0.0LF)) return;
  const double left = floor(e.x - support), right = ceil(e.x + support) - 1.0LF;
  const double last_column = double(pc.width) - 1.0LF;
  if (!(left <= last_column && right >= 0.0LF)) return;
  precise double red = e.flux * e.r, green = e.flux * e.g, blue = e.flux * e.b;
  p.red = red, p.green = green, p.blue = blue;
  p.cx = e.x, p.cy = e.y, p.support_sq = support;
  p.row_first = int(max(lo, 0.0LF)), p.row_last = int(min(hi, bottom));
  p.col_first = int(max(left, 0.0LF)), p.col_last = int(min(right, last_column));
  p.flags = 1;
}

void main() {
  const uint index = gl_GlobalInvocationID.y * (gl_NumWorkGroups.x * 256) + gl_GlobalInvocationID.x;
  if (index >= pc.count) return;
  const Event e = events[index];
  Prepared p;
  p.c00 = 0.0LF, p.c10 = 0.0LF, p.c01 = 0.0LF, p.c11 = 0.0LF;
  p.red = 0.0LF, p.green = 0.0LF, p.blue = 0.0LF;
  p.cx = 0.0LF, p.cy = 0.0LF, p.support_sq = 0.0LF;
  p.ix = 0, p.iy = 0, p.row_first = 0, p.row_last = -1, p.col_first = 0, p.col_last = -1;
  p.phase = 0, p.flags = 0;
  if (usable(e)) {
    if (pc.mode == 1u) {
      prepare_direct(e, p);
    } else if (pc.all_direct == 0u && !(e.support > double(pc.radius))) {
      prepare_cached(e, p);
    }
  }
  prepared[index] = p;
  if (p.flags == 0) return;
  for (int ty = p.row_first / int(kTileSide); ty <= p.row_last / int(kTileSide); ++ty)
    for (int tx = p.col_first / int(kTileSide); tx <= p.col_last / int(kTileSide); ++tx)
      atomicAdd(tile_counts[uint(ty) * pc.tiles_x + uint(tx)], 1u);
}
