// catalog.h5 written and read back: every star once, in its HEALPix cell (checked with
// HEALPix's own ang2pix), offsets consistent, external sort identical to the in-memory
// one, cell-range reads touching only their chunks, and damaged stores rejected.
#include <doctest/doctest.h>
#include <healpix_base.h>
#include <pointing.h>

#include <algorithm>
#include <fstream>
#include <map>
#include <numbers>

#include "catalog/store_format.h"
#include "catalog/store_reader.h"
#include "core/errors.h"
#include "core/hdf5_file.h"
#include "manifest/sha256.h"
#include "scratch_folder.h"
#include "store_fixture.h"

namespace starlens::catalog {
namespace {

using testing::random_stars;
using testing::ScratchFolder;
using testing::write_store;

// (ra, dec, teff, flux) of a star, for comparing multisets of stars.
using StarValues = std::tuple<double, double, float, float>;

std::vector<StarValues> values_of(const std::vector<StarRecord>& stars) {
  std::vector<StarValues> values;
  for (const auto& s : stars) values.emplace_back(s.ra_deg, s.dec_deg, s.teff_k, s.flux_jy);
  std::sort(values.begin(), values.end());
  return values;
}

// Bytes this process has read through read()/pread() so far (Linux /proc/self/io).
std::uint64_t process_bytes_read() {
  std::ifstream io("/proc/self/io");
  std::string key;
  std::uint64_t value = 0;
  while (io >> key >> value)
    if (key == "rchar:") return value;
  return 0;
}

}  // namespace

TEST_CASE("store: every star read back once, in its ang2pix cell, with consistent offsets") {
  ScratchFolder scratch("roundtrip");
  const auto stars = random_stars(60000, 7, true);
  const int order = 4;
  write_store(scratch / "catalog.h5", stars, order);
  CatalogStore store(scratch / "catalog.h5");
  CHECK(store.order() == order);
  CHECK(store.cell_count() == 12 * 256);
  CHECK(store.star_count() == stars.size());
  CHECK(store.band().name == "V");
  CHECK(store.band().zero_point_jy == 3640.0);

  const CellBlock all = store.read_cells(0, store.cell_count());
  REQUIRE(all.stars.size() == stars.size());
  // The cell of every star from HEALPix C++ directly (not through the store's sort keys).
  T_Healpix_Base<int64> healpix(order, NEST);
  std::vector<std::uint64_t> per_cell(store.cell_count(), 0);
  std::vector<StarRecord> read_back;
  std::uint64_t previous_cell = 0;
  bool cells_match = true, cells_sorted = true;
  for (std::uint64_t cell = 0; cell < store.cell_count(); ++cell) {
    for (const CatalogStar& star : all.cell(cell)) {
      const auto expected = static_cast<std::uint64_t>(
          healpix.ang2pix(pointing(std::numbers::pi / 2 - star.dec, star.ra)));
      cells_match = cells_match && expected == cell && star.cell == cell;
      cells_sorted = cells_sorted && expected >= previous_cell;
      previous_cell = expected;
      ++per_cell[cell];
      StarRecord record;
      record.ra_deg = star.ra / kDegree;
      record.dec_deg = star.dec / kDegree;
      record.teff_k = star.teff_k;
      record.flux_jy = star.flux_jy;
      read_back.push_back(record);
    }
  }
  CHECK(cells_match);
  CHECK(cells_sorted);
  // Counting the stars of each cell independently gives the same offsets.
  std::vector<std::uint64_t> counted(store.cell_count(), 0);
  for (const auto& star : stars)
    ++counted[static_cast<std::size_t>(healpix.ang2pix(
        pointing(std::numbers::pi / 2 - star.dec_deg * kDegree, star.ra_deg * kDegree)))];
  CHECK(per_cell == counted);
  // Degrees -> radians -> degrees may differ in the last bit; compare within 1e-12 deg.
  const auto expected_values = values_of(stars);
  const auto got_values = values_of(read_back);
  std::size_t mismatches = 0;
  for (std::size_t i = 0; i < expected_values.size(); ++i) {
    const auto& [ra1, dec1, t1, f1] = expected_values[i];
    const auto& [ra2, dec2, t2, f2] = got_values[i];
    if (std::fabs(ra1 - ra2) > 1e-12 || std::fabs(dec1 - dec2) > 1e-12 || t1 != t2 || f1 != f2)
      ++mismatches;
  }
  CHECK(mismatches == 0);
  CHECK(store.id_scheme() == "test");
}

TEST_CASE("store: each row's id and magnitude are those of the star in that row") {
  ScratchFolder scratch("sources");
  const auto stars = random_stars(50000, 9, true);
  write_store(scratch / "catalog.h5", stars, 3);
  CatalogStore store(scratch / "catalog.h5");
  std::map<std::int64_t, const StarRecord*> by_id;
  for (const auto& star : stars) by_id[star.id] = &star;
  const CellBlock all = store.read_cells(0, store.cell_count());
  const std::vector<StoredSource> sources = store.read_sources(0, store.star_count());
  REQUIRE(sources.size() == stars.size());
  std::size_t mismatches = 0, seen = 0;
  std::map<std::int64_t, int> times_seen;
  for (std::size_t row = 0; row < sources.size(); ++row) {
    const auto found = by_id.find(sources[row].id);
    if (found == by_id.end()) {
      ++mismatches;
      continue;
    }
    ++times_seen[sources[row].id];
    const StarRecord& star = *found->second;
    const CatalogStar& stored = all.stars[row];
    if (std::fabs(stored.ra / kDegree - star.ra_deg) > 1e-12 ||
        std::fabs(stored.dec / kDegree - star.dec_deg) > 1e-12 || stored.flux_jy != star.flux_jy ||
        sources[row].mag != star.mag)
      ++mismatches;
    ++seen;
  }
  CHECK(mismatches == 0);
  CHECK(seen == stars.size());
  CHECK(times_seen.size() == stars.size());  // every id once
  // A part of the rows reads the same values.
  const auto part = store.read_sources(1000, 10);
  for (std::size_t i = 0; i < part.size(); ++i) CHECK(part[i].id == sources[1000 + i].id);
  CHECK_THROWS_AS(store.read_sources(stars.size() - 5, 10), InputError);
}

TEST_CASE("store: sorting in runs on disk gives the identical file") {
  ScratchFolder scratch("external");
  const auto stars = random_stars(100000, 11, true);
  const auto in_memory = write_store(scratch / "memory.h5", stars, 3, 256ull << 20);
  const auto on_disk = write_store(scratch / "disk.h5", stars, 3, 1ull << 20);
  CHECK(in_memory.runs_written == 0);
  CHECK(on_disk.runs_written >= 5);  // 100,000 stars of 48 bytes in 0.5 MiB buffers
  CHECK(on_disk.merge_passes >= 1);  // more runs than 1 MiB allows merging at once
  CHECK(sha256_file(scratch / "memory.h5") == sha256_file(scratch / "disk.h5"));
  // No run file is left behind.
  for (const auto& entry : std::filesystem::directory_iterator(scratch.path()))
    CHECK(entry.path().filename().string().find("sortrun") == std::string::npos);
}

TEST_CASE("store: an empty catalogue is a valid empty store") {
  ScratchFolder scratch("empty");
  write_store(scratch / "empty.h5", {}, 0);
  CatalogStore store(scratch / "empty.h5");
  CHECK(store.star_count() == 0);
  CHECK(store.cell_count() == 12);
  const CellBlock block = store.read_cells(0, 12);
  CHECK(block.stars.empty());
  CHECK(block.offsets == std::vector<std::uint64_t>(13, 0));
  int blocks = 0;
  store.for_each_block(0, 12, 1000, [&](const CellBlock& b) {
    ++blocks;
    CHECK(b.stars.empty());
  });
  CHECK(blocks == 1);
}

TEST_CASE("store: blocks cover a range once, each within the star budget") {
  ScratchFolder scratch("blocks");
  const auto stars = random_stars(30000, 3, true);
  write_store(scratch / "catalog.h5", stars, 3);
  CatalogStore store(scratch / "catalog.h5");
  std::uint64_t next_cell = 100, seen = 0;
  const std::vector<std::uint64_t> offsets = store.read_offsets(100, 700);
  store.for_each_block(100, 700, 500, [&](const CellBlock& block) {
    CHECK(block.first_cell == next_cell);
    CHECK((block.stars.size() <= 500 || block.end_cell == block.first_cell + 1));
    next_cell = block.end_cell;
    seen += block.stars.size();
    for (std::uint64_t c = block.first_cell; c < block.end_cell; ++c)
      for (const auto& star : block.cell(c)) CHECK(star.cell == c);
  });
  CHECK(next_cell == 700);
  CHECK(seen == offsets.back() - offsets.front());
  CHECK_THROWS_AS(store.read_cells(10, 769), InputError);
  CHECK_THROWS_AS(store.read_cells(20, 10), InputError);
}

TEST_CASE("store: reading a cell range touches only that range") {
  ScratchFolder scratch("bytes");
  const auto stars = random_stars(400000, 5);
  write_store(scratch / "catalog.h5", stars, 5);  // 12,288 cells, ~33 stars each, 25 chunks
  const auto file_size = std::filesystem::file_size(scratch / "catalog.h5");
  CatalogStore store(scratch / "catalog.h5");
  const std::uint64_t first = 6000, end = 6040;  // 40 cells, ~1300 stars
  const auto before = process_bytes_read();
  const CellBlock block = store.read_cells(first, end);
  const auto system_bytes = process_bytes_read() - before;
  const ReadStatistics& statistics = store.statistics();
  const std::uint64_t rows = block.stars.size();
  CHECK(statistics.cells_read == 40);
  CHECK(statistics.stars_read == rows);
  CHECK(statistics.bytes_requested == rows * 24 + 41 * 8);
  // At most two chunks of the star table (the range may straddle a boundary) and one of the
  // offsets: 384 KiB x 2 + 32 KiB.
  CHECK(statistics.bytes_read >= statistics.bytes_requested);
  CHECK(statistics.bytes_read <= 2 * (store::kStarChunkRows * 24) + store::kOffsetChunkRows * 8);
  // The operating system saw about the same: the chunks plus a little HDF5 metadata, a
  // small part of the file.
  MESSAGE("range read: " << rows << " stars, reported " << statistics.bytes_read << " B, read() "
                         << system_bytes << " B of a " << file_size << " B file");
  CHECK(system_bytes <= statistics.bytes_read + 64 * 1024);
  CHECK(system_bytes * 8 < file_size);
  CHECK(system_bytes >= rows * 24);
  // Reading everything reads (about) the whole star table, and none of the sources.
  const auto before_all = process_bytes_read();
  store.read_cells(0, store.cell_count());
  const auto all_bytes = process_bytes_read() - before_all;
  CHECK(all_bytes >= stars.size() * 24);
  CHECK(all_bytes < stars.size() * 24 + 256 * 1024);
  CHECK(file_size > stars.size() * (24 + 12));
}

namespace {

// Rewrites one root attribute of a copy of a store.
template <typename T>
void set_attribute(const std::filesystem::path& path, const std::string& name, const T& value) {
  h5::File file{h5::Handle(H5Fopen(path.c_str(), H5F_ACC_RDWR, H5P_DEFAULT)), path.string()};
  REQUIRE(file.handle.valid());
  h5::write_attribute(file, name, value);
}

void remove_object(const std::filesystem::path& path, const std::string& name, bool attribute) {
  h5::File file{h5::Handle(H5Fopen(path.c_str(), H5F_ACC_RDWR, H5P_DEFAULT)), path.string()};
  REQUIRE(file.handle.valid());
  if (attribute)
    REQUIRE(H5Adelete(file.id(), name.c_str()) >= 0);
  else
    REQUIRE(H5Ldelete(file.id(), name.c_str(), H5P_DEFAULT) >= 0);
}

void expect_rejected(const std::filesystem::path& path, const std::string& expected_text) {
  try {
    CatalogStore store(path);
    FAIL("accepted: " << expected_text);
  } catch (const InputError& error) {
    const std::string message = error.what();
    CHECK_MESSAGE(message.find(path.string()) != std::string::npos, message);
    CHECK_MESSAGE(message.find(expected_text) != std::string::npos, message);
  }
}

}  // namespace

TEST_CASE("store: damaged or foreign stores are rejected naming the file and the field") {
  ScratchFolder scratch("damaged");
  const auto good = scratch / "good.h5";
  write_store(good, random_stars(2000, 1), 2);
  int serial = 0;
  auto copy = [&] {
    const auto path = scratch / ("bad" + std::to_string(serial++) + ".h5");
    std::filesystem::copy_file(good, path);
    return path;
  };
  auto path = copy();
  set_attribute(path, "format", std::string("starlens-lensmap"));
  expect_rejected(path, "format");
  path = copy();
  set_attribute(path, "version", std::int64_t{3});
  expect_rejected(path, "attribute version: 3 unsupported (this build reads 2)");
  path = copy();
  set_attribute(path, "version", std::int64_t{1});
  expect_rejected(path, "attribute version: 1: a store without star ids");
  path = copy();
  set_attribute(path, "order", std::int64_t{3});
  expect_rejected(path, "/cells/offsets");  // 12 * 4^3 + 1 entries expected
  path = copy();
  set_attribute(path, "order", std::int64_t{40});
  expect_rejected(path, "order");
  path = copy();
  set_attribute(path, "count", std::int64_t{1999});
  expect_rejected(path, "/stars/table: shape 2000, expected 1999");
  path = copy();
  set_attribute(path, "F0", -1.0);
  expect_rejected(path, "F0");
  path = copy();
  remove_object(path, "band", true);
  expect_rejected(path, "attribute band");
  path = copy();
  remove_object(path, "/stars/source", false);
  expect_rejected(path, "/stars/source");
  // A table of the right shape but other fields (ra and dec as float32).
  path = copy();
  {
    h5::File file{h5::Handle(H5Fopen(path.c_str(), H5F_ACC_RDWR, H5P_DEFAULT)), path.string()};
    REQUIRE(H5Ldelete(file.id(), "/stars/table", H5P_DEFAULT) >= 0);
    h5::Handle type(H5Tcreate(H5T_COMPOUND, 16));
    H5Tinsert(type.get(), "ra", 0, H5T_IEEE_F32LE);
    H5Tinsert(type.get(), "dec", 4, H5T_IEEE_F32LE);
    H5Tinsert(type.get(), "teff", 8, H5T_IEEE_F32LE);
    H5Tinsert(type.get(), "flux", 12, H5T_IEEE_F32LE);
    const hsize_t rows = 2000;
    h5::Handle space(H5Screate_simple(1, &rows, nullptr));
    h5::Handle dataset(H5Dcreate2(file.id(), "/stars/table", type.get(), space.get(), H5P_DEFAULT,
                                  H5P_DEFAULT, H5P_DEFAULT));
    std::vector<float> zeros(4 * rows, 1.0f);
    REQUIRE(H5Dwrite(dataset.get(), type.get(), H5S_ALL, H5S_ALL, H5P_DEFAULT, zeros.data()) >= 0);
  }
  expect_rejected(path, "/stars/table: not the compound {ra float64, dec float64");
  path = copy();
  set_attribute(path, "healpix_scheme", std::string("RING"));
  expect_rejected(path, "healpix_scheme");
  // A store in libhdf5's default format (superblock 0, no metadata checksums), as written
  // before: refused by name before libhdf5 parses it.
  path = scratch / "unchecksummed.h5";
  {
    h5::File file{h5::Handle(H5Fcreate(path.c_str(), H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT)),
                  path.string()};
    h5::write_attribute(file, "format", std::string("starlens-catalog"));
  }
  expect_rejected(path, "superblock: version 0: its metadata carries no checksums");
  // Every object header of a store carries a checksum: one changed byte in the first header
  // after the superblock is refused, not decoded.
  path = copy();
  {
    std::fstream file(path, std::ios::binary | std::ios::in | std::ios::out);
    std::string bytes(std::filesystem::file_size(path), '\0');
    file.read(bytes.data(), std::streamsize(bytes.size()));
    const std::size_t header = bytes.find("OHDR");
    REQUIRE(header != std::string::npos);
    file.seekp(std::streamoff(header + 12));
    file.put(static_cast<char>(bytes[header + 12] ^ 0x40));
  }
  expect_rejected(path, "");
  // Values no star can have: found when the rows are read.
  for (const char* field : {"flux", "ra"}) {
    path = copy();
    {
      // Only `field` of row 1234 is written (a compound memory type of that one field).
      h5::File file{h5::Handle(H5Fopen(path.c_str(), H5F_ACC_RDWR, H5P_DEFAULT)), path.string()};
      h5::Handle data(H5Dopen2(file.id(), "/stars/table", H5P_DEFAULT));
      h5::Handle space(H5Dget_space(data.get()));
      const hsize_t start = 1234, count = 1;
      H5Sselect_hyperslab(space.get(), H5S_SELECT_SET, &start, nullptr, &count, nullptr);
      h5::Handle memory(H5Screate_simple(1, &count, nullptr));
      h5::Handle type(H5Tcreate(H5T_COMPOUND, sizeof(double)));
      H5Tinsert(type.get(), field, 0, H5T_NATIVE_DOUBLE);
      const double bad = -1.0;
      REQUIRE(H5Dwrite(data.get(), type.get(), memory.get(), space.get(), H5P_DEFAULT, &bad) >= 0);
    }
    CatalogStore store(path);  // the attributes and shapes are fine
    try {
      store.read_cells(0, store.cell_count());
      FAIL("accepted a negative " << field);
    } catch (const InputError& error) {
      CHECK_MESSAGE(std::string(error.what()).find("row 1234") != std::string::npos, error.what());
      CHECK_MESSAGE(std::string(error.what()).find(field) != std::string::npos, error.what());
    }
  }
  // Not HDF5 at all, and a truncated store.
  std::ofstream(scratch / "text.h5") << "ra,dec,mag,teff\n";
  expect_rejected(scratch / "text.h5", "not an HDF5 file");
  path = copy();
  std::filesystem::resize_file(path, std::filesystem::file_size(path) / 2);
  CHECK_THROWS_AS(CatalogStore{path}, InputError);
  expect_rejected(scratch / "missing.h5", "no such file");
}

TEST_CASE("store: scalar attributes stored as arrays and impossible shapes are refused") {
  ScratchFolder scratch("arrays");
  const auto good = scratch / "good.h5";
  write_store(good, random_stars(500, 2), 1);
  int serial = 0;
  // A copy of the good store whose attribute `name` is an array of `count` values.
  const auto with_array = [&](const char* name, hid_t type, hsize_t count) {
    const auto path = scratch / ("array" + std::to_string(serial++) + ".h5");
    std::filesystem::copy_file(good, path);
    h5::File file{h5::Handle(H5Fopen(path.c_str(), H5F_ACC_RDWR, H5P_DEFAULT)), path.string()};
    REQUIRE(H5Adelete(file.id(), name) >= 0);
    h5::Handle space(H5Screate_simple(1, &count, nullptr));
    h5::Handle attribute(H5Acreate2(file.id(), name, type, space.get(), H5P_DEFAULT, H5P_DEFAULT));
    std::vector<unsigned char> zeros(count * H5Tget_size(type));
    REQUIRE(H5Awrite(attribute.get(), type, zeros.data()) >= 0);
    return path;
  };
  expect_rejected(with_array("order", H5T_NATIVE_INT64, 3),
                  "attribute order: is an array of 3 values, expected a scalar");
  expect_rejected(with_array("count", H5T_NATIVE_INT64, 4000),
                  "attribute count: is an array of 4000 values, expected a scalar");
  expect_rejected(with_array("F0", H5T_NATIVE_DOUBLE, 2),
                  "attribute F0: is an array of 2 values, expected a scalar");
  h5::Handle string_type(H5Tcopy(H5T_C_S1));
  H5Tset_size(string_type.get(), H5T_VARIABLE);
  expect_rejected(with_array("band", string_type.get(), 4000),
                  "attribute band: is an array of 4000 values, expected a scalar");

  auto path = scratch / "band.h5";
  std::filesystem::copy_file(good, path);
  set_attribute(path, "band", std::string("K"));
  expect_rejected(path, "attribute band: 'K' is not V, J, H, Ks or G");

  // A count and table shape that agree but that no file of this size can hold.
  path = scratch / "huge.h5";
  std::filesystem::copy_file(good, path);
  {
    h5::File file{h5::Handle(H5Fopen(path.c_str(), H5F_ACC_RDWR, H5P_DEFAULT)), path.string()};
    REQUIRE(H5Ldelete(file.id(), "/stars/table", H5P_DEFAULT) >= 0);
    const hsize_t dims = hsize_t{1} << 36, chunk = 16384;
    h5::Handle space(H5Screate_simple(1, &dims, nullptr));
    h5::Handle properties(H5Pcreate(H5P_DATASET_CREATE));
    H5Pset_chunk(properties.get(), 1, &chunk);
    const h5::Handle type = star_table_file_type();
    h5::Handle dataset(H5Dcreate2(file.id(), "/stars/table", type.get(), space.get(), H5P_DEFAULT,
                                  properties.get(), H5P_DEFAULT));
    REQUIRE(dataset.valid());
    h5::write_attribute(file, "count", std::int64_t{1} << 36);
  }
  expect_rejected(path, "/stars/table: shape 68719476736 of 24-byte values does not fit");
}

}  // namespace starlens::catalog
