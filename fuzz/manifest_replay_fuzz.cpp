// <output>.manifest.json as `--from-manifest` reads it (replay_from_manifest_if_asked: the
// manifest's format, version and tool, its working folder, every input's recorded hash checked
// against the file, the argv replayed with the outputs renamed, and the outputs' entries
// compared). The replayed stage is this harness's `run`, which writes nothing and succeeds, so
// the replay goes on to read every output entry. InputError is the expected outcome of a bad
// manifest; anything else is a finding.
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <nlohmann/json.hpp>
#include <string>

#include "core/errors.h"
#include "fuzz_input.h"
#include "manifest/replay.h"

namespace {

std::filesystem::path start_folder;

// The tool the manifest names when it names one (so that the replay gets past its tool check),
// else one of the stages.
std::string tool_of(const std::uint8_t* data, std::size_t size) {
  const auto json = nlohmann::json::parse(data, data + size, nullptr, false);
  if (json.is_object() && json.contains("tool") && json["tool"].is_string())
    return json["tool"].get<std::string>();
  return "starlens-produce";
}

}  // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  starlens::fuzz::use_one_thread();
  start_folder = std::filesystem::current_path();
  // The replay's report and verdict lines; sanitizer and libFuzzer reports go to fd 2 directly.
  std::cout.setstate(std::ios::badbit);
  std::cerr.setstate(std::ios::badbit);
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static starlens::fuzz::InputFile input("output.manifest.json");
  std::string path = input.write(data, size);
  std::string program = "starlens-fuzz", flag = "--from-manifest";
  char* argv[] = {program.data(), flag.data(), path.data(), nullptr};
  try {
    (void)starlens::replay_from_manifest_if_asked(tool_of(data, size), 3, argv,
                                                  [](int, char**) { return 0; });
  } catch (const starlens::InputError&) {
  }
  // The replay moves to the manifest's working folder; the next input starts where this one did.
  if (chdir(start_folder.c_str()) != 0) std::abort();
  return 0;
}
