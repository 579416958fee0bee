#include "manifest_base.h"

#include "core/errors.h"

namespace starlens::produce {

std::optional<std::filesystem::path> manifest_base(const std::string& manifest,
                                                   const std::string& output) {
  const std::string suffix = ".manifest.json";
  if (!manifest.empty()) {
    if (!manifest.ends_with(suffix) || manifest.size() == suffix.size())
      throw_input_error("--manifest", "", "'" + manifest + "' must end in " + suffix);
    return manifest.substr(0, manifest.size() - suffix.size());
  }
  if (output.empty() || output == "-") return std::nullopt;
  return output;
}

}  // namespace starlens::produce
