#pragma once
// --from-manifest M (docs/design.md section 8): rerun a stage with M's parameters after checking
// that its inputs still have M's hashes, then report whether the outputs and counts match.
// Works for every tool without knowing its flags: M's argv is replayed with each output path
// that M lists replaced by a replay path, from M's working folder.
#include <functional>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "core/checked_json.h"

namespace starlens {

// A flag added after manifests were archived whose default differs from what those runs did:
// replaying a manifest whose parameters lack `parameter`, the replay appends `arguments`.
struct ReplayDefault {
  std::string parameter;
  std::vector<std::string> arguments;
};

// A stage's judgement of an output whose bytes differ from what M recorded (`recorded`: M's
// entry for it, path and sha256): std::nullopt where the bytes must be equal, else a report
// whose "equivalent" says whether the replay's output is the same result (for example a GPU
// frame summed in another order, within its budget) and "reason" says why or why not. M is
// untrusted: read it through JsonField's checked accessors.
using ReplayOutputCheck = std::function<std::optional<nlohmann::json>(
    const JsonField& manifest, const JsonField& recorded, const std::string& replay)>;

// When argv holds --from-manifest M (optionally with -o/--output NEW for the main output),
// replays M through `run` and returns the exit status: 0 outputs (equal, or equivalent by
// `output_check`) and counts match, 1 they differ, 2 an input changed (naming the file) or M is
// unusable (not a manifest, or a key missing or of the wrong type: InputError naming M and the
// key path, before anything runs). Otherwise returns -1.
int replay_from_manifest_if_asked(const std::string& tool_name, int argc, char** argv,
                                  const std::function<int(int, char**)>& run,
                                  const std::vector<ReplayDefault>& older_defaults = {},
                                  const ReplayOutputCheck& output_check = {});

// The whole main() of a stage: run_tool's exit statuses around either a replay of
// --from-manifest or an ordinary run.
int run_stage_main(const std::string& tool_name, int argc, char** argv,
                   const std::function<int(int, char**)>& run,
                   const std::vector<ReplayDefault>& older_defaults = {},
                   const ReplayOutputCheck& output_check = {});

// Where a replay writes instead of `original`: "<stem>.replay<extension>" beside it.
std::string replay_path_for(const std::string& original);

}  // namespace starlens
