#pragma once
// <output>.manifest.json (docs/design.md section 8): what ran, on what, with which parameters and
// inputs, what it wrote, how long each phase took and what it counted.
#include <cstdint>
#include <filesystem>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <utility>
#include <vector>

#include "core/output_set.h"
#include "core/stopwatch.h"
#include "manifest/background_file_hash.h"

namespace starlens {

class Manifest {
 public:
  // Records the tool, argv, build facts, executable hash, host CPU and start time. InputError
  // when an argument or the working folder is not UTF-8 (JSON cannot hold it), as for every
  // path added below.
  Manifest(std::string tool, int argc, char** argv);

  nlohmann::json& parameters() { return json_["parameters"]; }  // every resolved parameter
  nlohmann::json& counts() { return json_["counts"]; }
  nlohmann::json& timings() { return json_["timings_s"]; }
  // Tool-specific sections ("gpu", "bounds", "coverage", ...).
  nlohmann::json& section(const std::string& key) { return json_[key]; }
  const nlohmann::json& json() const { return json_; }

  // Parameters that name outputs: left out of run_digest so a replay writing elsewhere
  // produces identical bytes.
  void exclude_from_digest(const std::string& parameter) {
    json_["digest_excludes"].push_back(parameter);
  }
  void set_threads(int threads) { json_["threads"] = threads; }
  void add_timings(const PhaseTimes& times);
  // Every file entry carries path, role, size and the tree hash (block_tree_sha256.h, scheme
  // named in the entry: hash_scheme.h). Path and size of a file read, its hash computed in the
  // background and joined by run_digest() or write() ("-" is standard input, unhashed).
  void add_input(const std::filesystem::path& path, const std::string& role);
  // The same with a background hash the stage started earlier (before its work began).
  void add_input(const std::string& path, const std::string& role,
                 std::unique_ptr<BackgroundFileHash> hash);
  // The same with a tree hash computed while streaming the file.
  void add_input_hashed(const std::string& path, const std::string& role, std::uint64_t size,
                        const std::string& tree_sha256);
  // Path, size and tree hash of a file written (call after it is in place; read back).
  void add_output(const std::filesystem::path& path, const std::string& role);
  // The same for an output of `outputs` not yet committed: its temporary is hashed, its final
  // path recorded.
  void add_output(const OutputSet& outputs, const std::filesystem::path& path,
                  const std::string& role);
  // The same with the tree hash of the bytes as they were written.
  void add_output_hashed(const std::string& path, const std::string& role, std::uint64_t size,
                         const std::string& tree_sha256);

  // SHA-256 of the run's identity: tool, version, parameters and input hashes (their tree
  // hashes; "none" for standard input). Outputs that cannot contain their own manifest's hash
  // (EXR headers) carry this digest instead. Waits for the inputs' background hashes.
  std::string run_digest();
  // Waits for the inputs' background hashes (run_digest() and write() do too).
  void wait_for_input_hashes();

  // Writes "<output_path>.manifest.json" atomically, stamping the end time.
  void write(const std::filesystem::path& output_path, bool force);
  // Writes "<output_path>.manifest.json" as the record of `outputs` (added to it if it is not
  // yet) and commits the set: the manifest and the outputs become visible together
  // (core/output_set.h).
  void commit(OutputSet& outputs, const std::filesystem::path& output_path);

 private:
  nlohmann::json json_;
  // Inputs whose hash is still being computed: their index in json_["inputs"].
  std::vector<std::pair<std::size_t, std::unique_ptr<BackgroundFileHash>>> pending_inputs_;
};

std::filesystem::path manifest_path_for(const std::filesystem::path& output_path);

// The largest manifest read (--from-manifest, compare --manifests): far above any a tool writes.
constexpr std::uint64_t kMaxManifestBytes = std::uint64_t(64) << 20;
// Writes a JSON report (json.dump(2) and a newline) as an output of `outputs`; RunFailure naming
// `path` with the system's reason when it cannot be written.
void write_json_output(OutputSet& outputs, const std::filesystem::path& path,
                       const nlohmann::json& json);
// Reads a manifest; throws InputError naming the file when it is missing, not a regular file or
// pipe, larger than kMaxManifestBytes, not JSON, not an object or not a manifest. Read it
// further through JsonField (core/checked_json.h).
nlohmann::json read_manifest(const std::filesystem::path& path);

}  // namespace starlens
