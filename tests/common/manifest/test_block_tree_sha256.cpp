// The tree hash against its definition, built here from plain SHA-256 (checked against FIPS
// 180-2 in test_manifest.cpp): buffer, file and stream APIs agree with it for sizes around the
// block size and with one or several threads; the errors a file or a sink can cause.
#include <doctest/doctest.h>
#include <fcntl.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

#include "core/errors.h"
#include "manifest/background_file_hash.h"
#include "manifest/block_tree_sha256.h"
#include "manifest/hash_pool.h"
#include "manifest/sha256.h"

namespace fs = std::filesystem;
using namespace starlens;

namespace {

std::vector<unsigned char> random_bytes(std::size_t size, unsigned seed) {
  std::mt19937 generator(seed);
  std::vector<unsigned char> bytes(size);
  for (auto& byte : bytes) byte = static_cast<unsigned char>(generator());
  return bytes;
}

// The definition: SHA-256 of the concatenated raw digests of consecutive 4 MiB blocks.
std::string defined_tree_hash(const std::vector<unsigned char>& data) {
  Sha256Stream outer;
  for (std::size_t offset = 0; offset < data.size(); offset += kTreeBlockBytes) {
    const std::string hex =
        sha256_hex(data.data() + offset, std::min(kTreeBlockBytes, data.size() - offset));
    unsigned char raw[32];
    for (int i = 0; i < 32; ++i)
      raw[i] = static_cast<unsigned char>(std::stoi(hex.substr(2 * i, 2), nullptr, 16));
    outer.update(raw, sizeof raw);
  }
  return outer.finish_hex();
}

struct Folder {
  fs::path path = fs::temp_directory_path() / ("starlens-tree-" + std::to_string(::getpid()));
  Folder() { fs::create_directories(path); }
  ~Folder() { fs::remove_all(path); }
};

void write_file(const fs::path& path, const std::vector<unsigned char>& bytes) {
  std::ofstream(path, std::ios::binary)
      .write(reinterpret_cast<const char*>(bytes.data()), std::streamsize(bytes.size()));
}

}  // namespace

TEST_CASE("published values: nothing, one million 'a' (computed with Python's hashlib)") {
  CHECK(block_tree_sha256_hex("", 0) ==
        "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  const std::string million_a(1000000, 'a');
  CHECK(block_tree_sha256_hex(million_a.data(), million_a.size()) ==
        "80d1189477563e1b5206b2749f1afe4807e5705e8bd77887a60187a712156688");
}

TEST_CASE("buffer, file and stream equal the definition around the block size, any thread count") {
  Folder folder;
  const std::size_t b = kTreeBlockBytes;
  for (const int threads : {1, 4}) {
    set_hash_threads(threads);
    for (const std::size_t size : {std::size_t(0), std::size_t(1), b - 1, b, b + 1, 3 * b + 17}) {
      CAPTURE(threads);
      CAPTURE(size);
      const auto data = random_bytes(size, unsigned(size) + 1);
      const std::string expected = defined_tree_hash(data);
      CHECK(block_tree_sha256_hex(data.data(), data.size()) == expected);
      const fs::path path = folder.path / "data.bin";
      write_file(path, data);
      CHECK(block_tree_sha256_file(path) == expected);
      for (const std::size_t piece : {std::size_t(1000), b - 3, 2 * b + 1}) {
        std::vector<unsigned char> sunk;
        BlockTreeSha256Stream stream(
            [&](const unsigned char* bytes, std::size_t n, std::uint64_t offset) {
              CHECK(offset == sunk.size());
              sunk.insert(sunk.end(), bytes, bytes + n);
            },
            2);
        for (std::size_t offset = 0; offset < size; offset += piece)
          stream.update(data.data() + offset, std::min(piece, size - offset));
        CHECK(stream.finish_hex() == expected);
        CHECK(stream.size() == size);
        CHECK(sunk == data);
      }
    }
  }
  set_hash_threads(0);
}

TEST_CASE("a file hashed through a descriptor opened before it was renamed") {
  Folder folder;
  const fs::path before = folder.path / "written.tmp", after = folder.path / "written.h5";
  const auto data = random_bytes(kTreeBlockBytes + 5, 7);
  write_file(before, data);
  const int fd = ::open(before.c_str(), O_RDONLY);
  REQUIRE(fd >= 0);
  fs::rename(before, after);
  CHECK_THROWS_AS(block_tree_sha256_file(before), InputError);
  CHECK(block_tree_sha256_open_file(fd, after.string()) == defined_tree_hash(data));
  ::close(fd);
}

TEST_CASE("a sink's failure is the stream's, at the next update or at finish") {
  BlockTreeSha256Stream stream(
      [](const unsigned char*, std::size_t, std::uint64_t) { throw RunFailure("out: disk full"); },
      2);
  const auto data = random_bytes(kTreeBlockBytes, 3);
  CHECK_THROWS_WITH_AS(
      {
        for (int k = 0; k < 8; ++k) stream.update(data.data(), data.size());
        stream.finish_hex();
      },
      "out: disk full", RunFailure);
}

TEST_CASE("a sink that keeps its blocks: none reused before that many bytes more have passed") {
  // What a pipe writer that splices its pages needs (event_writer.cpp): a block's memory comes
  // back to the sink only after sink_keeps_bytes more bytes have gone through it.
  const std::uint64_t keep = 3 * kTreeBlockBytes + 5;
  const auto data = random_bytes(20 * kTreeBlockBytes + 7, 8);
  std::map<const unsigned char*, std::uint64_t> end_of_last_use;
  int reuses = 0, too_early = 0;
  std::vector<unsigned char> sunk;
  BlockTreeSha256Stream stream(
      [&](const unsigned char* block, std::size_t size, std::uint64_t offset) {
        const auto used = end_of_last_use.find(block);
        if (used != end_of_last_use.end()) {
          ++reuses;
          if (offset - used->second < keep) ++too_early;
        }
        end_of_last_use[block] = offset + size;
        sunk.insert(sunk.end(), block, block + size);
      },
      2, keep);
  for (std::size_t at = 0; at < data.size(); at += 1000003)
    stream.update(data.data() + at, std::min<std::size_t>(1000003, data.size() - at));
  CHECK(stream.finish_hex() == defined_tree_hash(data));
  CHECK(sunk == data);
  CHECK(reuses > 5);  // the blocks do come back: memory stays bounded
  CHECK(too_early == 0);
}

TEST_CASE("a stream abandoned before finish stops cleanly") {
  const auto data = random_bytes(3 * kTreeBlockBytes + 1, 4);
  std::size_t sunk = 0;
  {
    BlockTreeSha256Stream stream(
        [&](const unsigned char*, std::size_t n, std::uint64_t) { sunk += n; }, 2);
    stream.update(data.data(), data.size());
    stream.flush_to_sink();
  }
  CHECK(sunk == data.size());
}

TEST_CASE("a background hash: the file's tree hash, or a run failure if it changed meanwhile") {
  Folder folder;
  const fs::path path = folder.path / "input.h5";
  const auto data = random_bytes(2 * kTreeBlockBytes + 99, 5);
  write_file(path, data);
  {
    BackgroundFileHash hash(path.string());
    const auto result = hash.result();
    CHECK(result.size == data.size());
    CHECK(result.hex == defined_tree_hash(data));
  }
  {
    BackgroundFileHash hash(path.string());
    std::ofstream(path, std::ios::binary | std::ios::app) << 'b';
    const std::string expected = path.string() + ": changed while being read";
    CHECK_THROWS_WITH_AS(hash.result(), doctest::Contains(expected.c_str()), RunFailure);
  }
  CHECK_THROWS_AS(BackgroundFileHash((folder.path / "none.h5").string()), InputError);
}
