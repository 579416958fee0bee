// 2MASS PSC rows: the five fixture rows parse as CATALOG_FORMATS.md documents them, bad
// rows are counted by reason with file:line, and damaged gzip streams are InputErrors.
#include <doctest/doctest.h>
#include <zlib.h>

#include <cmath>
#include <fstream>
#include <sstream>
#include <vector>

#include "catalog/external_sorter.h"
#include "catalog/photometry.h"
#include "core/errors.h"
#include "core/progress.h"
#include "gzip_lines.h"
#include "ingest_sources.h"
#include "test_paths.h"
#include "twomass_psc.h"

namespace starlens::catalog {
namespace {

std::vector<std::string> fixture_lines() {
  std::ifstream in(testing::shared_fixture("2mass_psc_synthetic_5rows.txt"));
  REQUIRE_MESSAGE(in.good(),
                  "fixture missing: " << testing::shared_fixture("2mass_psc_synthetic_5rows.txt"));
  std::vector<std::string> lines;
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  REQUIRE(lines.size() == 5);
  return lines;
}

void write_gzip(const std::filesystem::path& path, const std::string& text) {
  gzFile file = gzopen(path.c_str(), "wb");
  REQUIRE(file != nullptr);
  REQUIRE(gzwrite(file, text.data(), static_cast<unsigned>(text.size())) ==
          static_cast<int>(text.size()));
  REQUIRE(gzclose(file) == Z_OK);
}

std::string joined(const std::vector<std::string>& lines) {
  std::string text;
  for (const auto& line : lines) text += line + "\n";
  return text;
}

// Casagrande et al. 2010 (dwarfs), written out independently of the library's Horner form.
double casagrande(double x) {
  return 5040.0 / (0.6393 + 0.6104 * x + 0.0920 * x * x - 0.0330 * std::pow(x, 3) +
                   0.0291 * std::pow(x, 4) + 0.0020 * std::pow(x, 5));
}

// Collects the stars a sorter received, in key order.
std::vector<StarRecord> sorted_stars(ExternalSorter& sorter) {
  std::vector<StarRecord> stars;
  sorter.finish([&](std::span<const StarRecord> batch) {
    stars.insert(stars.end(), batch.begin(), batch.end());
  });
  return stars;
}

const StarRecord* star_near(const std::vector<StarRecord>& stars, double ra, double dec) {
  for (const auto& star : stars)
    if (std::fabs(star.ra_deg - ra) < 1e-9 && std::fabs(star.dec_deg - dec) < 1e-9) return &star;
  return nullptr;
}

}  // namespace

TEST_CASE("2mass: the five fixture rows parse as documented") {
  const auto lines = fixture_lines();
  std::vector<PscRow> rows(5);
  std::string detail;
  for (std::size_t i = 0; i < 5; ++i)
    CHECK_MESSAGE(parse_psc_row(lines[i], rows[i], detail).empty(), detail);
  // An ordinary row.
  CHECK(rows[0].ra_deg == 150.000125);
  CHECK(rows[0].dec_deg == 2.200433);
  CHECK(rows[0].mag[0] == 12.345);
  CHECK(rows[0].mag[1] == 11.902);
  CHECK(rows[0].mag[2] == 11.810);
  CHECK((rows[0].usable(0) && rows[0].usable(1) && rows[0].usable(2)));
  // A K upper limit: the magnitude is there but quality U makes it unusable.
  CHECK(rows[1].quality[2] == 'U');
  CHECK(rows[1].mag[2] == 15.123);
  CHECK(rows[1].usable(0));
  CHECK_FALSE(rows[1].usable(2));
  // A null J near the galactic centre.
  CHECK(std::isnan(rows[2].mag[0]));
  CHECK_FALSE(rows[2].usable(0));
  CHECK(rows[2].mag[2] == 9.044);
  CHECK(rows[2].usable(2));
  // RA just below 360 and Dec just below 0 stay as given.
  CHECK(rows[3].ra_deg == 359.999583);
  CHECK(rows[3].dec_deg == -0.000278);
  // A polar row: E is used (poor fit), C is used, F (no valid sigma; k_msigcom 9.999) is not.
  CHECK(rows[4].dec_deg == 89.95);
  CHECK(rows[4].usable(0));
  CHECK(rows[4].usable(1));
  CHECK_FALSE(rows[4].usable(2));
  // pts_key, field 29 of each fixture row (cut -d'|' -f29).
  for (std::size_t i = 0; i < 5; ++i)
    CHECK(rows[i].pts_key == 9000000001 + static_cast<std::int64_t>(i));
}

TEST_CASE("2mass: malformed rows are rejected with a reason") {
  const auto lines = fixture_lines();
  PscRow row;
  std::string detail;
  const std::string& good = lines[0];
  // 59 fields: the last one dropped.
  CHECK(parse_psc_row(good.substr(0, good.rfind('|')), row, detail) == "field_count");
  CHECK(detail.find("59 fields") != std::string::npos);
  CHECK(parse_psc_row(good + "|extra", row, detail) == "field_count");
  CHECK(parse_psc_row("", row, detail) == "field_count");
  CHECK(parse_psc_row("abc" + good.substr(good.find('|')), row, detail) == "bad_ra");
  CHECK(parse_psc_row("360.0" + good.substr(good.find('|')), row, detail) == "bad_ra");
  std::string bad_dec = good;
  bad_dec.replace(bad_dec.find("2.200433"), 8, "91.00000");
  CHECK(parse_psc_row(bad_dec, row, detail) == "bad_dec");
  std::string bad_mag = good;
  bad_mag.replace(bad_mag.find("12.345"), 6, "12.3x5");
  CHECK(parse_psc_row(bad_mag, row, detail) == "bad_magnitude");
  std::string null_mag = good;
  null_mag.replace(null_mag.find("12.345"), 6, "\\N");
  CHECK(parse_psc_row(null_mag, row, detail) == "bad_magnitude");  // quality A with no magnitude
  std::string bad_quality = good;
  bad_quality.replace(bad_quality.find("|AAA|"), 5, "|AQA|");
  CHECK(parse_psc_row(bad_quality, row, detail) == "bad_ph_qual");
  for (const char* key : {"\\N", "0", "-5", "12x", "99999999999999999999"}) {
    std::string bad_key = good;
    bad_key.replace(bad_key.find("|9000000001|"), 12, std::string("|") + key + "|");
    CHECK_MESSAGE(parse_psc_row(bad_key, row, detail) == "bad_pts_key", key);
    CHECK(detail == std::string("pts_key '") + key + "' is not a positive integer");
  }
  // A byte outside printable ASCII anywhere, even in a field ingest does not use, is damage.
  const std::pair<char, const char*> bytes[] = {
      {'\xff', "0xFF"}, {'\x80', "0x80"}, {'\x00', "0x00"}, {'\t', "0x09"}, {'\x7f', "0x7F"}};
  for (const auto& [byte, hex] : bytes) {
    for (const std::size_t at : {std::size_t(0), good.find("|AAA|") + 2, good.size() - 1}) {
      std::string damaged = good;
      damaged[at] = byte;
      CHECK(parse_psc_row(damaged, row, detail) == "not_ascii");
      CHECK(detail == std::string("byte ") + hex + " at column " + std::to_string(at + 1) +
                          " (2MASS rows are printable ASCII)");
    }
  }
}

TEST_CASE("2mass: ingest of the fixture keeps, rejects and computes as documented") {
  testing::ScratchFolder scratch("twomass-ingest");
  const auto lines = fixture_lines();
  const auto path = scratch / "psc_aaa.gz";
  write_gzip(path, joined(lines));
  Progress progress("test", 0, true);

  SUBCASE("reference band J") {
    ExternalSorter sorter(scratch / "out.h5", 64 << 20);
    IngestTally tally;
    ingest_twomass({path.string()}, band_by_name("J", "--band"), sorter, tally, progress);
    CHECK(tally.rows_read == 5);
    CHECK(tally.stars == 4);
    CHECK(tally.rejections.count("reference_band_unusable") == 1);  // row 3, null J
    CHECK(tally.temperatures.from_colour == 1);                     // row 1
    CHECK(tally.temperatures.clamped_red == 1);                     // row 4: J-Ks = 0.904
    CHECK(tally.temperatures.without_colour == 2);                  // rows 2 and 5: K unusable
    const auto json = tally.rejections.to_json();
    CHECK(json["examples"][0]["line"] == 3);
    CHECK(json["examples"][0]["file"] == path.string());
    const auto stars = sorted_stars(sorter);
    REQUIRE(stars.size() == 4);
    const StarRecord* ordinary = star_near(stars, 150.000125, 2.200433);
    REQUIRE(ordinary);
    CHECK(ordinary->teff_k == doctest::Approx(casagrande(12.345 - 11.810)).epsilon(1e-6));
    CHECK(ordinary->flux_jy ==
          doctest::Approx(1594.0 * std::pow(10.0, -0.4 * 12.345)).epsilon(1e-6));
    const StarRecord* wrap = star_near(stars, 359.999583, -0.000278);
    REQUIRE(wrap);
    CHECK(wrap->teff_k == doctest::Approx(casagrande(0.80)).epsilon(1e-6));
    const StarRecord* polar = star_near(stars, 12.345678, 89.95);
    REQUIRE(polar);
    CHECK(polar->teff_k == doctest::Approx(kDefaultTemperatureK));
    CHECK(polar->flux_jy == doctest::Approx(1594.0 * std::pow(10.0, -0.4 * 16.512)).epsilon(1e-6));
  }
  SUBCASE("reference band Ks") {
    ExternalSorter sorter(scratch / "out.h5", 64 << 20);
    IngestTally tally;
    ingest_twomass({path.string()}, band_by_name("Ks", "--band"), sorter, tally, progress);
    CHECK(tally.stars == 3);  // rows 1, 3, 4
    CHECK(tally.rejections.count("reference_band_unusable") == 2);
    const auto stars = sorted_stars(sorter);
    const StarRecord* centre = star_near(stars, 266.416837, -29.007800);
    REQUIRE(centre);
    CHECK(centre->teff_k == doctest::Approx(kDefaultTemperatureK));  // no J: no colour
    CHECK(centre->flux_jy == doctest::Approx(666.7 * std::pow(10.0, -0.4 * 9.044)).epsilon(1e-6));
  }
}

TEST_CASE("2mass: rejected rows are counted by reason with file and line across files") {
  testing::ScratchFolder scratch("twomass-reject");
  auto lines = fixture_lines();
  const std::string good = lines[0];
  std::vector<std::string> second = {good, good.substr(0, good.rfind('|')), "x" + good, good};
  write_gzip(scratch / "psc_aaa.gz", joined(lines));
  write_gzip(scratch / "psc_aab.gz", joined(second));
  Progress progress("test", 0, true);
  ExternalSorter sorter(scratch / "out.h5", 64 << 20);
  IngestTally tally;
  ingest_twomass({(scratch / "psc_aaa.gz").string(), (scratch / "psc_aab.gz").string()},
                 band_by_name("J", "--band"), sorter, tally, progress);
  CHECK(tally.rows_read == 9);
  CHECK(tally.stars == 6);
  CHECK(tally.rejections.count("field_count") == 1);
  CHECK(tally.rejections.count("bad_ra") == 1);
  const auto json = tally.rejections.to_json();
  bool found_field_count = false;
  for (const auto& example : json["examples"])
    if (example["reason"] == "field_count") {
      found_field_count = true;
      CHECK(example["file"] == (scratch / "psc_aab.gz").string());
      CHECK(example["line"] == 2);
    }
  CHECK(found_field_count);
  CHECK(tally.sources.size() == 2);
}

namespace {

void expect_gzip_error(const std::filesystem::path& path, const std::string& expected_text) {
  try {
    GzipLines lines(path);
    std::string_view line;
    while (lines.next(line)) {
    }
    FAIL("no error for " << path);
  } catch (const InputError& error) {
    const std::string message = error.what();
    CHECK_MESSAGE(message.find(path.string()) != std::string::npos, message);
    CHECK_MESSAGE(message.find(expected_text) != std::string::npos, message);
  }
}

}  // namespace

TEST_CASE("gzip: long streams, concatenated members; corrupt, truncated and non-gzip files fail") {
  testing::ScratchFolder scratch("gzip");
  // 200,000 numbered lines (several MB of text, more than one inflate buffer).
  std::string text;
  for (int i = 0; i < 200000; ++i)
    text += "line " + std::to_string(i) + "|" + std::string(i % 50, 'x') + "\n";
  write_gzip(scratch / "big.gz", text);
  {
    GzipLines lines(scratch / "big.gz");
    std::string_view line;
    int count = 0;
    bool in_order = true;
    while (lines.next(line)) {
      const std::string expected =
          "line " + std::to_string(count) + "|" + std::string(count % 50, 'x');
      in_order = in_order && line == expected;
      ++count;
    }
    CHECK(count == 200000);
    CHECK(in_order);
    CHECK(lines.compressed_bytes_read() == std::filesystem::file_size(scratch / "big.gz"));
  }
  // Two gzip members back to back (what `cat a.gz b.gz` makes), the last line without '\n'.
  write_gzip(scratch / "a.gz", "first\nsecond\n");
  write_gzip(scratch / "b.gz", "third\nfourth");
  {
    std::ofstream out(scratch / "both.gz", std::ios::binary);
    for (const char* part : {"a.gz", "b.gz"}) {
      std::ifstream in(scratch / part, std::ios::binary);
      out << in.rdbuf();
    }
  }
  {
    GzipLines lines(scratch / "both.gz");
    std::vector<std::string> got;
    std::string_view line;
    while (lines.next(line)) got.emplace_back(line);
    CHECK(got == std::vector<std::string>{"first", "second", "third", "fourth"});
  }
  // Corrupt: bytes in the middle of the deflate data flipped.
  std::ifstream in(scratch / "big.gz", std::ios::binary);
  std::vector<char> bytes((std::istreambuf_iterator<char>(in)), {});
  auto corrupt = bytes;
  for (std::size_t i = corrupt.size() / 2; i < corrupt.size() / 2 + 64; ++i)
    corrupt[i] = static_cast<char>(~corrupt[i]);
  std::ofstream(scratch / "corrupt.gz", std::ios::binary)
      .write(corrupt.data(), static_cast<std::streamsize>(corrupt.size()));
  expect_gzip_error(scratch / "corrupt.gz", "gzip stream");
  auto truncated = bytes;
  truncated.resize(bytes.size() / 3);
  std::ofstream(scratch / "truncated.gz", std::ios::binary)
      .write(truncated.data(), static_cast<std::streamsize>(truncated.size()));
  expect_gzip_error(scratch / "truncated.gz", "truncated");
  std::ofstream(scratch / "plain.gz") << "150.0|2.2|not gzip\n";
  expect_gzip_error(scratch / "plain.gz", "corrupt");
  std::ofstream(scratch / "empty.gz").close();
  expect_gzip_error(scratch / "empty.gz", "empty file");
}

TEST_CASE("2mass: a corrupt file among good ones fails the ingest naming that file") {
  testing::ScratchFolder scratch("twomass-corrupt");
  const auto lines = fixture_lines();
  write_gzip(scratch / "psc_aaa.gz", joined(lines));
  std::ofstream(scratch / "psc_aab.gz") << "this is not gzip\n";
  write_gzip(scratch / "psc_aac.gz", joined(lines));
  Progress progress("test", 0, true);
  ExternalSorter sorter(scratch / "out.h5", 64 << 20);
  IngestTally tally;
  try {
    ingest_twomass({(scratch / "psc_aaa.gz").string(), (scratch / "psc_aab.gz").string(),
                    (scratch / "psc_aac.gz").string()},
                   band_by_name("J", "--band"), sorter, tally, progress);
    FAIL("no error");
  } catch (const InputError& error) {
    CHECK(std::string(error.what()).find("psc_aab.gz") != std::string::npos);
  }
}

}  // namespace starlens::catalog
