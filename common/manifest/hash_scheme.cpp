#include "manifest/hash_scheme.h"

#include "core/errors.h"
#include "manifest/block_tree_sha256.h"
#include "manifest/sha256.h"

namespace starlens {

nlohmann::json tree_hash_fields(const std::string& hex) {
  return {{"hash", kTreeHashScheme}, {"sha256_tree", hex}};
}

std::optional<RecordedHash> recorded_hash(const JsonField& entry) {
  const std::string path = entry.string_or("path", "?");
  const auto field_of = [&](const std::string& key) {
    return entry.key_path().empty() ? key : entry.key_path() + "." + key;
  };
  if (entry.contains("hash")) {
    const std::string scheme = entry["hash"].as_string();
    if (scheme == kNoHashScheme) return std::nullopt;
    if (scheme != kTreeHashScheme)
      throw_input_error(entry.file(), field_of("hash"),
                        "entry for " + path + " names the unknown hash scheme '" + scheme +
                            "' (this build knows " + kTreeHashScheme + ")");
    const std::string hex = entry.string_or("sha256_tree", "");
    if (hex.size() != 64)
      throw_input_error(entry.file(), field_of("sha256_tree"),
                        "entry for " + path + " has no 64-digit digest");
    return RecordedHash{scheme, "sha256_tree", hex};
  }
  const std::string hex = entry.string_or("sha256", "");
  if (hex == "stdin") return std::nullopt;
  if (hex.size() != 64)
    throw_input_error(entry.file(), field_of("sha256"),
                      "entry for " + path +
                          " has neither a hash scheme nor a "
                          "64-digit SHA-256");
  return RecordedHash{kPlainSha256Scheme, "sha256", hex};
}

std::optional<RecordedHash> recorded_hash(const nlohmann::json& entry,
                                          const std::string& manifest) {
  return recorded_hash(JsonField(entry, manifest));
}

std::string hash_file_as(const std::string& scheme, const std::filesystem::path& path) {
  return scheme == kPlainSha256Scheme ? sha256_file(path) : block_tree_sha256_file(path);
}

}  // namespace starlens
