// The file hash that runs ahead of the reader: FIPS 180-2's one-million-'a' digest whatever
// the lead and however the reader advances; a hash that does not cover exactly the bytes the
// reader read, or a file changed while it was read, is a run failure; stopping early returns.
#include <doctest/doctest.h>

#include <fstream>
#include <string>

#include "core/errors.h"
#include "events/file_hash_ahead.h"
#include "stream_fixtures.h"

using namespace starlens;
using namespace starlens::test;

namespace {

// FIPS 180-2, appendix B.3: SHA-256 of 1,000,000 repetitions of 'a'.
constexpr const char* kMillionA =
    "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0";
constexpr std::uint64_t kMillion = 1000000;

fs::path million_a(const ScratchFolder& folder) {
  const fs::path path = folder / "a.bin";
  write_bytes(path, Bytes(kMillion, 'a'));
  return path;
}

}  // namespace

TEST_CASE("the digest of one million 'a' for any lead, the reader advancing in steps") {
  ScratchFolder folder("hash-ahead");
  const fs::path path = million_a(folder);
  for (const std::uint64_t lead : {std::uint64_t(1), std::uint64_t(999), std::uint64_t(65536),
                                   FileHashAhead::kDefaultLeadBytes}) {
    CAPTURE(lead);
    FileHashAhead hash(path.string(), lead);
    for (std::uint64_t reached = 0; reached < kMillion; reached += 77777)
      hash.reader_reached(reached);
    CHECK(hash.finish_hex(kMillion) == kMillionA);
    CHECK(hash.busy_seconds() > 0);
  }
}

TEST_CASE("a reader that read fewer bytes than the file holds is a run failure") {
  ScratchFolder folder("hash-ahead-short");
  FileHashAhead hash(million_a(folder).string());
  CHECK_THROWS_AS(hash.finish_hex(kMillion - 1), RunFailure);
}

TEST_CASE("a file that changes while it is read is a run failure naming it") {
  ScratchFolder folder("hash-ahead-changed");
  const fs::path path = million_a(folder);
  FileHashAhead hash(path.string(), 1000);  // held back: the change lands before it is hashed
  std::ofstream(path, std::ios::binary | std::ios::app) << 'b';
  try {
    hash.finish_hex(kMillion + 1);
    FAIL("no error for the changed file");
  } catch (const RunFailure& error) {
    CHECK(std::string(error.what()).find(path.string() + ": changed while being read") == 0);
  }
}

TEST_CASE("a file that cannot be opened is bad input; stopping early returns promptly") {
  ScratchFolder folder("hash-ahead-missing");
  CHECK_THROWS_AS(FileHashAhead((folder / "none.sle").string()), InputError);
  { FileHashAhead held_back(million_a(folder).string(), 1); }  // waits for the reader: must stop
}
