#pragma once
// Events counted by class as a backend reads them (docs/design.md section 6 statistics).
#include <array>
#include <cstdint>
#include <nlohmann/json.hpp>

#include "optics/event_class.h"

namespace starlens {

struct EventClassCounts {
  std::array<std::uint64_t, 4> by_class{};

  void add(EventClass event_class) { ++by_class[static_cast<int>(event_class)]; }
  std::uint64_t total() const { return by_class[1] + by_class[2] + by_class[3]; }
  nlohmann::json to_json() const {
    return {{"events", total()},
            {"events_cache", by_class[static_cast<int>(EventClass::cache)]},
            {"events_wing_clip", by_class[static_cast<int>(EventClass::wing_clip)]},
            {"events_direct", by_class[static_cast<int>(EventClass::direct)]}};
  }
};

}  // namespace starlens
