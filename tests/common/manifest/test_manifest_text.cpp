// What may reach a manifest and what a manifest read must be: arguments, paths and recorded
// text are UTF-8 (JSON's strings are), checked where they enter; read_manifest refuses what is
// not a manifest by kind and shape, naming the file and the key.
#include <doctest/doctest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "core/errors.h"
#include "manifest/hash_scheme.h"
#include "manifest/manifest.h"

namespace fs = std::filesystem;
using starlens::InputError;
using starlens::Manifest;
using starlens::RunFailure;

namespace {

struct Folder {
  fs::path path;
  Folder() : path(fs::temp_directory_path() / ("starlens_mtext_" + std::to_string(::getpid()))) {
    fs::remove_all(path);
    fs::create_directories(path);
  }
  ~Folder() { fs::remove_all(path); }
};

template <typename Action>
std::string error_of(Action action) {
  try {
    action();
  } catch (const std::exception& e) {
    return e.what();
  }
  return "no error";
}

}  // namespace

TEST_CASE("an argument that is not UTF-8 is bad input naming it") {
  char arg0[] = "starlens-test";
  char arg1[] = "in\xff.csv";
  char* argv[] = {arg0, arg1};
  CHECK_THROWS_AS(Manifest("test", 2, argv), InputError);
  CHECK(error_of([&] { Manifest("test", 2, argv); }) ==
        "command line: argument 1: byte 0xFF at offset 2 is not UTF-8 (a manifest records it in "
        "JSON, whose strings are UTF-8)");
  char arg2[] = "in\xc3\xa9.csv";  // UTF-8 'é'
  char* fine[] = {arg0, arg2};
  CHECK_NOTHROW(Manifest("test", 2, fine));
}

TEST_CASE("file names that are not UTF-8 are bad input; text that slips through is a RunFailure") {
  Folder folder;
  char arg0[] = "starlens-test";
  char* argv[] = {arg0};
  Manifest manifest("test", 1, argv);
  const fs::path odd = folder.path / "f\xfe.bin";
  std::ofstream(odd) << "x";
  CHECK(error_of([&] { manifest.add_input(odd, "input"); }).find(": file name: byte 0xFE at") !=
        std::string::npos);
  CHECK_THROWS_AS(manifest.add_output(odd, "output"), InputError);
  CHECK_THROWS_AS(manifest.add_input_hashed(odd.string(), "input", 1, std::string(64, 'a')),
                  InputError);
  // A tool that recorded unchecked text: the manifest is not written, and the failure names it.
  const fs::path output = folder.path / "out.bin";
  std::ofstream(output) << "y";
  manifest.section("bad") = std::string("\xff");
  CHECK_THROWS_AS(manifest.write(output, false), RunFailure);
  const std::string message = error_of([&] { manifest.write(output, false); });
  CHECK(message.find("internal error: text that is not UTF-8 reached it") != std::string::npos);
  CHECK(message.find(output.string()) != std::string::npos);
  manifest.parameters()["name"] = std::string("\xff");
  CHECK_THROWS_AS(manifest.run_digest(), RunFailure);
  CHECK_FALSE(fs::exists(starlens::manifest_path_for(output)));
}

TEST_CASE("read_manifest: folders, devices, empty files and non-objects are named as such") {
  Folder folder;
  const auto write = [&](const std::string& name, const std::string& text) {
    std::ofstream(folder.path / name, std::ios::binary) << text;
    return folder.path / name;
  };
  const auto read = [](const fs::path& path) {
    return error_of([&] { starlens::read_manifest(path); });
  };
  CHECK(read(folder.path) == folder.path.string() + ": is a folder, not a manifest file");
  CHECK(read("/dev/null") == "/dev/null: is a character device, not a manifest file");
  CHECK(read(write("empty.json", "")) ==
        (folder.path / "empty.json").string() + ": is empty, not a manifest");
  CHECK(read(write("array.json", "[{\"format\": \"starlens-manifest\"}]")) ==
        (folder.path / "array.json").string() +
            ": not a starlens manifest (a JSON object; this is an array)");
  CHECK(read(write("number.json", "{\"format\": 2}")) ==
        (folder.path / "number.json").string() + ": format: expected a string (is an integer)");
  CHECK(read(write("other.json", "{\"format\": \"other\"}")) ==
        (folder.path / "other.json").string() + ": format: not a starlens manifest");
  CHECK(read(write("bytes.json", "{\"format\": \"starlens-manifest\", \"tool\": \"\xff\"}"))
            .find("bytes.json: not valid JSON: ") != std::string::npos);
  CHECK(read(write("fine.json", "{\"format\": \"starlens-manifest\"}")) == "no error");
}

TEST_CASE("a recorded hash of the wrong type is named by the entry's key path") {
  const nlohmann::json manifest = nlohmann::json::parse(
      R"({"inputs": [{"path": "a", "hash": "none"}, {"path": "b", "hash": ["sha256-tree-4MiB"]},
                     {"path": "c", "sha256": 5}, {"path": 7, "sha256": "stdin"}]})");
  const starlens::JsonField inputs = starlens::JsonField(manifest, "m.json")["inputs"];
  const auto entries = inputs.elements();
  CHECK_FALSE(starlens::recorded_hash(entries[0]));
  CHECK(error_of([&] { starlens::recorded_hash(entries[1]); }) ==
        "m.json: inputs[1].hash: expected a string (is an array)");
  CHECK(error_of([&] { starlens::recorded_hash(entries[2]); }) ==
        "m.json: inputs[2].sha256: expected a string (is an integer)");
  CHECK(error_of([&] { starlens::recorded_hash(entries[3]); }) ==
        "m.json: inputs[3].path: expected a string (is an integer)");
}
