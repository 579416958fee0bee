#version 450
// Binning, second pass: one workgroup turns the tiles' counts into list offsets (an exclusive
// scan, each invocation over its own run of tiles), resets the fill cursors to them and
// records the batch's total of tile references and its longest list.
#extension GL_GOOGLE_include_directive : require
#include "splat_layout.glsl"
layout(local_size_x = 256) in;

shared uint partial[256];
shared uint longest[256];

void main() {
  const uint thread = gl_LocalInvocationID.x;
  const uint run = (pc.tile_count + 255u) / 256u;
  const uint begin = min(pc.tile_count, thread * run), end = min(pc.tile_count, begin + run);
  uint sum = 0u, most = 0u;
  for (uint t = begin; t < end; ++t) {
    sum += tile_counts[t];
    most = max(most, tile_counts[t]);
  }
  partial[thread] = sum;
  longest[thread] = most;
  barrier();
  for (uint step = 128u; step > 0u; step >>= 1) {
    if (thread < step) longest[thread] = max(longest[thread], longest[thread + step]);
    barrier();
  }
  // Inclusive scan of the runs' sums (Hillis-Steele).
  for (uint step = 1u; step < 256u; step <<= 1) {
    const uint value = thread >= step ? partial[thread - step] : 0u;
    barrier();
    partial[thread] += value;
    barrier();
  }
  uint offset = partial[thread] - sum;
  for (uint t = begin; t < end; ++t) {
    tile_offsets[t] = offset;
    tile_cursors[t] = offset;
    offset += tile_counts[t];
  }
  if (thread == 255u) {
    tile_offsets[pc.tile_count] = partial[255];
    info[0] = partial[255];
    info[4] = longest[0];
  }
}
