// The shared CLI11 validators: an output named as another format's file and standard output
// where it is not supported are refused; thread counts are whole numbers >= 0.
#include <doctest/doctest.h>

#include "core/cli_validators.h"

namespace starlens {
namespace {

std::string check(const CLI::Validator& validator, std::string value) {
  return validator(value);
}

TEST_CASE("an output's name is refused when it names another format") {
  const CLI::Validator exr = output_name("OpenEXR", {".exr"});
  CHECK(check(exr, "frame.exr").empty());
  CHECK(check(exr, "FRAME.EXR").empty());
  CHECK(check(exr, "frame").empty());          // no extension: taken as given
  CHECK(check(exr, "frame.scratch").empty());  // an extension of no known format
  CHECK(check(exr, "frame.png") ==
        "'frame.png' names a PNG file, but this output is OpenEXR: name it .exr");
  CHECK(check(output_name("HDF5", {".h5", ".hdf5"}), "map.exr") ==
        "'map.exr' names an OpenEXR file, but this output is HDF5: name it .h5 or .hdf5");
  CHECK(check(exr, "-").find("standard output ('-') is not supported") == 0);
  CHECK(check(output_name("an event stream", {".sle"}, true), "-").empty());
}

TEST_CASE("a thread count is a whole number >= 0") {
  const CLI::Validator threads = thread_count();
  CHECK(check(threads, "0").empty());
  CHECK(check(threads, "16").empty());
  CHECK(check(threads, "-1") == "-1 is negative: give a number of threads, 0 for all cores");
  CHECK(check(threads, "2.5").find("not a whole number") != std::string::npos);
  CHECK(check(threads, "99999999999").find("not a whole number") != std::string::npos);
}

}  // namespace
}  // namespace starlens
