#pragma once
// Test fixtures for event streams: a scratch folder, random events, and an encoder written
// independently of common/events from the byte layout in docs/formats/events.md (fields
// appended one after another), used to build valid streams to compare with EventWriter's
// bytes and invalid streams that EventWriter refuses to write.
#include <unistd.h>
#include <xxhash.h>

#include <cstdint>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <random>
#include <string>
#include <vector>

#include "events/event_stream.h"

namespace starlens::test {

namespace fs = std::filesystem;
using Bytes = std::vector<unsigned char>;

// A fresh folder per test case, removed when the fixture goes out of scope.
class ScratchFolder {
 public:
  explicit ScratchFolder(const std::string& name)
      : path_(fs::temp_directory_path() /
              ("starlens_events_" + name + "_" + std::to_string(::getpid()))) {
    fs::remove_all(path_);
    fs::create_directories(path_);
  }
  ~ScratchFolder() {
    std::error_code ignored;
    fs::remove_all(path_, ignored);
  }
  fs::path operator/(const std::string& name) const { return path_ / name; }
  const fs::path& path() const { return path_; }
  std::size_t file_count() const {
    return static_cast<std::size_t>(
        std::distance(fs::directory_iterator(path_), fs::directory_iterator()));
  }

 private:
  fs::path path_;
};

inline Bytes read_bytes(const fs::path& path) {
  std::ifstream file(path, std::ios::binary);
  return Bytes(std::istreambuf_iterator<char>(file), std::istreambuf_iterator<char>());
}

inline void write_bytes(const fs::path& path, const Bytes& bytes) {
  // Removed first: on ext4, truncating a file that has data flushes it (~ms per rewrite).
  std::error_code ignored;
  fs::remove(path, ignored);
  std::ofstream file(path, std::ios::binary | std::ios::trunc);
  file.write(reinterpret_cast<const char*>(bytes.data()), std::streamsize(bytes.size()));
}

// Valid random events: positions over a 640 x 480 frame, colours and fluxes >= 0.
inline std::vector<StarEvent> random_events(std::size_t count, std::uint64_t seed) {
  std::mt19937_64 random(seed);
  auto uniform = [&random](double low, double high) {
    return low + (high - low) * double(random() >> 11) * 0x1.0p-53;
  };
  std::vector<StarEvent> events(count);
  for (auto& e : events)
    e = {uniform(0, 640), uniform(0, 480), uniform(0, 2),   uniform(0, 2),
         uniform(0, 2),   uniform(0, 1e3), uniform(0.5, 40)};
  return events;
}

// Appends little-endian fields in order, as the format document lists them.
class RawStream {
 public:
  RawStream& u32(std::uint32_t value) { return little_endian(value, 4); }
  RawStream& i32(std::int32_t value) { return u32(static_cast<std::uint32_t>(value)); }
  RawStream& u64(std::uint64_t value) { return little_endian(value, 8); }
  RawStream& f64(double value) {
    std::uint64_t bits;
    std::memcpy(&bits, &value, 8);
    return u64(bits);
  }
  RawStream& text(const char* characters) {
    for (const char* c = characters; *c != '\0'; ++c)
      bytes_.push_back(static_cast<unsigned char>(*c));
    return *this;
  }
  RawStream& zeros_to(std::size_t size) {
    bytes_.resize(size, 0);
    return *this;
  }

  // The 256-byte file header.
  RawStream& file_header(const StreamHeader& h, std::uint32_t record_size = 56) {
    const std::size_t start = bytes_.size();
    text("STLNEVT1").u32(h.version).u32(record_size).u32(h.chunk_capacity).u32(h.width);
    u32(h.height).u32(h.flags).f64(h.psf.fwhm).f64(h.psf.beta).i32(h.psf.cache_radius);
    i32(h.psf.phases).f64(h.psf.min_y).f64(h.psf.relative_tail).f64(h.psf.max_radius);
    return zeros_to(start + 256);
  }

  // A chunk: header with the payload's XXH3-64, then the records field by field.
  RawStream& chunk(std::uint64_t sequence, const std::vector<StarEvent>& events,
                   std::uint32_t first_triangle = 0, std::uint32_t last_triangle = 0) {
    RawStream payload;
    for (const StarEvent& e : events)
      payload.f64(e.x).f64(e.y).f64(e.r).f64(e.g).f64(e.b).f64(e.flux).f64(e.support);
    const std::uint64_t checksum = XXH3_64bits(payload.bytes_.data(), payload.bytes_.size());
    text("CHNK").u32(static_cast<std::uint32_t>(events.size())).u64(sequence);
    u32(first_triangle).u32(last_triangle).u64(checksum);
    bytes_.insert(bytes_.end(), payload.bytes_.begin(), payload.bytes_.end());
    return *this;
  }
  RawStream& end_chunk(std::uint64_t sequence) { return chunk(sequence, {}); }

  const Bytes& bytes() const { return bytes_; }

 private:
  RawStream& little_endian(std::uint64_t value, int size) {
    for (int i = 0; i < size; ++i) bytes_.push_back(static_cast<unsigned char>(value >> (8 * i)));
    return *this;
  }
  Bytes bytes_;
};

// A header with every field away from its default, so a swapped field shows.
inline StreamHeader sample_header() {
  StreamHeader header;
  header.chunk_capacity = 100;
  header.width = 640;
  header.height = 480;
  header.flags = kStreamFlagScatterControl;
  header.psf.fwhm = 2.75;
  header.psf.beta = 3.125;
  header.psf.cache_radius = 12;
  header.psf.phases = 6;
  header.psf.min_y = 2.5e-8;
  header.psf.relative_tail = 0.05;
  header.psf.max_radius = 300;
  return header;
}

}  // namespace starlens::test
