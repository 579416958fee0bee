#include <doctest/doctest.h>
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <vector>

#include "core/errors.h"
#include "manifest/manifest.h"
#include "manifest/sha256.h"

namespace fs = std::filesystem;

TEST_CASE("SHA-256 matches the FIPS 180-2 test vectors") {
  CHECK(starlens::sha256_hex("abc", 3) ==
        "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  CHECK(starlens::sha256_hex("", 0) ==
        "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  const std::string million_a(1000000, 'a');
  starlens::Sha256Stream stream;
  for (int i = 0; i < 10; ++i) stream.update(million_a.data() + i * 100000, 100000);
  CHECK(stream.finish_hex() == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
}

TEST_CASE("a manifest records inputs, outputs, parameters and round-trips") {
  const fs::path folder =
      fs::temp_directory_path() / ("starlens_manifest_" + std::to_string(::getpid()));
  fs::remove_all(folder);
  fs::create_directories(folder);
  const auto input = folder / "in.txt";
  std::ofstream(input) << "abc";
  const auto output = folder / "out.txt";
  std::ofstream(output) << "";

  char arg0[] = "starlens-test";
  char arg1[] = "--flag";
  char* argv[] = {arg0, arg1};
  starlens::Manifest manifest("test", 2, argv);
  manifest.parameters()["psf_fwhm"] = 2.0;
  manifest.counts()["events"] = 7;
  manifest.add_input(input, "catalog");
  manifest.add_output(output, "frame");
  manifest.set_threads(3);
  // 64 MiB touched here: the manifest's peak resident memory must count at least that.
  std::vector<char> touched(64 << 20, 1);
  manifest.write(output, false);

  const auto read = starlens::read_manifest(starlens::manifest_path_for(output));
  CHECK(read["tool"] == "test");
  CHECK(read["argv"][1] == "--flag");
  CHECK(read["parameters"]["psf_fwhm"] == 2.0);
  CHECK(read["format_version"] == 2);
  // Tree hashes (one block: SHA-256 of the block's raw digest; none: SHA-256 of nothing),
  // the values computed with Python's hashlib.
  CHECK(read["inputs"][0]["hash"] == "sha256-tree-4MiB");
  CHECK(read["inputs"][0]["sha256_tree"] ==
        "4f8b42c22dd3729b519ba6f68d2da7cc5b2d606d05daed5ad5128cc03e6c6358");
  CHECK(read["inputs"][0]["size"] == 3);
  CHECK(read["outputs"][0]["hash"] == "sha256-tree-4MiB");
  CHECK(read["outputs"][0]["sha256_tree"] ==
        "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  CHECK(read["threads"] == 3);
  CHECK(read["executable"]["hash"] == "sha256-tree-4MiB");
  CHECK(read["executable"]["sha256_tree"].get<std::string>().size() == 64);
  for (const char* key : {"git_describe", "build", "host", "start_time", "end_time", "run_digest"})
    CHECK(read.contains(key));
  const auto peak = read["host"]["peak_rss_bytes"].get<std::uint64_t>();
  CHECK(peak >= touched.size());
  CHECK(peak < (std::uint64_t(1) << 40));
  // Nothing is written over an existing manifest without force.
  CHECK_THROWS_AS(manifest.write(output, false), starlens::InputError);
  fs::remove_all(folder);
}

TEST_CASE("a file that is not a manifest is bad input") {
  const fs::path path =
      fs::temp_directory_path() / ("starlens_notmanifest_" + std::to_string(::getpid()));
  std::ofstream(path) << "{\"format\": \"other\"}";
  CHECK_THROWS_AS(starlens::read_manifest(path), starlens::InputError);
  std::ofstream(path) << "{not json";
  CHECK_THROWS_AS(starlens::read_manifest(path), starlens::InputError);
  fs::remove(path);
}
