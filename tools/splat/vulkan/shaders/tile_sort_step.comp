#version 450
// Binning, the lists longer than kSharedKeys: one compare-exchange step (stage pc.sort_k,
// distance pc.sort_d) of tile_sort.comp's bitonic network over each such list in the
// reference buffer, a workgroup per tile; the host dispatches the steps in order.
#extension GL_GOOGLE_include_directive : require
#include "splat_layout.glsl"
layout(local_size_x = 256) in;

void main() {
  const uint tile = workgroup_linear();
  if (tile >= pc.tile_count) return;
  const uint begin = tile_offsets[tile];
  const uint n = min(tile_offsets[tile + 1u], pc.ref_capacity) - min(begin, pc.ref_capacity);
  if (n <= kSharedKeys) return;
  const uint k = pc.sort_k, d = pc.sort_d;
  for (uint i = gl_LocalInvocationID.x; i < n; i += 256u) {
    const uint j = d == (k >> 1) ? i ^ (k - 1u) : i ^ d;
    if (j > i && j < n) {
      const uint a = tile_refs[begin + i], b = tile_refs[begin + j];
      if (a > b) {
        tile_refs[begin + i] = b;
        tile_refs[begin + j] = a;
      }
    }
  }
}
