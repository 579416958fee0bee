// A manifest entry's recorded hash: version 2's named scheme, version 1's plain SHA-256,
// standard input (nothing to verify) and what is refused.
#include <doctest/doctest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "core/errors.h"
#include "manifest/hash_scheme.h"

namespace fs = std::filesystem;
using namespace starlens;

TEST_CASE("version 2, version 1 and standard-input entries") {
  const std::string tree(64, 'a'), plain(64, 'b');
  const auto v2 =
      recorded_hash({{"path", "x"}, {"hash", "sha256-tree-4MiB"}, {"sha256_tree", tree}}, "m");
  REQUIRE(v2);
  CHECK(v2->scheme == "sha256-tree-4MiB");
  CHECK(v2->field == "sha256_tree");
  CHECK(v2->hex == tree);
  const auto v1 = recorded_hash({{"path", "x"}, {"sha256", plain}}, "m");
  REQUIRE(v1);
  CHECK(v1->scheme == "sha256");
  CHECK(v1->hex == plain);
  CHECK_FALSE(recorded_hash({{"path", "-"}, {"sha256", "stdin"}}, "m"));
  CHECK_FALSE(recorded_hash({{"path", "-"}, {"hash", "none"}}, "m"));
}

TEST_CASE("unknown schemes and missing digests are bad input naming the manifest and field") {
  CHECK_THROWS_WITH_AS(
      recorded_hash({{"path", "x"}, {"hash", "md5"}}, "m.json"),
      doctest::Contains("m.json: hash: entry for x names the unknown hash scheme 'md5'"),
      InputError);
  CHECK_THROWS_WITH_AS(recorded_hash({{"path", "x"}, {"hash", "sha256-tree-4MiB"}}, "m.json"),
                       doctest::Contains("m.json: sha256_tree:"), InputError);
  CHECK_THROWS_AS(recorded_hash({{"path", "x"}}, "m.json"), InputError);
}

TEST_CASE("a file hashed as each scheme (values from Python's hashlib)") {
  const fs::path path =
      fs::temp_directory_path() / ("starlens-scheme-" + std::to_string(::getpid()));
  std::ofstream(path, std::ios::binary) << "abc";
  CHECK(hash_file_as("sha256", path) ==
        "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  CHECK(hash_file_as("sha256-tree-4MiB", path) ==
        "4f8b42c22dd3729b519ba6f68d2da7cc5b2d606d05daed5ad5128cc03e6c6358");
  fs::remove(path);
}
