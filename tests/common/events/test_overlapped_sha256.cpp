// The helper-thread SHA-256 against FIPS 180-2's published digests and against one-shot
// hashing of the same bytes fed in pieces of every size class (tiny headers, payloads larger
// than the hand-over size, many buffers queued).
#include <doctest/doctest.h>

#include <random>
#include <string>
#include <vector>

#include "events/overlapped_sha256.h"
#include "manifest/sha256.h"

using starlens::OverlappedSha256;

TEST_CASE("published SHA-256 digests") {
  OverlappedSha256 abc;
  abc.update("abc", 3);
  CHECK(abc.finish_hex() == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  OverlappedSha256 empty;
  CHECK(empty.finish_hex() == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  // One million 'a' (FIPS 180-2, appendix B.3), fed 1000 bytes at a time.
  OverlappedSha256 million;
  const std::string thousand(1000, 'a');
  for (int i = 0; i < 1000; ++i) million.update(thousand.data(), thousand.size());
  CHECK(million.finish_hex() == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
}

TEST_CASE("pieces of any size hash like the whole") {
  std::mt19937_64 random(3);
  std::vector<unsigned char> data(9 << 20);
  for (auto& byte : data) byte = static_cast<unsigned char>(random());
  const std::string whole = starlens::sha256_hex(data.data(), data.size());
  for (const std::size_t piece : {std::size_t(32), std::size_t(917504), std::size_t(3 << 20)}) {
    CAPTURE(piece);
    OverlappedSha256 sha;
    for (std::size_t at = 0; at < data.size(); at += piece)
      sha.update(data.data() + at, std::min(piece, data.size() - at));
    CHECK(sha.finish_hex() == whole);
  }
}

TEST_CASE("a hasher destroyed before finishing stops cleanly") {
  std::vector<unsigned char> data(5 << 20, 7);
  OverlappedSha256 sha;
  sha.update(data.data(), data.size());
}
