#version 450
// The atomic strategy (only on devices with VK_EXT_shader_atomic_float's
// shaderBufferFloat64AtomicAdd): a workgroup of 64 invocations per cached event walks the
// event's box, each pixel on the chord added to the frame with a float64 atomic add (the order
// of additions, and so the last bits, change from run to run).
#extension GL_GOOGLE_include_directive : require
#extension GL_EXT_shader_atomic_float : require
#include "splat_layout.glsl"
layout(local_size_x = 64) in;

shared uint group_contributions[64];

void main() {
  const uint index = workgroup_linear();
  if (index >= pc.count) return;
  const uint thread = gl_LocalInvocationID.x;
  uint contributions = 0u;
  if (prepared[index].flags != 0) {
    const Prepared p = prepared[index];
    const int columns = p.col_last - p.col_first + 1;
    const int pixels = columns * (p.row_last - p.row_first + 1);
    const int bias = pc.radius + 3;
    const int side = 2 * pc.radius + 1;
    const int stride = side * side;
    const int row = (pc.phases + 1) * stride;
    for (int n = int(thread); n < pixels; n += 64) {
      const int px = p.col_first + n % columns, py = p.row_first + n / columns;
      const int di = px - p.ix, dj = py - p.iy;
      precise double dy = double(dj) - p.cy;
      precise double reach_sq = p.support_sq - dy * dy;
      if (reach_sq < 0.0LF) continue;
      precise double reach = sqrt(reach_sq);
      precise double left_biased = double(bias) - (p.cx - reach);
      precise double right_biased = (p.cx + reach) + double(bias);
      const int lo = bias - int(left_biased), hi = int(right_biased) - bias;
      if (di < lo || di > hi) continue;
      const int at = p.phase + dj * side + di;
      precise double weight = p.c00 * weights[at] + p.c10 * weights[at + stride] +
                              p.c01 * weights[at + row] + p.c11 * weights[at + row + stride];
      const uint pixel = 3u * (uint(py) * pc.width + uint(px));
      precise double red = p.red * weight, green = p.green * weight, blue = p.blue * weight;
      atomicAdd(frame[pixel], red);
      atomicAdd(frame[pixel + 1u], green);
      atomicAdd(frame[pixel + 2u], blue);
      ++contributions;
    }
  }
  group_contributions[thread] = contributions;
  barrier();
  for (uint step = 32u; step > 0u; step >>= 1) {
    if (thread < step) group_contributions[thread] += group_contributions[thread + step];
    barrier();
  }
  if (thread == 0u && group_contributions[0] != 0u) {
    const uint added = group_contributions[0];
    const uint old = atomicAdd(info[1], added);
    if (old + added < old) atomicAdd(info[2], 1u);
  }
}
