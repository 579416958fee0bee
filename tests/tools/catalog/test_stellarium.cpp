// Stellarium stars_*.cat decoding against the check values of CATALOG_FORMATS.md, the
// total star count, the plane/pole density rise, and rejection of damaged files.
#include <doctest/doctest.h>

#include <cmath>
#include <fstream>
#include <numbers>
#include <vector>

#include "core/errors.h"
#include "geodesic_grid.h"
#include "sky/frames.h"
#include "stellarium_reader.h"
#include "test_paths.h"

namespace starlens::catalog {
namespace {

using testing::stellarium_file;
using testing::stellarium_installed;

constexpr const char* kFiles[4] = {"stars_0_0v0_8.cat", "stars_1_0v0_8.cat", "stars_2_0v0_8.cat",
                                   "stars_3_1v0_4.cat"};

// Angular distance in degrees between two (ra, dec) in degrees.
double separation_deg(double ra1, double dec1, double ra2, double dec2) {
  const Vec3 a = unit_vector_from_angles(ra1 * kDegree, dec1 * kDegree);
  const Vec3 b = unit_vector_from_angles(ra2 * kDegree, dec2 * kDegree);
  return std::atan2(norm(cross(a, b)), dot(a, b)) / kDegree;
}

StellariumStar first_star(const std::string& file) {
  StellariumStar first;
  bool have = false;
  StellariumCatalogue(stellarium_file(file)).for_each_star([&](const StellariumStar& star) {
    if (!have) first = star;
    have = true;
  });
  REQUIRE(have);
  return first;
}

bool skip_without_stellarium() {
  if (stellarium_installed()) return false;
  MESSAGE("SKIPPED: stellarium-data 0.22.2-1 is not installed at " << testing::kStellariumDir
                                                                   << " (make test installs it)");
  return true;
}

}  // namespace

TEST_CASE("geodesic grid: level-0 zone centres match the check values") {
  const auto zones = geodesic_zones(0);
  REQUIRE(zones.size() == 20);
  const auto zone0 = angles_from_vector(zones[0].centre);
  const auto zone1 = angles_from_vector(zones[1].centre);
  // The documented values have 6 decimals.
  CHECK(separation_deg(zone0[0] / kDegree, zone0[1] / kDegree, 0.0, -20.905157) < 1e-6);
  CHECK(separation_deg(zone1[0] / kDegree, zone1[1] / kDegree, 0.0, 20.905157) < 1e-6);
  // Every level covers the sphere: the zones' solid angles (spherical excess) sum to 4 pi.
  for (int level = 0; level <= 3; ++level) {
    double total = 0;
    for (const auto& zone : geodesic_zones(level)) {
      const Vec3& a = zone.corners[0];
      const Vec3& b = zone.corners[1];
      const Vec3& c = zone.corners[2];
      // Van Oosterom & Strackee: tan(E/2) = |a.(b x c)| / (1 + a.b + b.c + c.a)
      total +=
          2 * std::atan2(std::fabs(dot(a, cross(b, c))), 1 + dot(a, b) + dot(b, c) + dot(c, a));
    }
    CHECK(total == doctest::Approx(4 * std::numbers::pi).epsilon(1e-12));
  }
}

TEST_CASE("stellarium: Fomalhaut, Sirius and the first record of stars_3 decode as documented") {
  if (skip_without_stellarium()) return;
  const StellariumStar fomalhaut = first_star(kFiles[0]);
  CHECK(fomalhaut.hip == 113368);
  CHECK(stellarium_star_id(0, fomalhaut) == 113368);
  CHECK(std::fabs(fomalhaut.ra_deg - 344.412694) < 1e-6);
  CHECK(std::fabs(fomalhaut.dec_deg - -29.622236) < 1e-6);
  CHECK(std::fabs(fomalhaut.v_mag - 1.150) < 1e-3);
  CHECK(std::fabs(fomalhaut.b_v - 0.1299) < 1e-4);

  bool found_sirius = false;
  StellariumCatalogue(stellarium_file(kFiles[0])).for_each_star([&](const StellariumStar& star) {
    if (star.hip != 32349) return;
    found_sirius = true;
    CHECK(std::fabs(star.ra_deg - 101.28716) < 1e-5);
    CHECK(std::fabs(star.dec_deg - -16.71612) < 1e-5);
    CHECK(std::fabs(star.v_mag - -1.45) < 1e-3);
  });
  CHECK(found_sirius);

  const StellariumStar first3 = first_star(kFiles[3]);
  CHECK(std::fabs(first3.ra_deg - 24.775935) < 1e-6);
  CHECK(std::fabs(first3.dec_deg - -0.439558) < 1e-6);
  CHECK(std::fabs(first3.v_mag - 9.000) < 1e-3);
  CHECK(std::fabs(first3.b_v - 1.1378) < 1e-4);
  // No HIP number in a 6-byte record: the id codes level 3, its zone and its place there.
  CHECK(first3.hip == 0);
  CHECK(first3.index_in_zone == 0);
  CHECK(stellarium_star_id(3, first3) ==
        -(1 + (std::int64_t{3} << 56) + (static_cast<std::int64_t>(first3.zone) << 32)));
}

TEST_CASE("stellarium: 603,418 stars, each inside its zone, denser toward the galactic plane") {
  if (skip_without_stellarium()) return;
  const std::uint64_t expected[4] = {4979, 21806, 150826, 425807};
  std::uint64_t total = 0, low_latitude = 0, high_latitude = 0;
  double max_zone_distance = 0;
  for (int i = 0; i < 4; ++i) {
    StellariumCatalogue catalogue(stellarium_file(kFiles[i]));
    CHECK(catalogue.header().star_count == expected[i]);
    const auto zones = geodesic_zones(static_cast<int>(catalogue.header().level));
    std::uint64_t count = 0;
    catalogue.for_each_star([&](const StellariumStar& star) {
      ++count;
      const Vec3 direction = unit_vector_from_angles(star.ra_deg * kDegree, star.dec_deg * kDegree);
      // A star lies near its own zone: within the zone's circumradius plus a margin.
      const double distance = std::acos(std::min(1.0, dot(direction, zones[star.zone].centre)));
      max_zone_distance = std::max(max_zone_distance, distance / kDegree);
      const double b = angles_from_vector(icrs_to_galactic(direction))[1] / kDegree;
      if (std::fabs(b) < 10) ++low_latitude;
      if (std::fabs(b) > 60) ++high_latitude;
    });
    CHECK(count == expected[i]);
    total += count;
  }
  CHECK(total == 603418);
  CHECK(max_zone_distance < 40.0);  // level-0 zones have a ~37.4 deg circumradius
  // Densities per steradian of |b| < 10 (area 4 pi sin 10) and |b| > 60 (4 pi (1 - sin 60)).
  const double plane = low_latitude / std::sin(10 * kDegree);
  const double poles = high_latitude / (1 - std::sin(60 * kDegree));
  MESSAGE("stellarium plane/pole density ratio " << plane / poles);
  CHECK(plane / poles > 3.0);
}

namespace {

std::vector<char> read_all(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  return std::vector<char>(std::istreambuf_iterator<char>(in), {});
}

void write_all(const std::filesystem::path& path, const std::vector<char>& bytes) {
  std::ofstream out(path, std::ios::binary);
  out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
}

void check_rejected(const std::filesystem::path& path, const std::string& expected_text) {
  try {
    StellariumCatalogue catalogue(path);
    FAIL("accepted a damaged file: " << expected_text);
  } catch (const InputError& error) {
    const std::string message = error.what();
    CHECK(message.find(path.string()) != std::string::npos);
    CHECK_MESSAGE(message.find(expected_text) != std::string::npos, message);
  }
}

}  // namespace

TEST_CASE(
    "stellarium: unknown magic, major version, record type and size mismatches are rejected") {
  if (skip_without_stellarium()) return;
  testing::ScratchFolder scratch("stellarium-bad");
  const auto original = read_all(stellarium_file(kFiles[0]));
  auto with_word = [&](int word, std::uint32_t value) {
    auto bytes = original;
    for (int b = 0; b < 4; ++b) bytes[4 * word + b] = static_cast<char>((value >> (8 * b)) & 0xff);
    return bytes;
  };
  write_all(scratch / "magic.cat", with_word(0, 0x835F040B));
  check_rejected(scratch / "magic.cat", "magic");
  write_all(scratch / "major.cat", with_word(2, 1));
  check_rejected(scratch / "major.cat", "major version");
  write_all(scratch / "type.cat", with_word(1, 3));
  check_rejected(scratch / "type.cat", "unknown record type 3");
  auto truncated = original;
  truncated.resize(truncated.size() - 1);
  write_all(scratch / "truncated.cat", truncated);
  check_rejected(scratch / "truncated.cat", "does not match its zone table");
  auto longer = original;
  longer.push_back(0);
  write_all(scratch / "longer.cat", longer);
  check_rejected(scratch / "longer.cat", "does not match its zone table");
  // Records of type 1 (10 bytes) do not fit a file laid out for 28-byte records.
  write_all(scratch / "retyped.cat", with_word(1, 1));
  check_rejected(scratch / "retyped.cat", "does not match its zone table");
  write_all(scratch / "short.cat", std::vector<char>(original.begin(), original.begin() + 20));
  check_rejected(scratch / "short.cat", "truncated");
}

namespace {

// Packs fields into a little-endian bit string, as the format's 80- and 48-bit records are.
void put_bits(std::vector<unsigned char>& record, unsigned start, unsigned width,
              std::int64_t value) {
  const std::uint64_t bits = static_cast<std::uint64_t>(value) & ((1ull << width) - 1);
  for (unsigned i = 0; i < width; ++i)
    if (bits >> i & 1)
      record[(start + i) / 8] |= static_cast<unsigned char>(1u << ((start + i) % 8));
}

void put_u32(std::vector<unsigned char>& bytes, std::uint32_t value) {
  for (int b = 0; b < 4; ++b) bytes.push_back(static_cast<unsigned char>(value >> (8 * b)));
}

}  // namespace

TEST_CASE("stellarium: record types 1 and 2 decode position, magnitude and colour") {
  // A level-0 file with one star in zone 5, written for each packed record type; the
  // expected direction is computed independently from the zone's corners.
  testing::ScratchFolder scratch("stellarium-types");
  const auto zones = geodesic_zones(0);
  for (std::uint32_t type : {1u, 2u}) {
    const int position_bits = type == 1 ? 20 : 18;
    const double max_position = std::ldexp(1.0, position_bits - 1) - 1;
    const std::int64_t x0 = -123456 >> (20 - position_bits), x1 = 98765 >> (20 - position_bits);
    const std::int64_t b_v = 50, mag = 17;
    std::vector<unsigned char> bytes;
    for (std::uint32_t word :
         {kStellariumMagic, type, 0u, 4u, 0u, static_cast<std::uint32_t>(6000), 3000u, 30u})
      put_u32(bytes, word);
    for (int zone = 0; zone < 20; ++zone) put_u32(bytes, zone == 5 ? 1 : 0);
    std::vector<unsigned char> record(type == 1 ? 10 : 6, 0);
    put_bits(record, 0, position_bits, x0);
    put_bits(record, position_bits, position_bits, x1);
    if (type == 1) {
      put_bits(record, 40, 14, -77);  // proper motion, ignored
      put_bits(record, 54, 14, 55);
      put_bits(record, 68, 7, b_v);
      put_bits(record, 75, 5, mag);
    } else {
      put_bits(record, 36, 7, b_v);
      put_bits(record, 43, 5, mag);
    }
    bytes.insert(bytes.end(), record.begin(), record.end());
    const auto path = scratch / ("type" + std::to_string(type) + ".cat");
    write_all(path, std::vector<char>(bytes.begin(), bytes.end()));

    int seen = 0;
    StellariumCatalogue(path).for_each_star([&](const StellariumStar& star) {
      ++seen;
      const GeodesicZone& zone = zones[5];
      const double scale = (3 - std::sqrt(5.0)) / max_position;
      Vec3 p{};
      for (int k = 0; k < 3; ++k)
        p[k] = zone.centre[k] + x0 * scale * zone.axis0[k] + x1 * scale * zone.axis1[k];
      const auto expected = angles_from_vector(p);
      CHECK(separation_deg(star.ra_deg, star.dec_deg, expected[0] / kDegree,
                           expected[1] / kDegree) < 1e-9);
      CHECK(star.v_mag == doctest::Approx(6.0 + 17 * 3.0 / 30).epsilon(1e-12));
      CHECK(star.b_v == doctest::Approx(50 * 4.0 / 127 - 0.5).epsilon(1e-12));
      CHECK(star.zone == 5);
    });
    CHECK(seen == 1);
  }
}

}  // namespace starlens::catalog
