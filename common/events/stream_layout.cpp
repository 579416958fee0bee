#include "events/stream_layout.h"

#include <xxhash.h>

#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <limits>

#include "core/errors.h"
#include "core/frame_limits.h"

namespace starlens {
namespace {

// Header field offsets (docs/formats/events.md).
constexpr std::size_t kVersionAt = 8;
constexpr std::size_t kRecordSizeAt = 12;
constexpr std::size_t kCapacityAt = 16;
constexpr std::size_t kWidthAt = 20;
constexpr std::size_t kHeightAt = 24;
constexpr std::size_t kFlagsAt = 28;
constexpr std::size_t kFwhmAt = 32;
constexpr std::size_t kBetaAt = 40;
constexpr std::size_t kCacheRadiusAt = 48;
constexpr std::size_t kPhasesAt = 52;
constexpr std::size_t kMinYAt = 56;
constexpr std::size_t kRelativeTailAt = 64;
constexpr std::size_t kMaxRadiusAt = 72;
static_assert(kMaxRadiusAt + 8 == kFileHeaderUsedBytes);

// Chunk header field offsets.
constexpr std::size_t kChunkCountAt = 4;
constexpr std::size_t kChunkSequenceAt = 8;
constexpr std::size_t kChunkFirstTriangleAt = 16;
constexpr std::size_t kChunkLastTriangleAt = 20;
constexpr std::size_t kChunkChecksumAt = 24;

// Explicit little-endian byte order, independent of the host.
void put_u32(unsigned char* bytes, std::size_t at, std::uint32_t value) {
  for (int i = 0; i < 4; ++i) bytes[at + i] = static_cast<unsigned char>(value >> (8 * i));
}
void put_u64(unsigned char* bytes, std::size_t at, std::uint64_t value) {
  for (int i = 0; i < 8; ++i) bytes[at + i] = static_cast<unsigned char>(value >> (8 * i));
}
void put_f64(unsigned char* bytes, std::size_t at, double value) {
  put_u64(bytes, at, std::bit_cast<std::uint64_t>(value));
}
std::uint32_t get_u32(const unsigned char* bytes, std::size_t at) {
  std::uint32_t value = 0;
  for (int i = 0; i < 4; ++i) value |= std::uint32_t(bytes[at + i]) << (8 * i);
  return value;
}
std::uint64_t get_u64(const unsigned char* bytes, std::size_t at) {
  std::uint64_t value = 0;
  for (int i = 0; i < 8; ++i) value |= std::uint64_t(bytes[at + i]) << (8 * i);
  return value;
}
double get_f64(const unsigned char* bytes, std::size_t at) {
  return std::bit_cast<double>(get_u64(bytes, at));
}

// Shortest text that reads back as the same double.
std::string format_number(double value) {
  char text[40];
  const auto result = std::to_chars(text, text + sizeof text, value);
  return std::string(text, result.ptr);
}

void require(bool condition, const std::string& file, const std::string& field,
             const std::string& reason) {
  if (!condition) throw_input_error(file, "header: " + field, reason);
}

void require_finite(double value, const std::string& file, const std::string& field) {
  require(std::isfinite(value), file, field, "is not finite (" + format_number(value) + ")");
}

constexpr double kLargest = std::numeric_limits<double>::max();

// True for a valid record; written with non-short-circuit & so the loop has no branches.
inline bool record_is_valid(const StarEvent& e) {
  return (std::fabs(e.x) <= kLargest) & (std::fabs(e.y) <= kLargest) & (e.r >= 0) &
         (e.r <= kLargest) & (e.g >= 0) & (e.g <= kLargest) & (e.b >= 0) & (e.b <= kLargest) &
         (e.flux >= 0) & (e.flux <= kLargest) & (e.support > 0) & (e.support <= kLargest);
}

std::optional<std::string> non_finite(const char* field, double value) {
  if (std::isnan(value)) return std::string(field) + " is NaN";
  if (std::isinf(value)) return std::string(field) + " is infinite";
  return std::nullopt;
}

}  // namespace

FileHeaderBytes encode_file_header(const StreamHeader& header) {
  FileHeaderBytes bytes{};
  std::memcpy(bytes.data(), kFileMagic.data(), kFileMagic.size());
  put_u32(bytes.data(), kVersionAt, header.version);
  put_u32(bytes.data(), kRecordSizeAt, kEventRecordBytes);
  put_u32(bytes.data(), kCapacityAt, header.chunk_capacity);
  put_u32(bytes.data(), kWidthAt, header.width);
  put_u32(bytes.data(), kHeightAt, header.height);
  put_u32(bytes.data(), kFlagsAt, header.flags);
  put_f64(bytes.data(), kFwhmAt, header.psf.fwhm);
  put_f64(bytes.data(), kBetaAt, header.psf.beta);
  put_u32(bytes.data(), kCacheRadiusAt, static_cast<std::uint32_t>(header.psf.cache_radius));
  put_u32(bytes.data(), kPhasesAt, static_cast<std::uint32_t>(header.psf.phases));
  put_f64(bytes.data(), kMinYAt, header.psf.min_y);
  put_f64(bytes.data(), kRelativeTailAt, header.psf.relative_tail);
  put_f64(bytes.data(), kMaxRadiusAt, header.psf.max_radius);
  return bytes;
}

void validate_stream_header(const StreamHeader& header, const std::string& file) {
  require(header.version == kEventStreamVersion, file, "version",
          "unsupported version " + std::to_string(header.version) + " (this build reads version " +
              std::to_string(kEventStreamVersion) + ")");
  require(header.chunk_capacity > 0, file, "chunk capacity", "must be > 0");
  require(header.chunk_capacity <= kMaxChunkCapacity, file, "chunk capacity",
          "is " + std::to_string(header.chunk_capacity) + ", above " +
              std::to_string(kMaxChunkCapacity) + " (2^24) records");
  require(header.width > 0, file, "width", "must be > 0");
  require(header.height > 0, file, "height", "must be > 0");
  // The frame a stream may declare (core/frame_limits.h), judged before anyone allocates it.
  for (const auto& [field, side] : {std::pair{"width", header.width}, {"height", header.height}})
    require(side <= kMaxFrameSide, file, field,
            "is " + std::to_string(side) + ", above the " + std::to_string(kMaxFrameSide) +
                " px a frame side may have");
  const std::uint64_t pixels = std::uint64_t{header.width} * header.height;
  require(pixels <= kMaxFramePixels, file, "width x height",
          std::to_string(header.width) + " x " + std::to_string(header.height) + " = " +
              std::to_string(pixels) + " pixels, more than a frame may have (" +
              std::to_string(kMaxFramePixels) + " = 2^28)");
  if ((header.flags & ~kKnownStreamFlags) != 0) {
    char bits[16];
    std::snprintf(bits, sizeof bits, "0x%x", header.flags & ~kKnownStreamFlags);
    require(false, file, "flags", std::string("unknown flag bits ") + bits);
  }
  const PsfModel& psf = header.psf;
  require_finite(psf.fwhm, file, "fwhm");
  require_finite(psf.beta, file, "beta");
  require_finite(psf.min_y, file, "min_y");
  require_finite(psf.relative_tail, file, "relative_tail");
  require_finite(psf.max_radius, file, "max_radius");
  require(psf.fwhm > 0, file, "fwhm", "must be > 0 (got " + format_number(psf.fwhm) + ")");
  require(psf.beta > 1, file, "beta", "must be > 1 (got " + format_number(psf.beta) + ")");
  require(psf.cache_radius >= 0, file, "cache radius",
          "must be >= 0 (got " + std::to_string(psf.cache_radius) + ")");
  require(psf.phases >= 1, file, "phases", "must be >= 1 (got " + std::to_string(psf.phases) + ")");
  const double window = 2.0 * psf.cache_radius + 1, phase_side = psf.phases + 1.0;
  require(window * window * phase_side * phase_side <= kMaxPhaseCacheWeights, file,
          "cache radius and phases",
          "a phase cache of radius " + std::to_string(psf.cache_radius) + " px and " +
              std::to_string(psf.phases) + " phases would exceed 32 MiB (2^22 weights)");
  require(psf.min_y >= 0, file, "min_y", "must be >= 0 (got " + format_number(psf.min_y) + ")");
  require(psf.relative_tail > 0, file, "relative_tail",
          "must be > 0 (got " + format_number(psf.relative_tail) + ")");
  require(psf.max_radius > 0, file, "max_radius",
          "must be > 0 (got " + format_number(psf.max_radius) + ")");
}

StreamHeader decode_file_header(const FileHeaderBytes& bytes, const std::string& file) {
  if (std::memcmp(bytes.data(), kFileMagic.data(), kFileMagic.size()) != 0)
    throw_input_error(
        file, "",
        "not an event stream (magic " + hex_bytes({bytes.data(), 8}) + ", expected \"STLNEVT1\")");
  StreamHeader header;
  header.version = get_u32(bytes.data(), kVersionAt);
  // A newer version may have changed everything after the version field: judge it first.
  require(header.version == kEventStreamVersion, file, "version",
          "unsupported version " + std::to_string(header.version) + " (this build reads version " +
              std::to_string(kEventStreamVersion) + ")");
  const std::uint32_t record_size = get_u32(bytes.data(), kRecordSizeAt);
  require(record_size == kEventRecordBytes, file, "record size",
          "is " + std::to_string(record_size) + ", expected " + std::to_string(kEventRecordBytes));
  header.chunk_capacity = get_u32(bytes.data(), kCapacityAt);
  header.width = get_u32(bytes.data(), kWidthAt);
  header.height = get_u32(bytes.data(), kHeightAt);
  header.flags = get_u32(bytes.data(), kFlagsAt);
  header.psf.fwhm = get_f64(bytes.data(), kFwhmAt);
  header.psf.beta = get_f64(bytes.data(), kBetaAt);
  header.psf.cache_radius = static_cast<std::int32_t>(get_u32(bytes.data(), kCacheRadiusAt));
  header.psf.phases = static_cast<std::int32_t>(get_u32(bytes.data(), kPhasesAt));
  header.psf.min_y = get_f64(bytes.data(), kMinYAt);
  header.psf.relative_tail = get_f64(bytes.data(), kRelativeTailAt);
  header.psf.max_radius = get_f64(bytes.data(), kMaxRadiusAt);
  validate_stream_header(header, file);
  for (std::size_t at = kFileHeaderUsedBytes; at < kFileHeaderBytes; ++at)
    require(bytes[at] == 0, file, "padding",
            "byte " + std::to_string(at) + " is not zero (reserved bytes must be zero)");
  return header;
}

ChunkHeaderBytes encode_chunk_header(const ChunkHeader& chunk) {
  ChunkHeaderBytes bytes{};
  std::memcpy(bytes.data(), kChunkMagic.data(), kChunkMagic.size());
  put_u32(bytes.data(), kChunkCountAt, chunk.count);
  put_u64(bytes.data(), kChunkSequenceAt, chunk.sequence);
  put_u32(bytes.data(), kChunkFirstTriangleAt, chunk.first_triangle);
  put_u32(bytes.data(), kChunkLastTriangleAt, chunk.last_triangle);
  put_u64(bytes.data(), kChunkChecksumAt, chunk.checksum);
  return bytes;
}

bool decode_chunk_header(const ChunkHeaderBytes& bytes, ChunkHeader& chunk) {
  if (std::memcmp(bytes.data(), kChunkMagic.data(), kChunkMagic.size()) != 0) return false;
  chunk.count = get_u32(bytes.data(), kChunkCountAt);
  chunk.sequence = get_u64(bytes.data(), kChunkSequenceAt);
  chunk.first_triangle = get_u32(bytes.data(), kChunkFirstTriangleAt);
  chunk.last_triangle = get_u32(bytes.data(), kChunkLastTriangleAt);
  chunk.checksum = get_u64(bytes.data(), kChunkChecksumAt);
  return true;
}

std::uint64_t payload_checksum(std::span<const StarEvent> events) {
  return XXH3_64bits(events.data(), events.size_bytes());
}

std::optional<std::string> event_record_problem(const StarEvent& event) {
  const struct {
    const char* name;
    double value;
  } fields[] = {{"x", event.x},
                {"y", event.y},
                {"r", event.r},
                {"g", event.g},
                {"b", event.b},
                {"flux", event.flux},
                {"support", event.support}};
  for (const auto& field : fields)
    if (auto problem = non_finite(field.name, field.value)) return problem;
  for (const auto& field : {fields[2], fields[3], fields[4], fields[5]})
    if (field.value < 0)
      return std::string(field.name) + " is negative (" + format_number(field.value) + ")";
  if (!(event.support > 0)) return "support must be > 0 (got " + format_number(event.support) + ")";
  return std::nullopt;
}

std::size_t first_invalid_record(std::span<const StarEvent> events) {
  constexpr std::size_t kBlock = 256;
  for (std::size_t begin = 0; begin < events.size(); begin += kBlock) {
    const std::size_t end = std::min(events.size(), begin + kBlock);
    bool all_valid = true;
    for (std::size_t i = begin; i < end; ++i) all_valid &= record_is_valid(events[i]);
    if (all_valid) continue;
    for (std::size_t i = begin; i < end; ++i)
      if (!record_is_valid(events[i])) return i;
  }
  return events.size();
}

std::string hex_bytes(std::span<const unsigned char> bytes) {
  std::string text;
  for (std::size_t i = 0; i < bytes.size(); ++i) {
    char byte[4];
    std::snprintf(byte, sizeof byte, "%02x", bytes[i]);
    if (i > 0) text += ' ';
    text += byte;
  }
  return text;
}

}  // namespace starlens
