// The chunk checksum is XXH3_64bits (seed 0): checked against the test vectors published with
// xxHash (its xxhsum sanity check), not against values computed here.
#include <doctest/doctest.h>
#include <xxhash.h>

#include <cstdint>
#include <vector>

#include "events/stream_layout.h"

namespace {

// xxhsum's sanity buffer: byte i is the top byte of 2654435761 * 11400714785074694797^i.
std::vector<unsigned char> sanity_buffer(std::size_t size) {
  std::vector<unsigned char> buffer(size);
  std::uint64_t generator = 2654435761u;
  for (auto& byte : buffer) {
    byte = static_cast<unsigned char>(generator >> 56);
    generator *= 11400714785074694797ull;
  }
  return buffer;
}

}  // namespace

TEST_CASE("XXH3_64bits matches xxHash's published test vectors") {
  const struct {
    std::size_t length;
    std::uint64_t hash;
  } vectors[] = {
      {0, 0x2D06800538D394C2ull},    {1, 0xC44BDFF4074EECDBull},    {6, 0x27B56A84CD2D7325ull},
      {12, 0xA713DAF0DFBB77E7ull},   {24, 0xA3FE70BF9D3510EBull},   {48, 0x397DA259ECBA1F11ull},
      {80, 0xBCDEFBBB2C47C90Aull},   {195, 0xCD94217EE362EC3Aull},  {403, 0xCDEB804D65C6DEA4ull},
      {512, 0x617E49599013CB6Bull},  {2048, 0xDD59E2C3A5F038E0ull}, {2099, 0xC6B9D9B3FC9AC765ull},
      {2240, 0x6E73A90539CF2948ull}, {2367, 0xCB37AEB9E5D361EDull}};
  const auto buffer = sanity_buffer(2367);
  for (const auto& vector : vectors) {
    CAPTURE(vector.length);
    CHECK(XXH3_64bits(vector.length == 0 ? nullptr : buffer.data(), vector.length) == vector.hash);
  }
}

TEST_CASE("the end chunk's checksum is XXH3_64bits of the empty payload") {
  CHECK(starlens::payload_checksum({}) == 0x2D06800538D394C2ull);
}
