#pragma once
// Stellarium star catalogues stars_*.cat (format 0.x of stellarium-data 0.22;
// CATALOG_FORMATS.md section 1): header, zone table and the three record types, streamed
// zone by zone. Unknown magic, a major version other than 0, an unknown record type, a level
// above 8, zero magnitude steps, magnitudes outside [-30, 40] or a size that does not match the
// zone table are InputError naming the file and the header field.
#include <cstdint>
#include <filesystem>
#include <functional>
#include <string>

namespace starlens::catalog {

constexpr std::uint32_t kStellariumMagic = 0x835F040A;
// The V magnitudes a header may make its records encode (stellarium-data's: -2 to 10.75).
constexpr double kStellariumMagLow = -30;
constexpr double kStellariumMagHigh = 40;

struct StellariumHeader {
  std::uint32_t record_type = 0;  // 0: 28-byte, 1: 10-byte, 2: 6-byte records
  std::uint32_t major = 0;
  std::uint32_t minor = 0;
  std::uint32_t level = 0;
  std::int32_t mag_min_millimag = 0;
  std::uint32_t mag_range_millimag = 0;
  std::uint32_t mag_steps = 0;
  std::uint64_t zone_count = 0;
  std::uint64_t star_count = 0;
};

struct StellariumStar {
  double ra_deg = 0;  // J2000/ICRS, [0, 360)
  double dec_deg = 0;
  double v_mag = 0;
  double b_v = 0;
  std::uint64_t zone = 0;
  std::uint32_t index_in_zone = 0;  // the record's position in its zone
  std::int32_t hip = 0;             // Hipparcos number (record type 0 only; 0 when none)
};

// A star's id in the store: its HIP number where it has one, otherwise
// -(1 + level 2^56 + zone 2^32 + index in zone), negative so that it is never a HIP number, and
// unique over catalogues of different levels (stellarium-data has one file per level).
std::int64_t stellarium_star_id(std::uint32_t level, const StellariumStar& star);
constexpr const char* kStellariumIdScheme =
    "HIP number; -(1 + level 2^56 + zone 2^32 + index in zone) for a star without one";

class StellariumCatalogue {
 public:
  // Reads and validates the header and the zone table.
  explicit StellariumCatalogue(std::filesystem::path path);
  const StellariumHeader& header() const { return header_; }
  // Decodes every star in file order.
  void for_each_star(const std::function<void(const StellariumStar&)>& visit) const;

 private:
  std::filesystem::path path_;
  StellariumHeader header_;
  std::vector<std::uint32_t> zone_sizes_;
  std::uint64_t data_offset_ = 0;
};

// Bytes per record of a type (0 for an unknown type).
std::size_t stellarium_record_size(std::uint32_t record_type);

}  // namespace starlens::catalog
