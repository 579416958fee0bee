#version 450
// Binning, third pass: each event's index written into the list of every tile its box
// touches (in no particular order: tile_sort.comp puts each list in stream order).
#extension GL_GOOGLE_include_directive : require
#include "splat_layout.glsl"
layout(local_size_x = 256) in;

void main() {
  const uint index = gl_GlobalInvocationID.y * (gl_NumWorkGroups.x * 256) + gl_GlobalInvocationID.x;
  if (index >= pc.count) return;
  const Prepared p = prepared[index];
  if (p.flags == 0) return;
  for (int ty = p.row_first / int(kTileSide); ty <= p.row_last / int(kTileSide); ++ty) {
    for (int tx = p.col_first / int(kTileSide); tx <= p.col_last / int(kTileSide); ++tx) {
      const uint slot = atomicAdd(tile_cursors[uint(ty) * pc.tiles_x + uint(tx)], 1u);
      if (slot < pc.ref_capacity) {
        tile_refs[slot] = index;
      } else {
        info[3] = 1u;
      }
    }
  }
}
