#pragma once
// Byte layout of events.sle (docs/formats/events.md): the 256-byte file header and the 32-byte
// chunk header, encoded field by field in little-endian order, and the checks a reader applies
// to them. The records themselves are StarEvent's memory image (seven little-endian float64).
#include <array>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>

#include "events/event_stream.h"

namespace starlens {

static_assert(std::endian::native == std::endian::little,
              "event records are written as the host's float64 images: little-endian hosts only");

constexpr std::size_t kFileHeaderBytes = 256;
constexpr std::size_t kChunkHeaderBytes = 32;
constexpr std::uint32_t kEventRecordBytes = sizeof(StarEvent);
constexpr std::array<char, 8> kFileMagic = {'S', 'T', 'L', 'N', 'E', 'V', 'T', '1'};
constexpr std::array<char, 4> kChunkMagic = {'C', 'H', 'N', 'K'};
// Flag bits this build understands; any other bit set is rejected.
constexpr std::uint32_t kKnownStreamFlags = kStreamFlagScatterControl;
// Most records one chunk may hold (896 MiB of events): a reader allocates a chunk's records
// when its header is read, before a pipe has delivered them.
constexpr std::uint32_t kMaxChunkCapacity = 1u << 24;
// Byte offset where the header's zero padding starts.
constexpr std::size_t kFileHeaderUsedBytes = 80;

using FileHeaderBytes = std::array<unsigned char, kFileHeaderBytes>;
using ChunkHeaderBytes = std::array<unsigned char, kChunkHeaderBytes>;

struct ChunkHeader {
  std::uint32_t count = 0;
  std::uint64_t sequence = 0;
  std::uint32_t first_triangle = 0;
  std::uint32_t last_triangle = 0;
  std::uint64_t checksum = 0;  // XXH3_64bits of the payload
};

FileHeaderBytes encode_file_header(const StreamHeader& header);
// Decodes and validates a complete header. Throws InputError naming `file` and the field.
StreamHeader decode_file_header(const FileHeaderBytes& bytes, const std::string& file);
// The header checks alone (used by the writer before it writes anything).
void validate_stream_header(const StreamHeader& header, const std::string& file);

ChunkHeaderBytes encode_chunk_header(const ChunkHeader& chunk);
// Decodes without judging the values; false when the magic is not "CHNK".
bool decode_chunk_header(const ChunkHeaderBytes& bytes, ChunkHeader& chunk);

// XXH3_64bits of a chunk payload (the empty payload of the end chunk included).
std::uint64_t payload_checksum(std::span<const StarEvent> events);

// The first problem of one record ("flux is NaN", "support must be > 0 (got 0)"), or nothing
// when the record is valid: all fields finite, flux >= 0, r, g, b >= 0, support > 0.
std::optional<std::string> event_record_problem(const StarEvent& event);
// Index of the first invalid record in `events`, or events.size() when all are valid. Fast
// path of the reader: a branch-free pass, the detailed message is built only on failure.
std::size_t first_invalid_record(std::span<const StarEvent> events);

// "53 54 4c 4e ..." for messages about foreign magics.
std::string hex_bytes(std::span<const unsigned char> bytes);

}  // namespace starlens
