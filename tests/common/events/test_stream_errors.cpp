// Bad streams: each is rejected with an InputError whose one-line message names the file, the
// chunk or field, and the reason. Streams are built with the independent encoder.
#include <doctest/doctest.h>

#include <cmath>
#include <limits>

#include "core/errors.h"
#include "events/event_stream.h"
#include "stream_fixtures.h"

using namespace starlens;
using namespace starlens::test;

namespace {

// Reads a whole stream; returns the InputError's message, or a marker when none was thrown.
std::string input_error_reading(const fs::path& path) {
  try {
    EventReader reader(path.string());
    std::vector<StarEvent> events;
    ChunkInfo info;
    while (reader.next_chunk(events, info)) {
    }
  } catch (const InputError& error) {
    return error.what();
  }
  return "(no InputError)";
}

std::string input_error_of(const fs::path& path, const Bytes& bytes) {
  write_bytes(path, bytes);
  return input_error_reading(path);
}

// Three data chunks of capacity 100 and the end chunk.
RawStream valid_stream() {
  RawStream stream;
  stream.file_header(sample_header());
  for (std::uint64_t i = 0; i < 3; ++i) stream.chunk(i, random_events(40 + 10 * i, i));
  stream.end_chunk(3);
  return stream;
}

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
constexpr double kInf = std::numeric_limits<double>::infinity();

}  // namespace

TEST_CASE("the valid fixture stream reads without error") {
  ScratchFolder folder("valid");
  CHECK(input_error_of(folder / "e.sle", valid_stream().bytes()) == "(no InputError)");
}

TEST_CASE("truncation at any offset is an InputError, never a crash or a silent success") {
  ScratchFolder folder("truncated");
  const fs::path path = folder / "events.sle";
  const std::string name = path.string();
  const Bytes full = valid_stream().bytes();
  auto cut = [&](std::size_t size) {
    return input_error_of(path, Bytes(full.begin(), full.begin() + size));
  };

  CHECK(cut(0) == name + ": empty file: not an event stream");
  CHECK(cut(5) == name + ": truncated: file header is 5 of 256 bytes");
  CHECK(cut(100) == name + ": truncated: file header is 100 of 256 bytes");
  CHECK(cut(256) == name + ": truncated: stream ends without its end chunk (after 0 chunks)");
  CHECK(cut(256 + 10) == name + ": chunk 0: truncated: chunk header is 10 of 32 bytes");
  CHECK(cut(256 + 32 + 100) == name + ": chunk 0: truncated: payload is 100 of 2240 bytes");
  const std::size_t data_end = full.size() - 32;
  CHECK(cut(data_end) == name + ": truncated: stream ends without its end chunk (after 3 chunks)");
  CHECK(cut(data_end + 16) == name + ": chunk 3: truncated: chunk header is 16 of 32 bytes");

  for (std::size_t size = 0; size < full.size(); ++size) {
    const std::string message = cut(size);
    CHECK_MESSAGE(message.rfind(name + ": ", 0) == 0, "cut at ", size, ": ", message);
    CHECK(message.find('\n') == std::string::npos);
  }
}

TEST_CASE("a flipped byte in a payload is a checksum error naming its chunk") {
  ScratchFolder folder("flipped");
  const fs::path path = folder / "events.sle";
  const Bytes full = valid_stream().bytes();
  const std::size_t chunk1_payload = 256 + 32 + 40 * 56 + 32;
  Bytes flipped = full;
  flipped[chunk1_payload + 17] ^= 0x01;
  CHECK(input_error_of(path, flipped) ==
        path.string() + ": chunk 1: checksum mismatch (payload corrupt)");
  // Every single-bit flip anywhere in the payload of chunk 1 is caught.
  for (std::size_t at = chunk1_payload; at < chunk1_payload + 50 * 56; at += 7) {
    Bytes copy = full;
    copy[at] ^= 0x80;
    CHECK(input_error_of(path, copy) ==
          path.string() + ": chunk 1: checksum mismatch (payload corrupt)");
  }
}

TEST_CASE("foreign files and foreign magics") {
  ScratchFolder folder("magic");
  const fs::path path = folder / "events.sle";
  Bytes png = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'};
  png.resize(4096, 0);
  CHECK(input_error_of(path, png) ==
        path.string() +
            ": not an event stream (magic 89 50 4e 47 0d 0a 1a 0a, expected \"STLNEVT1\")");
  CHECK(input_error_of(path, Bytes{'h', 'i'}) ==
        path.string() + ": not an event stream (magic 68 69, expected \"STLNEVT1\")");
  CHECK(input_error_reading(folder / "missing.sle").find("cannot be opened") != std::string::npos);
  CHECK(input_error_reading(folder.path()).find("is a folder") != std::string::npos);
}

TEST_CASE("header fields out of range") {
  ScratchFolder folder("header");
  const fs::path path = folder / "events.sle";
  const std::string name = path.string();
  auto with_header = [&](const StreamHeader& header, std::uint32_t record_size = 56) {
    RawStream stream;
    stream.file_header(header, record_size).end_chunk(0);
    return input_error_of(path, stream.bytes());
  };
  StreamHeader h = sample_header();
  h.version = 2;
  CHECK(with_header(h) ==
        name + ": header: version: unsupported version 2 (this build reads version 1)");
  h = sample_header();
  CHECK(with_header(h, 64) == name + ": header: record size: is 64, expected 56");
  h.chunk_capacity = 0;
  CHECK(with_header(h) == name + ": header: chunk capacity: must be > 0");
  h = sample_header();
  h.width = 0;
  CHECK(with_header(h) == name + ": header: width: must be > 0");
  h = sample_header();
  h.height = 0;
  CHECK(with_header(h) == name + ": header: height: must be > 0");
  // The frame a header may declare: each side to 65536 px, 2^28 pixels in all.
  h = sample_header();
  h.width = 1u << 24;
  CHECK(with_header(h) ==
        name + ": header: width: is 16777216, above the 65536 px a frame side may have");
  h = sample_header();
  h.height = 4294967295u;
  CHECK(with_header(h) ==
        name + ": header: height: is 4294967295, above the 65536 px a frame side may have");
  h = sample_header();
  h.width = 65536;
  h.height = 4097;
  CHECK(with_header(h) == name +
                              ": header: width x height: 65536 x 4097 = 268500992 pixels, more "
                              "than a frame may have (268435456 = 2^28)");
  h.height = 4096;
  CHECK(with_header(h) == "(no InputError)");  // the largest frame is valid
  h = sample_header();
  h.flags = 6;
  CHECK(with_header(h) == name + ": header: flags: unknown flag bits 0x6");
  h = sample_header();
  h.psf.fwhm = 0;
  CHECK(with_header(h) == name + ": header: fwhm: must be > 0 (got 0)");
  h.psf.fwhm = kNaN;
  CHECK(with_header(h) == name + ": header: fwhm: is not finite (nan)");
  h = sample_header();
  h.psf.beta = 0.5;
  CHECK(with_header(h) == name + ": header: beta: must be > 1 (got 0.5)");
  h = sample_header();
  h.psf.cache_radius = -1;
  CHECK(with_header(h) == name + ": header: cache radius: must be >= 0 (got -1)");
  h = sample_header();
  h.psf.phases = 0;
  CHECK(with_header(h) == name + ": header: phases: must be >= 1 (got 0)");
  // The phase cache a header asks splat to build, named with the stream's file.
  h = sample_header();
  h.psf.cache_radius = 100000;
  CHECK(with_header(h) == name +
                              ": header: cache radius and phases: a phase cache of radius 100000 "
                              "px and 6 phases would exceed 32 MiB (2^22 weights)");
  // Within the earlier bound of 2^28 weights, a cache of 36 M weights (288 MB, and as many
  // pixel integrals) that no frame needs: refused before splat builds it.
  h = sample_header();
  h.psf.cache_radius = 500;
  h.psf.phases = 5;
  CHECK(with_header(h) == name +
                              ": header: cache radius and phases: a phase cache of radius 500 "
                              "px and 5 phases would exceed 32 MiB (2^22 weights)");
  // The largest documented use fits: Rc = 64 px, P = 14 (3.7 M weights).
  h = sample_header();
  h.psf.cache_radius = 64;
  h.psf.phases = 14;
  CHECK(with_header(h) == "(no InputError)");
  h = sample_header();
  h.psf.phases = 2147483647;
  CHECK(with_header(h).find(name + ": header: cache radius and phases: ") == 0);
  h = sample_header();
  h.psf.min_y = -1e-7;
  CHECK(with_header(h) == name + ": header: min_y: must be >= 0 (got -1e-07)");
  h = sample_header();
  h.psf.relative_tail = kInf;
  CHECK(with_header(h) == name + ": header: relative_tail: is not finite (inf)");
  h = sample_header();
  h.psf.max_radius = 0;
  CHECK(with_header(h) == name + ": header: max_radius: must be > 0 (got 0)");

  RawStream padded;
  padded.file_header(sample_header());
  Bytes bytes = padded.bytes();
  bytes[200] = 1;
  RawStream end;
  end.end_chunk(0);
  bytes.insert(bytes.end(), end.bytes().begin(), end.bytes().end());
  CHECK(input_error_of(path, bytes) ==
        name + ": header: padding: byte 200 is not zero (reserved bytes must be zero)");
}

TEST_CASE("invalid records name the chunk, the record and the field") {
  ScratchFolder folder("records");
  const fs::path path = folder / "events.sle";
  const std::string name = path.string();
  auto with_record = [&](auto change) {
    auto events = random_events(30, 7);
    change(events[17]);
    RawStream stream;
    stream.file_header(sample_header());
    stream.chunk(0, random_events(5, 1)).chunk(1, random_events(5, 2)).chunk(2, events);
    stream.end_chunk(3);
    return input_error_of(path, stream.bytes());
  };
  const std::string at = name + ": chunk 2 record 17: ";
  CHECK(with_record([](StarEvent& e) { e.flux = kNaN; }) == at + "flux is NaN");
  CHECK(with_record([](StarEvent& e) { e.flux = -1; }) == at + "flux is negative (-1)");
  CHECK(with_record([](StarEvent& e) { e.flux = kInf; }) == at + "flux is infinite");
  CHECK(with_record([](StarEvent& e) { e.x = -kInf; }) == at + "x is infinite");
  CHECK(with_record([](StarEvent& e) { e.y = kNaN; }) == at + "y is NaN");
  CHECK(with_record([](StarEvent& e) { e.r = -0.5; }) == at + "r is negative (-0.5)");
  CHECK(with_record([](StarEvent& e) { e.g = kNaN; }) == at + "g is NaN");
  CHECK(with_record([](StarEvent& e) { e.b = -1e-300; }) == at + "b is negative (-1e-300)");
  CHECK(with_record([](StarEvent& e) { e.support = 0; }) == at + "support must be > 0 (got 0)");
  CHECK(with_record([](StarEvent& e) { e.support = -3; }) == at + "support must be > 0 (got -3)");
  // Positions off the frame and zero fluxes or colours are legal.
  CHECK(with_record([](StarEvent& e) {
          e.x = -50;
          e.y = 1e6;
          e.flux = 0;
          e.r = e.g = e.b = 0;
        }) == "(no InputError)");
}

TEST_CASE("chunk headers: magic, sequence, capacity, trailing data") {
  ScratchFolder folder("chunks");
  const fs::path path = folder / "events.sle";
  const std::string name = path.string();

  // A chunk header claiming the largest count the capacity allows, in a file that holds 40
  // records after it: refused before 896 MiB of records are allocated for it.
  StreamHeader large = sample_header();
  large.chunk_capacity = 1u << 24;
  RawStream claims_more;
  claims_more.file_header(large).text("CHNK").u32(1u << 24).u64(0).u32(0).u32(0).u64(0);
  claims_more.zeros_to(claims_more.bytes().size() + 40 * 56);
  CHECK(input_error_of(path, claims_more.bytes()) ==
        name + ": chunk 0: truncated: payload is 2240 of 939524096 bytes");
  // A capacity beyond the format's 2^24 records (a reader would have allocated 240 GB for a
  // chunk of 2^32 - 1 records).
  large.chunk_capacity = 4294967295u;
  RawStream huge;
  huge.file_header(large).text("CHNK").u32(4294967295u).u64(0).u32(0).u32(0).u64(0);
  CHECK(input_error_of(path, huge.bytes()) ==
        name + ": header: chunk capacity: is 4294967295, above 16777216 (2^24) records");

  RawStream over_capacity;
  over_capacity.file_header(sample_header()).chunk(0, random_events(101, 1)).end_chunk(1);
  CHECK(input_error_of(path, over_capacity.bytes()) ==
        name + ": chunk 0: count 101 exceeds the chunk capacity 100");

  RawStream gap;
  gap.file_header(sample_header()).chunk(0, random_events(3, 1)).chunk(2, random_events(3, 2));
  gap.end_chunk(3);
  CHECK(input_error_of(path, gap.bytes()) ==
        name + ": chunk 1: sequence number is 2, expected 1 (a chunk is missing or out of order)");

  RawStream early_end;
  early_end.file_header(sample_header()).chunk(0, random_events(3, 1)).end_chunk(5);
  CHECK(input_error_of(path, early_end.bytes()) ==
        name + ": chunk 1: sequence number is 5, expected 1 (a chunk is missing or out of order)");

  Bytes bad_magic = valid_stream().bytes();
  bad_magic[256 + 32 + 40 * 56 + 2] = 'X';
  CHECK(input_error_of(path, bad_magic) ==
        name + ": chunk 1: bad chunk magic (43 48 58 4b, expected \"CHNK\")");

  Bytes trailing = valid_stream().bytes();
  trailing.push_back(0);
  CHECK(input_error_of(path, trailing) == name + ": end chunk: trailing data after the end chunk");

  // An end chunk whose (empty) payload checksum is wrong.
  Bytes bad_end = valid_stream().bytes();
  bad_end[bad_end.size() - 1] ^= 0x10;
  CHECK(input_error_of(path, bad_end) == name + ": chunk 3: checksum mismatch (payload corrupt)");
}
