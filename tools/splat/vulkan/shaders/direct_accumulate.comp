#version 450
// Accumulate the direct events: a workgroup per 16 x 16 tile, an invocation per pixel, each
// adding the tile's direct events (in stream order, tile_sort.comp) that fall on its pixel:
// accumulate_direct's row chord and direct_pixel_integral (direct_pixel.glsl), in the CPU's
// order. A dispatch takes a window of each list (pc.list_first, pc.list_window): llvmpipe ends
// a shader's loops after 65,535 iterations in all, and one pixel's integral can take
// thousands. The events are read from the prepared buffer directly (direct events are few and
// large).
#extension GL_GOOGLE_include_directive : require
#include "splat_layout.glsl"
#include "direct_pixel.glsl"
layout(local_size_x = 16, local_size_y = 16) in;

void main() {
  const uint tile = workgroup_linear();
  if (tile >= pc.tile_count) return;
  const uvec2 window = list_window(tile);
  const uint begin = window.x, end = window.y;
  const int px = int((tile % pc.tiles_x) * kTileSide + gl_LocalInvocationID.x);
  const int py = int((tile / pc.tiles_x) * kTileSide + gl_LocalInvocationID.y);
  if (begin == end || px >= int(pc.width) || py >= int(pc.height)) return;
  const uint pixel = 3u * (uint(py) * pc.width + uint(px));
  double red = frame[pixel], green = frame[pixel + 1u], blue = frame[pixel + 2u];
  uint contributions = 0u;
  for (uint k = begin; k < end; ++k) {
    const uint index = tile_refs[k];
    bool on = py >= prepared[index].row_first && py <= prepared[index].row_last &&
              px >= prepared[index].col_first && px <= prepared[index].col_last;
    const double x = prepared[index].cx, y = prepared[index].cy;
    const double support = prepared[index].support_sq;
    precise double y0 = double(py) - y, y1 = double(py + 1) - y;
    const double nearest_dy = y0 > 0.0LF ? y0 : y1 < 0.0LF ? -y1 : 0.0LF;
    on = on && nearest_dy < support;
    if (on) {
      precise double reach = sqrt((support - nearest_dy) * (support + nearest_dy));
      const double lo = max(0.0LF, floor(x - reach));
      const double hi = min(double(pc.width) - 1.0LF, ceil(x + reach) - 1.0LF);
      on = double(px) >= lo && double(px) <= hi;
    }
    if (on) {
      precise double x0 = double(px) - x, x1 = double(px + 1) - x;
      const double weight = direct_pixel_integral(x0, x1, y0, y1, support);
      precise double r = red + prepared[index].red * weight;
      precise double g = green + prepared[index].green * weight;
      precise double b = blue + prepared[index].blue * weight;
      red = r, green = g, blue = b;
      ++contributions;
    }
  }
  frame[pixel] = red;
  frame[pixel + 1u] = green;
  frame[pixel + 2u] = blue;
  if (contributions != 0u) {
    const uint old = atomicAdd(info[1], contributions);
    if (old + contributions < old) atomicAdd(info[2], 1u);
  }
}
