#pragma once
// Which hash a manifest's file entry carries (docs/formats/manifest.md). Version 2 entries
// name it: "hash": "sha256-tree-4MiB" with the digest in "sha256_tree", or "hash": "none" for
// standard input. Version 1 entries carry a plain SHA-256 of the whole file in "sha256"
// ("stdin" for standard input). Replays verify a file with the scheme its entry recorded.
#include <filesystem>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>

#include "core/checked_json.h"

namespace starlens {

constexpr const char* kPlainSha256Scheme = "sha256";  // format_version 1
constexpr const char* kNoHashScheme = "none";

// The fields of a version 2 entry for a file with tree hash `hex`.
nlohmann::json tree_hash_fields(const std::string& hex);

struct RecordedHash {
  std::string scheme;  // kTreeHashScheme or kPlainSha256Scheme
  std::string field;   // the entry's key that holds the digest
  std::string hex;
};
// The hash an entry recorded; std::nullopt for standard input (nothing to verify). InputError
// naming the manifest and the entry's key path for an unknown scheme, a missing digest or a
// field of the wrong type.
std::optional<RecordedHash> recorded_hash(const JsonField& entry);
// The same for an entry given alone, named by `manifest`.
std::optional<RecordedHash> recorded_hash(const nlohmann::json& entry, const std::string& manifest);
// The hash of a file under `scheme` (tree hash on the pool, or plain SHA-256 on one core).
std::string hash_file_as(const std::string& scheme, const std::filesystem::path& path);

}  // namespace starlens
