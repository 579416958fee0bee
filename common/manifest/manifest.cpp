#include "manifest/manifest.h"

#include <fcntl.h>
#include <sys/resource.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstring>
#include <ctime>
#include <fstream>
#include <thread>

#include "build_info.h"
#include "core/checked_json.h"
#include "core/errors.h"
#include "core/run_clock.h"
#include "core/utf8.h"
#include "git_describe.h"
#include "manifest/block_tree_sha256.h"
#include "manifest/hash_scheme.h"
#include "manifest/sha256.h"

namespace starlens {
namespace {

// Why text recorded in a manifest must be UTF-8, appended to the field of the message.
constexpr const char* kUtf8Reason = "a manifest records it in JSON, whose strings are UTF-8";

// A file name recorded in a manifest.
void require_utf8_path(const std::string& path) {
  require_utf8(path, path, "file name", kUtf8Reason);
}

// nlohmann::json::dump as the last line of defence: every text a tool records is checked
// where it is read, so a string that is not UTF-8 here is a bug, reported with the manifest.
std::string dump_checked(const nlohmann::json& json, int indent, const std::string& what) {
  try {
    return json.dump(indent);
  } catch (const nlohmann::json::type_error& e) {
    throw_run_failure(
        what, std::string("internal error: text that is not UTF-8 reached it (") + e.what() + ")");
  }
}

std::string utc_iso8601(std::chrono::system_clock::time_point time) {
  const std::time_t seconds = std::chrono::system_clock::to_time_t(time);
  const auto millis =
      std::chrono::duration_cast<std::chrono::milliseconds>(time.time_since_epoch()).count() % 1000;
  std::tm utc{};
  gmtime_r(&seconds, &utc);
  char text[40];
  std::strftime(text, sizeof text, "%Y-%m-%dT%H:%M:%S", &utc);
  char with_millis[48];
  std::snprintf(with_millis, sizeof with_millis, "%s.%03dZ", text, static_cast<int>(millis));
  return with_millis;
}

std::string host_cpu_model() {
  std::ifstream cpuinfo("/proc/cpuinfo");
  std::string line;
  while (std::getline(cpuinfo, line)) {
    if (line.rfind("model name", 0) == 0) {
      const auto colon = line.find(':');
      if (colon != std::string::npos) return line.substr(colon + 2);
    }
  }
  return "unknown";
}

std::string host_name() {
  char name[256] = {};
  gethostname(name, sizeof name - 1);
  return name;
}

nlohmann::json file_entry(const std::string& path, const std::string& role, std::uint64_t size,
                          const std::string& tree_sha256) {
  nlohmann::json entry = {{"path", path}, {"role", role}, {"size", size}};
  entry.update(tree_hash_fields(tree_sha256));
  return entry;
}

// The most resident memory the process has held so far (Linux reports kilobytes).
std::uint64_t peak_resident_bytes() {
  rusage usage{};
  if (getrusage(RUSAGE_SELF, &usage) != 0) return 0;
  return std::uint64_t(usage.ru_maxrss) * 1024;
}

// Writes `text` to `path`; RunFailure naming `name` with the system's reason otherwise.
void write_text_file(const std::filesystem::path& path, const std::string& text,
                     const std::string& name) {
  const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
  if (fd < 0) throw_run_failure(name, std::string("cannot create: ") + std::strerror(errno));
  const char* data = text.data();
  std::size_t left = text.size();
  while (left > 0) {
    const ssize_t written = ::write(fd, data, left);
    if (written < 0 && errno == EINTR) continue;
    if (written <= 0) {
      const int error = written < 0 ? errno : ENOSPC;
      ::close(fd);
      throw_run_failure(name, std::string("write failed: ") + std::strerror(error));
    }
    data += written;
    left -= std::size_t(written);
  }
  if (::close(fd) != 0)
    throw_run_failure(name, std::string("close failed: ") + std::strerror(errno));
}

}  // namespace

Manifest::Manifest(std::string tool, int argc, char** argv) {
  json_["format"] = "starlens-manifest";
  json_["format_version"] = 2;
  json_["tool"] = std::move(tool);
  json_["version"] = STARLENS_VERSION;
  json_["git_describe"] = STARLENS_GIT_DESCRIBE;
  json_["build"] = {{"type", STARLENS_BUILD_TYPE},
                    {"compiler", STARLENS_COMPILER},
                    {"flags", STARLENS_CXX_FLAGS},
                    {"gpu_backend", STARLENS_GPU_BACKEND}};
  std::error_code error;
  const auto executable = std::filesystem::read_symlink("/proc/self/exe", error);
  json_["executable"] = {{"path", executable.string()}};
  if (error)
    json_["executable"]["hash"] = kNoHashScheme;
  else
    json_["executable"].update(tree_hash_fields(block_tree_sha256_file(executable)));
  nlohmann::json arguments = nlohmann::json::array();
  for (int i = 0; i < argc; ++i) {
    require_utf8(argv[i], "command line", "argument " + std::to_string(i), kUtf8Reason);
    arguments.push_back(argv[i]);
  }
  json_["argv"] = arguments;
  json_["cwd"] = std::filesystem::current_path(error).string();
  require_utf8(json_["cwd"].get<std::string>(), "working folder", "path", kUtf8Reason);
  json_["host"] = {{"name", host_name()},
                   {"cpu", host_cpu_model()},
                   {"hardware_threads", std::thread::hardware_concurrency()}};
  // The process's start, not this object's: the run's parsing, checks and hashing count too.
  json_["start_time"] = utc_iso8601(process_start_time());
  json_["parameters"] = nlohmann::json::object();
  json_["inputs"] = nlohmann::json::array();
  json_["outputs"] = nlohmann::json::array();
  json_["counts"] = nlohmann::json::object();
  json_["timings_s"] = nlohmann::json::object();
}

void Manifest::add_timings(const PhaseTimes& times) {
  for (const auto& [phase, seconds] : times.all()) json_["timings_s"][phase] = seconds;
}

void Manifest::add_input(const std::filesystem::path& path, const std::string& role) {
  if (path == "-") {
    json_["inputs"].push_back(
        {{"path", "-"}, {"role", role}, {"size", 0}, {"hash", kNoHashScheme}});
    return;
  }
  std::error_code error;
  (void)std::filesystem::file_size(path, error);
  if (error) throw_input_error(path.string(), "", "cannot be read: " + error.message());
  add_input(path.string(), role, std::make_unique<BackgroundFileHash>(path.string()));
}

void Manifest::add_input(const std::string& path, const std::string& role,
                         std::unique_ptr<BackgroundFileHash> hash) {
  require_utf8_path(path);
  json_["inputs"].push_back({{"path", path}, {"role", role}});
  pending_inputs_.emplace_back(json_["inputs"].size() - 1, std::move(hash));
}

void Manifest::wait_for_input_hashes() {
  for (auto& [index, hash] : pending_inputs_) {
    const BackgroundFileHash::Result result = hash->result();
    nlohmann::json& entry = json_["inputs"][index];
    entry["size"] = result.size;
    entry.update(tree_hash_fields(result.hex));
  }
  pending_inputs_.clear();
}

void Manifest::add_input_hashed(const std::string& path, const std::string& role,
                                std::uint64_t size, const std::string& tree_sha256) {
  require_utf8_path(path);
  json_["inputs"].push_back(file_entry(path, role, size, tree_sha256));
}

void Manifest::add_output(const std::filesystem::path& path, const std::string& role) {
  require_utf8_path(path.string());
  std::error_code error;
  const auto size = std::filesystem::file_size(path, error);
  if (error) throw_run_failure(path.string(), "output missing after write");
  json_["outputs"].push_back(file_entry(path.string(), role, size, block_tree_sha256_file(path)));
}

void Manifest::add_output(const OutputSet& outputs, const std::filesystem::path& path,
                          const std::string& role) {
  const std::filesystem::path& temp = outputs.temp_path(path);
  std::error_code error;
  const auto size = std::filesystem::file_size(temp, error);
  if (error) throw_run_failure(path.string(), "output missing after write");
  json_["outputs"].push_back(file_entry(path.string(), role, size, block_tree_sha256_file(temp)));
}

void Manifest::add_output_hashed(const std::string& path, const std::string& role,
                                 std::uint64_t size, const std::string& tree_sha256) {
  require_utf8_path(path);
  json_["outputs"].push_back(file_entry(path, role, size, tree_sha256));
}

std::string Manifest::run_digest() {
  wait_for_input_hashes();
  nlohmann::json parameters = json_["parameters"];
  if (json_.contains("digest_excludes"))
    for (const auto& key : json_["digest_excludes"]) parameters.erase(key.get<std::string>());
  nlohmann::json identity = {
      {"tool", json_["tool"]}, {"version", json_["version"]}, {"parameters", parameters}};
  for (const auto& input : json_["inputs"])
    identity["inputs"].push_back(input.value("sha256_tree", std::string(kNoHashScheme)));
  const std::string text = dump_checked(identity, -1, "run digest");
  return sha256_hex(text.data(), text.size());
}

std::filesystem::path manifest_path_for(const std::filesystem::path& output_path) {
  auto path = output_path;
  path += ".manifest.json";
  return path;
}

void Manifest::write(const std::filesystem::path& output_path, bool force) {
  OutputSet outputs(force);
  commit(outputs, output_path);
}

void Manifest::commit(OutputSet& outputs, const std::filesystem::path& output_path) {
  wait_for_input_hashes();
  json_["end_time"] = utc_iso8601(std::chrono::system_clock::now());
  // Wall seconds of the whole run up to its outputs' commit (the record's own write aside).
  json_["timings_s"]["run_wall"] = seconds_since_process_start();
  json_["host"]["peak_rss_bytes"] = peak_resident_bytes();
  json_["run_digest"] = run_digest();
  const std::filesystem::path path = manifest_path_for(output_path);
  write_text_file(outputs.add_record(path), dump_checked(json_, 2, path.string()) + '\n',
                  path.string());
  outputs.commit();
}

void write_json_output(OutputSet& outputs, const std::filesystem::path& path,
                       const nlohmann::json& json) {
  write_text_file(outputs.add(path), dump_checked(json, 2, path.string()) + '\n', path.string());
}

nlohmann::json read_manifest(const std::filesystem::path& path) {
  nlohmann::json manifest = read_json_input(path, "manifest", kMaxManifestBytes);
  const JsonField root(manifest, path.string());
  if (!manifest.is_object())
    root.fail("not a starlens manifest (a JSON object; this is " + json_type_name(manifest) + ")");
  if (root.string_or("format", "") != "starlens-manifest")
    throw_input_error(path.string(), "format", "not a starlens manifest");
  return manifest;
}

}  // namespace starlens
