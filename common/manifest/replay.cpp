#include "manifest/replay.h"

#include <unistd.h>

#include <filesystem>
#include <iostream>
#include <map>
#include <vector>

#include "core/errors.h"
#include "core/tool_main.h"
#include "core/utf8.h"
#include "manifest/hash_scheme.h"
#include "manifest/manifest.h"

namespace starlens {
namespace {

namespace fs = std::filesystem;

struct ReplayRequest {
  std::string manifest_path;
  std::string main_output;  // -o given with --from-manifest, else empty
};

bool find_request(int argc, char** argv, ReplayRequest& request) {
  bool found = false;
  for (int i = 1; i < argc; ++i) {
    const std::string argument = argv[i];
    if (argument == "--from-manifest" && i + 1 < argc) {
      request.manifest_path = argv[++i];
      found = true;
    } else if (argument.rfind("--from-manifest=", 0) == 0) {
      request.manifest_path = argument.substr(16);
      found = true;
    } else if ((argument == "-o" || argument == "--output") && i + 1 < argc) {
      request.main_output = argv[++i];
    }
  }
  return found;
}

// Fails (exit 2 via InputError) naming the first input whose content changed, each verified
// with the hash scheme its entry recorded (a version 1 manifest's plain SHA-256 included).
void verify_inputs(const std::vector<JsonField>& inputs, const std::string& manifest_path) {
  for (const JsonField& input : inputs) {
    const std::string path = input["path"].as_string();
    const auto recorded = recorded_hash(input);
    if (path == "-" || !recorded) continue;
    if (!fs::exists(path)) throw_input_error(path, "", "input of " + manifest_path + " is missing");
    const std::string actual = hash_file_as(recorded->scheme, path);
    if (actual != recorded->hex)
      throw_input_error(path, recorded->field,
                        "input changed since " + manifest_path + " (now " + actual.substr(0, 16) +
                            "..., recorded " + recorded->hex.substr(0, 16) + "...)");
  }
}

// Whether a file has the hash an entry recorded, under the entry's scheme.
bool has_recorded_hash(const std::string& path, const JsonField& entry) {
  const auto recorded = recorded_hash(entry);
  return recorded && fs::exists(path) && hash_file_as(recorded->scheme, path) == recorded->hex;
}

// A list of M's file entries: an array of objects, each with a string "path" and a recorded
// hash of a known scheme (checked here, so that a bad entry fails before the replay runs).
std::vector<JsonField> file_entries(const JsonField& manifest, const std::string& key) {
  const auto list = manifest.find(key);
  if (!list) return {};
  std::vector<JsonField> entries = list->elements();
  for (const JsonField& entry : entries) {
    entry["path"].as_string();
    recorded_hash(entry);
  }
  return entries;
}

// What M must hold for a replay, checked before anything runs: its argv (strings, the
// executable first), and, when present, parameters and executable as objects.
std::vector<std::string> recorded_argv(const JsonField& manifest) {
  std::vector<std::string> arguments;
  for (const JsonField& argument : manifest["argv"].elements())
    arguments.push_back(argument.as_string());
  if (arguments.empty()) manifest["argv"].fail("is empty (it starts with the executable)");
  for (const char* key : {"parameters", "executable"})
    if (const auto section = manifest.find(key)) section->require_object();
  return arguments;
}

}  // namespace

std::string replay_path_for(const std::string& original) {
  const fs::path path(original);
  fs::path replay = path.parent_path() / path.stem();
  replay += ".replay";
  replay += path.extension();
  return replay.string();
}

int replay_from_manifest_if_asked(const std::string& tool_name, int argc, char** argv,
                                  const std::function<int(int, char**)>& run,
                                  const std::vector<ReplayDefault>& older_defaults,
                                  const ReplayOutputCheck& output_check) {
  ReplayRequest request;
  if (!find_request(argc, argv, request)) return -1;
  const fs::path manifest_path = fs::absolute(request.manifest_path);
  require_utf8(manifest_path.string(), manifest_path.string(), "file name",
               "the replay's report names it in JSON");
  const nlohmann::json manifest_json = read_manifest(manifest_path);
  const JsonField manifest(manifest_json, manifest_path.string());
  const std::int64_t version = manifest["format_version"].as_integer();
  if (version != 1 && version != 2)
    throw_input_error(manifest_path.string(), "format_version",
                      "is " + std::to_string(version) +
                          ": this build replays versions 1 (plain SHA-256) and 2 (tree hash)");
  const std::string recorded_tool = manifest["tool"].as_string();
  if (recorded_tool != tool_name)
    throw_input_error(manifest_path.string(), "tool",
                      "written by " + recorded_tool + ", not " + tool_name);
  const std::vector<JsonField> inputs = file_entries(manifest, "inputs");
  const std::vector<JsonField> outputs = file_entries(manifest, "outputs");
  std::vector<std::string> arguments = recorded_argv(manifest);

  // Relative paths in M are relative to the folder it ran in.
  const std::string run_folder = manifest.string_or("cwd", manifest_path.parent_path().string());
  const std::string main_output =
      request.main_output.empty() ? "" : fs::absolute(request.main_output).string();
  if (chdir(run_folder.c_str()) != 0)
    throw_input_error(manifest_path.string(), "cwd", "folder '" + run_folder + "' is gone");
  verify_inputs(inputs, manifest_path.string());

  std::map<std::string, std::string> replaced;  // original output -> replay output
  for (std::size_t k = 0; k < outputs.size(); ++k) {
    const std::string original = outputs[k]["path"].as_string();
    replaced[original] = (k == 0 && !main_output.empty()) ? main_output : replay_path_for(original);
  }
  for (std::string& argument : arguments) {
    const auto found = replaced.find(argument);
    if (found != replaced.end()) argument = found->second;
  }
  const auto parameters = manifest.find("parameters");
  for (const ReplayDefault& older : older_defaults)
    if (!parameters || !parameters->contains(older.parameter))
      arguments.insert(arguments.end(), older.arguments.begin(), older.arguments.end());
  arguments.push_back("--force");  // a replay overwrites its own earlier replay outputs
  std::vector<char*> replay_argv;
  for (auto& argument : arguments) replay_argv.push_back(argument.data());
  replay_argv.push_back(nullptr);

  const int status = run(static_cast<int>(arguments.size()), replay_argv.data());
  if (status != 0) return status;

  // Compare what the replay wrote with what M recorded.
  bool all_match = true, any_equivalent = false;
  nlohmann::json report = {{"manifest", manifest_path.string()}, {"inputs_verified", true}};
  for (const JsonField& output : outputs) {
    const std::string original = output["path"].as_string();
    const std::string replay = replaced[original];
    const bool exists = fs::exists(replay);
    const bool match = exists && has_recorded_hash(replay, output);
    nlohmann::json entry = {{"recorded", original}, {"replay", replay}, {"match", match}};
    std::optional<nlohmann::json> check;
    if (!match && exists && output_check) check = output_check(manifest, output, replay);
    if (check) {
      const bool equivalent = check->value("equivalent", false);
      entry["equivalent"] = *check;
      any_equivalent = any_equivalent || equivalent;
      all_match = all_match && equivalent;
    } else {
      all_match = all_match && match;
    }
    report["outputs"].push_back(entry);
  }
  const std::string first_output = outputs.empty() ? "" : replaced[outputs[0]["path"].as_string()];
  if (!first_output.empty() && fs::exists(manifest_path_for(first_output))) {
    const auto replay_manifest = read_manifest(manifest_path_for(first_output));
    const auto counts_of = [](const nlohmann::json& json) {
      const auto found = json.find("counts");
      return found == json.end() ? nlohmann::json() : *found;
    };
    const bool counts_match = counts_of(replay_manifest) == counts_of(manifest_json);
    report["counts_match"] = counts_match;
    all_match = all_match && counts_match;
  }
  // A different binary may legitimately compute different bytes: say so next to the verdict.
  std::error_code error;
  const auto executable = fs::read_symlink("/proc/self/exe", error);
  bool same_executable = false;
  try {
    const auto recorded_executable = manifest.find("executable");
    same_executable = !error && recorded_executable &&
                      has_recorded_hash(executable.string(), *recorded_executable);
  } catch (const InputError&) {  // an executable recorded without a hash cannot be compared
  }
  report["same_executable"] = same_executable;
  report["match"] = all_match;
  std::cout << report.dump(2) << '\n';
  std::cerr << tool_name << ": replay of " << manifest_path.string() << ": "
            << (all_match ? "outputs and counts match" : "MISMATCH")
            << (all_match && any_equivalent ? " (an output within its budget, not bit for bit)"
                                            : "")
            << (report["same_executable"] ? "" : " (the executable differs from the recorded one)")
            << '\n';
  return all_match ? kExitOk : kExitFailure;
}

int run_stage_main(const std::string& tool_name, int argc, char** argv,
                   const std::function<int(int, char**)>& run,
                   const std::vector<ReplayDefault>& older_defaults,
                   const ReplayOutputCheck& output_check) {
  return run_tool(tool_name, [&] {
    const int replay_status =
        replay_from_manifest_if_asked(tool_name, argc, argv, run, older_defaults, output_check);
    return replay_status >= 0 ? replay_status : run(argc, argv);
  });
}

}  // namespace starlens
