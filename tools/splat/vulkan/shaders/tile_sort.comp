#version 450
// Binning, last pass: a workgroup per tile sorts the tile's list into stream order in shared
// memory (a bitonic network for any length: the first step of each stage compares mirrored
// positions, positions past the end count as +infinity and are skipped). Lists longer than
// kSharedKeys are left to tile_sort_step.comp. The tile then adds its events in the CPU's order.
#extension GL_GOOGLE_include_directive : require
#include "splat_layout.glsl"
layout(local_size_x = 256) in;

shared uint keys[kSharedKeys];

void main() {
  const uint tile = workgroup_linear();
  if (tile >= pc.tile_count) return;
  const uint begin = tile_offsets[tile];
  const uint n = min(tile_offsets[tile + 1u], pc.ref_capacity) - min(begin, pc.ref_capacity);
  if (n <= 1u || n > kSharedKeys) return;
  const uint thread = gl_LocalInvocationID.x;
  uint size = 1u;
  while (size < n) size <<= 1;
  {
    for (uint i = thread; i < n; i += 256u) keys[i] = tile_refs[begin + i];
    barrier();
    for (uint k = 2u; k <= size; k <<= 1) {
      for (uint d = k >> 1; d >= 1u; d >>= 1) {
        for (uint i = thread; i < n; i += 256u) {
          const uint j = d == (k >> 1) ? i ^ (k - 1u) : i ^ d;
          if (j > i && j < n) {
            const uint a = keys[i], b = keys[j];
            if (a > b) {
              keys[i] = b;
              keys[j] = a;
            }
          }
        }
        barrier();
      }
    }
    for (uint i = thread; i < n; i += 256u) tile_refs[begin + i] = keys[i];
  }
}
