#include "stellarium_reader.h"

#include <cmath>
#include <cstring>
#include <fstream>
#include <sstream>
#include <vector>

#include "core/errors.h"
#include "geodesic_grid.h"

namespace starlens::catalog {
namespace {

constexpr std::uint32_t kMaxLevel = 8;
constexpr std::size_t kRecordsPerRead = 1 << 16;

std::uint32_t little_endian_u32(const unsigned char* bytes) {
  return std::uint32_t(bytes[0]) | std::uint32_t(bytes[1]) << 8 | std::uint32_t(bytes[2]) << 16 |
         std::uint32_t(bytes[3]) << 24;
}

// Bits [start, start + width) of a little-endian bit string (width <= 32).
std::uint32_t bit_field(const unsigned char* bytes, unsigned start, unsigned width) {
  std::uint64_t window = 0;
  const unsigned first_byte = start / 8;
  const unsigned last_byte = (start + width - 1) / 8;
  for (unsigned b = last_byte + 1; b-- > first_byte;) window = window << 8 | bytes[b];
  return static_cast<std::uint32_t>((window >> (start % 8)) & ((1ull << width) - 1));
}

std::int32_t signed_bit_field(const unsigned char* bytes, unsigned start, unsigned width) {
  const std::uint32_t raw = bit_field(bytes, start, width);
  const std::uint32_t sign = 1u << (width - 1);
  return static_cast<std::int32_t>(raw ^ sign) - static_cast<std::int32_t>(sign);
}

// The fields every record type has.
struct RawStar {
  std::int32_t x0 = 0;
  std::int32_t x1 = 0;
  std::uint32_t b_v = 0;
  std::uint32_t mag = 0;
  std::int32_t hip = 0;
};

RawStar decode_record(std::uint32_t type, const unsigned char* record) {
  RawStar star;
  switch (type) {
    case 0:  // hip:24 component:8 x0:32 x1:32 bV:8 mag:8 ...
      star.hip = signed_bit_field(record, 0, 24);
      star.x0 = static_cast<std::int32_t>(little_endian_u32(record + 4));
      star.x1 = static_cast<std::int32_t>(little_endian_u32(record + 8));
      star.b_v = record[12];
      star.mag = record[13];
      break;
    case 1:  // x0:s20 x1:s20 dx0:s14 dx1:s14 bV:7 mag:5
      star.x0 = signed_bit_field(record, 0, 20);
      star.x1 = signed_bit_field(record, 20, 20);
      star.b_v = bit_field(record, 68, 7);
      star.mag = bit_field(record, 75, 5);
      break;
    default:  // 2: x0:s18 x1:s18 bV:7 mag:5
      star.x0 = signed_bit_field(record, 0, 18);
      star.x1 = signed_bit_field(record, 18, 18);
      star.b_v = bit_field(record, 36, 7);
      star.mag = bit_field(record, 43, 5);
      break;
  }
  return star;
}

// The largest magnitude code a record type holds (8 bits in type 0, 5 bits in types 1 and 2).
std::uint32_t max_mag_code(std::uint32_t type) {
  return type == 0 ? 255 : 31;
}

double max_position(std::uint32_t type) {
  return type == 0 ? 2147483647.0 : type == 1 ? 524287.0 : 131071.0;
}

}  // namespace

std::size_t stellarium_record_size(std::uint32_t record_type) {
  return record_type == 0 ? 28 : record_type == 1 ? 10 : record_type == 2 ? 6 : 0;
}

StellariumCatalogue::StellariumCatalogue(std::filesystem::path path) : path_(std::move(path)) {
  const std::string name = path_.string();
  std::ifstream in(path_, std::ios::binary);
  if (!in) throw_input_error(name, "", "cannot open");
  std::error_code error;
  const std::uint64_t file_size = std::filesystem::file_size(path_, error);
  if (error) throw_input_error(name, "", "cannot read its size");
  unsigned char raw[32];
  if (!in.read(reinterpret_cast<char*>(raw), sizeof raw))
    throw_input_error(name, "header",
                      "truncated (" + std::to_string(file_size) + " bytes, a header is 32)");
  std::uint32_t word[8];
  for (int i = 0; i < 8; ++i) word[i] = little_endian_u32(raw + 4 * i);
  if (word[0] != kStellariumMagic) {
    std::ostringstream message;
    message << "magic 0x" << std::hex << word[0] << " is not 0x835f040a (not a Stellarium 0.x star "
            << "catalogue; Gaia-based catalogues of newer Stellarium releases are not supported)";
    throw_input_error(name, "header", message.str());
  }
  header_.record_type = word[1];
  header_.major = word[2];
  header_.minor = word[3];
  header_.level = word[4];
  header_.mag_min_millimag = static_cast<std::int32_t>(word[5]);
  header_.mag_range_millimag = word[6];
  header_.mag_steps = word[7];
  if (stellarium_record_size(header_.record_type) == 0)
    throw_input_error(name, "header type",
                      "unknown record type " + std::to_string(header_.record_type));
  if (header_.major != 0)
    throw_input_error(name, "header major version", std::to_string(header_.major) + " is not 0");
  if (header_.level > kMaxLevel)
    throw_input_error(name, "header level",
                      std::to_string(header_.level) + " above " + std::to_string(kMaxLevel));
  if (header_.mag_steps == 0) throw_input_error(name, "header mag_steps", "zero");
  // Every magnitude a record can encode, mag_min + code mag_range / mag_steps, must be a star's
  // (the range CSV catalogues accept): the stars then have finite, positive float fluxes.
  const double mag_min = 0.001 * header_.mag_min_millimag;
  if (mag_min < kStellariumMagLow || mag_min > kStellariumMagHigh)
    throw_input_error(name, "header mag_min",
                      std::to_string(header_.mag_min_millimag) + " millimag is outside [" +
                          std::to_string(int(kStellariumMagLow)) + ", " +
                          std::to_string(int(kStellariumMagHigh)) + "] mag");
  const double mag_max = mag_min + 0.001 * header_.mag_range_millimag *
                                       max_mag_code(header_.record_type) / header_.mag_steps;
  if (mag_max > kStellariumMagHigh)
    throw_input_error(name, "header mag_range",
                      std::to_string(header_.mag_range_millimag) + " millimag in " +
                          std::to_string(header_.mag_steps) + " steps: magnitude code " +
                          std::to_string(max_mag_code(header_.record_type)) + " is " +
                          std::to_string(mag_max) + " mag, above " +
                          std::to_string(int(kStellariumMagHigh)));

  header_.zone_count = 20ull << (2 * header_.level);
  const std::uint64_t table_bytes = 4 * header_.zone_count;
  if (file_size < 32 + table_bytes)
    throw_input_error(name, "zone table",
                      "truncated (file " + std::to_string(file_size) + " bytes)");
  std::vector<unsigned char> table(table_bytes);
  in.read(reinterpret_cast<char*>(table.data()), static_cast<std::streamsize>(table_bytes));
  zone_sizes_.resize(header_.zone_count);
  for (std::uint64_t z = 0; z < header_.zone_count; ++z) {
    zone_sizes_[z] = little_endian_u32(table.data() + 4 * z);
    header_.star_count += zone_sizes_[z];
  }
  data_offset_ = 32 + table_bytes;
  const std::uint64_t expected =
      data_offset_ + stellarium_record_size(header_.record_type) * header_.star_count;
  if (expected != file_size)
    throw_input_error(name, "size",
                      std::to_string(file_size) + " bytes does not match its zone table (" +
                          std::to_string(header_.star_count) + " records make " +
                          std::to_string(expected) + " bytes)");
}

std::int64_t stellarium_star_id(std::uint32_t level, const StellariumStar& star) {
  if (star.hip > 0) return star.hip;
  // level <= 8 and zones < 20 4^8 < 2^24, so the code stays below 2^60.
  return -static_cast<std::int64_t>(1 + (std::uint64_t{level} << 56) + (star.zone << 32) +
                                    star.index_in_zone);
}

void StellariumCatalogue::for_each_star(
    const std::function<void(const StellariumStar&)>& visit) const {
  const std::string name = path_.string();
  std::ifstream in(path_, std::ios::binary);
  in.seekg(static_cast<std::streamoff>(data_offset_));
  const std::vector<GeodesicZone> zones = geodesic_zones(static_cast<int>(header_.level));
  const std::size_t record_size = stellarium_record_size(header_.record_type);
  const double scale = (3.0 - std::sqrt(5.0)) / std::ldexp(1.0, static_cast<int>(header_.level)) /
                       max_position(header_.record_type);
  const double mag_step = 0.001 * header_.mag_range_millimag / header_.mag_steps;
  std::vector<unsigned char> buffer;
  StellariumStar star;
  for (std::uint64_t z = 0; z < header_.zone_count; ++z) {
    const GeodesicZone& zone = zones[z];
    std::uint64_t left = zone_sizes_[z];
    while (left > 0) {
      const std::size_t records =
          static_cast<std::size_t>(std::min<std::uint64_t>(left, kRecordsPerRead));
      buffer.resize(records * record_size);
      if (!in.read(reinterpret_cast<char*>(buffer.data()),
                   static_cast<std::streamsize>(buffer.size())))
        throw_input_error(name, "zone " + std::to_string(z),
                          "read failed (file changed while reading?)");
      for (std::size_t r = 0; r < records; ++r) {
        const RawStar raw = decode_record(header_.record_type, buffer.data() + r * record_size);
        const double u = raw.x0 * scale;
        const double v = raw.x1 * scale;
        const Vec3 position = {zone.centre[0] + u * zone.axis0[0] + v * zone.axis1[0],
                               zone.centre[1] + u * zone.axis0[1] + v * zone.axis1[1],
                               zone.centre[2] + u * zone.axis0[2] + v * zone.axis1[2]};
        const auto angles = angles_from_vector(position);
        star.ra_deg = angles[0] / kDegree;
        if (star.ra_deg >= 360.0) star.ra_deg -= 360.0;
        star.dec_deg = angles[1] / kDegree;
        star.v_mag = 0.001 * header_.mag_min_millimag + raw.mag * mag_step;
        star.b_v = raw.b_v * 4.0 / 127.0 - 0.5;
        star.zone = z;
        star.index_in_zone = static_cast<std::uint32_t>(zone_sizes_[z] - left + r);
        star.hip = raw.hip;
        visit(star);
      }
      left -= records;
    }
  }
}

}  // namespace starlens::catalog
