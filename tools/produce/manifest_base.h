#pragma once
// Where a produce run's manifest goes, for both subcommands.
#include <filesystem>
#include <optional>
#include <string>

namespace starlens::produce {

// The output the manifest is named after: --manifest (which must end in .manifest.json)
// without that suffix, else a file output; none for standard output.
std::optional<std::filesystem::path> manifest_base(const std::string& manifest,
                                                   const std::string& output);

}  // namespace starlens::produce
