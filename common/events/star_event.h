#pragma once
// One star image on the frame (docs/design.md section 5): the record of the event stream, and the
// PSF model that the producer classified it with. Plain data: GPU code includes this too.
#include <cstdint>

namespace starlens {

// Seven little-endian float64, 56 bytes. Colour (r, g, b) is linear sRGB normalised to
// Y = 1; flux is Y in Vega units; support is the radius (px) beyond which the event
// contributes nothing. An event is direct iff support > the model's cache radius.
struct StarEvent {
  double x;
  double y;
  double r;
  double g;
  double b;
  double flux;
  double support;
};
static_assert(sizeof(StarEvent) == 56, "event records are seven float64");

// Most weights a phase cache ((2Rc+1)^2 (P+1)^2 doubles) may hold: 2^22 doubles, 32 MiB. Far
// above any useful model (the default needs 0.7 MB; Rc = 64 px with P = 14, 30 MB, still fits),
// low enough that a corrupt cache radius or phase count in a stream header is refused instead of
// allocating and integrating hundreds of MB of weights.
inline constexpr double kMaxPhaseCacheWeights = 4194304.0;

// The PSF model and its class thresholds (docs/design.md section 5), carried in the stream header.
struct PsfModel {
  double fwhm = 2.0;               // px
  double beta = 2.5;               // Moffat exponent, > 1
  std::int32_t cache_radius = 16;  // Rc, px: the phase cache covers (2Rc+1)^2 pixels
  std::int32_t phases = 8;         // P: (P+1)^2 sub-pixel phases
  double min_y = 1e-7;             // visibility floor: peak pixel value below it is discarded
  double relative_tail = 0.1;      // wings kept down to this fraction of min_y
  double max_radius = 256;         // px, bound on direct supports
};

}  // namespace starlens
