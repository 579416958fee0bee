#pragma once
// What a replay (--from-manifest) of a GPU run accepts as the recorded frame. The GPU sums each
// pixel's contributions in an order that changes from run to run (tile lists filled by atomics;
// the atomic and direct kernels add by double atomics), so its frames differ in the last bits
// (relative differences ~1e-15 on the H200) and their bytes never match. A replayed GPU frame is
// the same result when it is within the GPU-against-CPU budget of docs/design.md section 10 of the
// recorded one (only the order of additions differs); a tone-mapped PNG when no 8-bit value
// moved by more than one level. CPU runs must still match byte for byte.
#include <nlohmann/json.hpp>
#include <optional>
#include <string>

#include "core/checked_json.h"

namespace starlens {

// A ReplayOutputCheck (manifest/replay.h): std::nullopt unless `manifest` is a GPU run; else
// {"equivalent": bool, "reason": text, ...the comparison's figures}. Not equivalent when the
// recorded output is gone or no longer has the bytes `recorded` names. InputError naming the
// manifest and key path when parameters.backend or the entry's fields have the wrong type.
std::optional<nlohmann::json> check_gpu_replay_output(const JsonField& manifest,
                                                      const JsonField& recorded,
                                                      const std::string& replay);

}  // namespace starlens
