#pragma once
// Bounds of a capture or replay run (docs/design.md section 5): --cells A:B, --sky-region
// ra,dec,radius, --triangles A:B, --max-events N. A bounded run reads only the catalogue cells
// its bounds select and stops as soon as --max-events events are written.
#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>

#include "sky/frames.h"

namespace starlens::produce {

// [first, end) of catalogue cells or lens-map triangles.
struct IndexRange {
  std::uint64_t first = 0;
  std::uint64_t end = 0;
  bool contains(std::uint64_t i) const { return i >= first && i < end; }
};

struct SkyRegion {
  double ra_deg = 0;
  double dec_deg = 0;
  double radius_deg = 0;
  Vec3 centre() const;
};

struct RunBounds {
  std::optional<IndexRange> cells;
  std::optional<SkyRegion> sky_region;
  std::optional<IndexRange> triangles;
  std::uint64_t max_events = 0;  // 0: no limit
  bool bounded() const { return cells || sky_region || triangles || max_events > 0; }
  nlohmann::json to_json() const;
};

// "A:B" with A < B (B may be omitted: "A:" runs to `limit`). `option` names the flag in
// messages; InputError when malformed or when B exceeds `limit`.
IndexRange parse_index_range(const std::string& text, const std::string& option,
                             std::uint64_t limit);
// "ra,dec,radius" in degrees: ra in [0, 360], dec in [-90, 90], radius in (0, 180].
SkyRegion parse_sky_region(const std::string& text, const std::string& option);

}  // namespace starlens::produce
