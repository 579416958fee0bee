#pragma once
// <output>.manifest.json (DESIGN section 8): what ran, on what, with which parameters and
// inputs, what it wrote, how long each phase took and what it counted.
#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>

#include "core/stopwatch.h"

namespace starlens {

class Manifest {
 public:
  // Records the tool, argv, build facts, executable hash, host CPU and start time.
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
  // Path, size and SHA-256 of a file read ("-" is recorded as standard input, unhashed).
  void add_input(const std::filesystem::path& path, const std::string& role);
  // The same with a hash computed while streaming the file.
  void add_input_hashed(const std::string& path, const std::string& role, std::uint64_t size,
                        const std::string& sha256);
  // Path, size and SHA-256 of a file written (call after it is in place).
  void add_output(const std::filesystem::path& path, const std::string& role);
  void add_output_hashed(const std::string& path, const std::string& role, std::uint64_t size,
                         const std::string& sha256);

  // SHA-256 of the run's identity: tool, version, parameters and input hashes. Outputs that
  // cannot contain their own manifest's hash (EXR headers) carry this digest instead.
  std::string run_digest() const;

  // Writes "<output_path>.manifest.json" atomically, stamping the end time.
  void write(const std::filesystem::path& output_path, bool force);

 private:
  nlohmann::json json_;
};

std::filesystem::path manifest_path_for(const std::filesystem::path& output_path);
// Reads a manifest; throws InputError naming the file when it is missing or not a manifest.
nlohmann::json read_manifest(const std::filesystem::path& path);

}  // namespace starlens
