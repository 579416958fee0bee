// JsonField: each wrong shape of untrusted JSON is one InputError naming the file and key path.
#include <doctest/doctest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "core/checked_json.h"
#include "core/errors.h"

using nlohmann::json;
using starlens::InputError;
using starlens::JsonField;

namespace {

template <typename Access>
std::string error_of(Access access) {
  try {
    access();
  } catch (const InputError& e) {
    return e.what();
  }
  return "no error";
}

}  // namespace

TEST_CASE("values of the right type are returned") {
  const json value = json::parse(
      R"({"parameters": {"psf": {"cache_radius": 12, "fwhm": 2.5}}, "argv": ["a", "b"],
          "count": 18446744073709551615, "flag": true, "name": "x"})");
  const JsonField root(value, "m.json");
  CHECK(root["parameters"]["psf"]["cache_radius"].as_integer() == 12);
  CHECK(root["parameters"]["psf"]["cache_radius"].as_number() == 12.0);
  CHECK(root["parameters"]["psf"]["fwhm"].as_number() == 2.5);
  CHECK(root["count"].as_count() == 18446744073709551615ull);
  CHECK(root["flag"].as_bool());
  CHECK(root.string_or("name", "?") == "x");
  CHECK(root.string_or("absent", "?") == "?");
  CHECK_FALSE(root.find("absent"));
  const auto argv = root["argv"].elements();
  REQUIRE(argv.size() == 2);
  CHECK(argv[1].as_string() == "b");
  CHECK(argv[1].key_path() == "argv[1]");
  CHECK(root["parameters"].members().front().first == "psf");
}

TEST_CASE("wrong types, missing keys and extra nesting name the file and the key path") {
  const json value = json::parse(
      R"({"parameters": {"psf": {"cache_radius": "12", "nested": {"fwhm": [2.5]}}},
          "argv": [["a"]], "inputs": {"path": "x"}, "count": -1, "big": 9223372036854775808,
          "fraction": 1.5, "name": 7})");
  const JsonField root(value, "m.json");
  CHECK(error_of([&] { root["parameters"]["psf"]["cache_radius"].as_integer(); }) ==
        "m.json: parameters.psf.cache_radius: expected an integer (is a string)");
  CHECK(error_of([&] { root["parameters"]["psf"]["nested"]["fwhm"].as_number(); }) ==
        "m.json: parameters.psf.nested.fwhm: expected a number (is an array)");
  CHECK(error_of([&] { root["argv"].elements()[0].as_string(); }) ==
        "m.json: argv[0]: expected a string (is an array)");
  CHECK(error_of([&] { root["inputs"].elements(); }) ==
        "m.json: inputs: expected an array (is an object)");
  CHECK(error_of([&] { root["argv"]["x"]; }) == "m.json: argv: expected an object (is an array)");
  CHECK(error_of([&] { root["parameters"]["psf"]["radius"]; }) ==
        "m.json: parameters.psf.radius: missing");
  CHECK(error_of([&] { root["count"].as_count(); }) ==
        "m.json: count: expected an integer >= 0 (is -1)");
  CHECK(error_of([&] { root["big"].as_integer(); }) ==
        "m.json: big: integer 9223372036854775808 is too large (at most 9223372036854775807)");
  CHECK(error_of([&] { root["fraction"].as_integer(); }) ==
        "m.json: fraction: expected an integer (is a number)");
  CHECK(error_of([&] { root.string_or("name", "?"); }) ==
        "m.json: name: expected a string (is an integer)");
  CHECK(error_of([&] { root["parameters"]["psf"].as_bool(); }) ==
        "m.json: parameters.psf: expected true or false (is an object)");
}

TEST_CASE("a root that is not an object is named by the file alone") {
  for (const char* text : {"[1, 2]", "\"text\"", "3", "null"}) {
    const json value = json::parse(text);
    const JsonField root(value, "m.json");
    CHECK(error_of([&] { root["format"]; }) ==
          "m.json: expected an object (is " + starlens::json_type_name(value) + ")");
  }
}

TEST_CASE("read_json_input: empty, broken and invalid UTF-8 files are bad input") {
  const auto folder =
      std::filesystem::temp_directory_path() / ("starlens_test_json_" + std::to_string(::getpid()));
  std::filesystem::create_directories(folder);
  const auto write = [&](const std::string& name, const std::string& text) {
    std::ofstream(folder / name, std::ios::binary) << text;
    return folder / name;
  };
  const auto read = [](const std::filesystem::path& path) {
    return error_of([&] { starlens::read_json_input(path, "manifest", 1 << 20); });
  };
  CHECK(starlens::read_json_input(write("ok.json", "{\"a\": 1}"), "manifest", 100)["a"] == 1);
  CHECK(read(write("empty.json", "")) ==
        (folder / "empty.json").string() + ": is empty, not a manifest");
  CHECK(read(write("blank.json", " \n")) ==
        (folder / "blank.json").string() + ": is empty, not a manifest");
  CHECK(read(write("cut.json", "{\"a\": ")).find("cut.json: not valid JSON: ") !=
        std::string::npos);
  CHECK(read(write("bytes.json", "{\"a\": \"\xff\"}")).find("bytes.json: not valid JSON: ") !=
        std::string::npos);
  std::filesystem::remove_all(folder);
}
