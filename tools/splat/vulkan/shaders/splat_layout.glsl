// What every splat shader shares: the one descriptor set layout (vulkan_pipelines.cpp), the
// push constants, the event record and the prepared record.
#ifndef STARLENS_SPLAT_LAYOUT
#define STARLENS_SPLAT_LAYOUT

const uint kTileSide = 16;

// The stream's record (common/events/star_event.h): seven float64.
struct Event {
  double x, y, r, g, b, flux, support;
};

// An event prepared once for its tiles. Cached: the event's pixel (ix, iy), its bilinear
// coefficients, position relative to the centre of (ix, iy) (cx, cy), support^2 and phase
// offset; direct: x, y in cx, cy and the support in support_sq. Both: flux x colour and the box
// of frame pixels [col_first, col_last] x [row_first, row_last]; flags 0: no pixel.
struct Prepared {
  double c00, c10, c01, c11;
  double red, green, blue;
  double cx, cy, support_sq;
  int ix, iy, row_first, row_last, col_first, col_last, phase, flags;
};

layout(push_constant) uniform Push {
  uint count;         // events in the batch
  uint width;         // frame
  uint height;
  uint tiles_x;       // tiles of kTileSide pixels
  uint tiles_y;
  int radius;         // Rc
  int phases;         // P
  uint mode;          // 0: the cached events of a batch, 1: a batch of direct events
  uint all_direct;    // --psf-direct
  uint ref_capacity;  // tile references the reference buffer holds
  uint tile_count;    // tiles_x * tiles_y
  uint list_first;    // accumulate: the window of each tile's list this dispatch takes
  uint list_window;
  uint sort_k;        // tile_sort_step.comp: the bitonic stage and distance
  uint sort_d;
} pc;

layout(std430, binding = 0) readonly buffer Events { Event events[]; };
layout(std430, binding = 1) buffer PreparedEvents { Prepared prepared[]; };
layout(std430, binding = 2) buffer TileCounts { uint tile_counts[]; };
layout(std430, binding = 3) buffer TileOffsets { uint tile_offsets[]; };  // tile_count + 1
layout(std430, binding = 4) buffer TileCursors { uint tile_cursors[]; };
layout(std430, binding = 5) coherent buffer TileRefs { uint tile_refs[]; };
layout(std430, binding = 6) buffer FrameRgb { double frame[]; };  // RGB interleaved
layout(std430, binding = 7) readonly buffer PhaseWeights { double weights[]; };
layout(std430, binding = 8) readonly buffer DirectRule {
  double psf_alpha;
  double psf_beta;
  double rule_alpha_sq;
  double rule_beta;
  double rule_peak;
  double rule_min_radius_sq[7];
  double rule_series[24];
  double rule_series_reach[25];
  int rule_cut_order_margin;
};
// [0]: tile references of the batch; [1], [2]: contributions (low, high word); [3]: set when the
// reference buffer overflowed; [4]: the longest tile list.
layout(std430, binding = 9) buffer Info { uint info[]; };

// The tile of a workgroup: dispatches wider than the device's limit are split over y.
uint workgroup_linear() { return gl_WorkGroupID.y * gl_NumWorkGroups.x + gl_WorkGroupID.x; }

// Tile lists up to this length are sorted in shared memory (tile_sort.comp), longer ones a
// step a dispatch (tile_sort_step.comp).
const uint kSharedKeys = 4096u;

// The part of the tile's list [begin, end) that this dispatch's window takes (clamped to the
// reference buffer).
uvec2 list_window(uint tile) {
  const uint first = min(tile_offsets[tile], pc.ref_capacity);
  const uint last = max(first, min(tile_offsets[tile + 1u], pc.ref_capacity));
  // Differences, never sums: a window of UINT32_MAX (the whole list) must not wrap.
  const uint begin = first + min(pc.list_first, last - first);
  return uvec2(begin, begin + min(pc.list_window, last - begin));
}

#endif
