#include "manifest/replay.h"

#include <unistd.h>

#include <filesystem>
#include <iostream>
#include <map>
#include <vector>

#include "core/errors.h"
#include "core/tool_main.h"
#include "manifest/manifest.h"
#include "manifest/sha256.h"

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

// Fails (exit 2 via InputError) naming the first input whose content changed.
void verify_inputs(const nlohmann::json& manifest, const std::string& manifest_path) {
  for (const auto& input : manifest.value("inputs", nlohmann::json::array())) {
    const std::string path = input.value("path", "");
    const std::string expected = input.value("sha256", "");
    if (path == "-" || expected == "stdin") continue;
    if (!fs::exists(path)) throw_input_error(path, "", "input of " + manifest_path + " is missing");
    const std::string actual = sha256_file(path);
    if (actual != expected)
      throw_input_error(path, "sha256",
                        "input changed since " + manifest_path + " (now " + actual.substr(0, 16) +
                            "..., recorded " + expected.substr(0, 16) + "...)");
  }
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
  const nlohmann::json manifest = read_manifest(manifest_path);
  if (manifest.value("tool", "") != tool_name)
    throw_input_error(manifest_path.string(), "tool",
                      "written by " + manifest.value("tool", "?") + ", not " + tool_name);

  // Relative paths in M are relative to the folder it ran in.
  const std::string run_folder = manifest.value("cwd", manifest_path.parent_path().string());
  const std::string main_output =
      request.main_output.empty() ? "" : fs::absolute(request.main_output).string();
  if (chdir(run_folder.c_str()) != 0)
    throw_input_error(manifest_path.string(), "cwd", "folder '" + run_folder + "' is gone");
  verify_inputs(manifest, manifest_path.string());

  std::map<std::string, std::string> replaced;  // original output -> replay output
  const auto& outputs = manifest.value("outputs", nlohmann::json::array());
  for (std::size_t k = 0; k < outputs.size(); ++k) {
    const std::string original = outputs[k].value("path", "");
    replaced[original] = (k == 0 && !main_output.empty()) ? main_output : replay_path_for(original);
  }
  std::vector<std::string> arguments;
  for (const auto& argument : manifest.at("argv")) {
    const std::string text = argument.get<std::string>();
    const auto found = replaced.find(text);
    arguments.push_back(found == replaced.end() ? text : found->second);
  }
  const auto& parameters = manifest.value("parameters", nlohmann::json::object());
  for (const ReplayDefault& older : older_defaults)
    if (!parameters.contains(older.parameter))
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
  for (const auto& output : outputs) {
    const std::string original = output.value("path", "");
    const std::string replay = replaced[original];
    const std::string actual = fs::exists(replay) ? sha256_file(replay) : "missing";
    const bool match = actual == output.value("sha256", "");
    nlohmann::json entry = {{"recorded", original}, {"replay", replay}, {"match", match}};
    std::optional<nlohmann::json> check;
    if (!match && actual != "missing" && output_check)
      check = output_check(manifest, output, replay);
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
  const std::string first_output = outputs.empty() ? "" : replaced[outputs[0].value("path", "")];
  if (!first_output.empty() && fs::exists(manifest_path_for(first_output))) {
    const auto replay_manifest = read_manifest(manifest_path_for(first_output));
    const bool counts_match = replay_manifest.value("counts", nlohmann::json()) ==
                              manifest.value("counts", nlohmann::json());
    report["counts_match"] = counts_match;
    all_match = all_match && counts_match;
  }
  // A different binary may legitimately compute different bytes: say so next to the verdict.
  std::error_code error;
  const auto executable = fs::read_symlink("/proc/self/exe", error);
  const std::string recorded_executable =
      manifest.value("executable", nlohmann::json::object()).value("sha256", "");
  report["same_executable"] = !error && sha256_file(executable) == recorded_executable;
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
