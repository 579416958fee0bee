// Fixtures for the producer's command-line tests and benchmark, made here with the
// catalogue and lens-map modules' writers and HDF5 itself:
//   stars STARS.csv -o store.h5 [--order K] [--band B]   a store of the listed stars
//                                                          (ra_deg,dec_deg,teff_k,flux_jy)
//   uniform -o store.h5 --count N [--order K] [--seed S]   N stars uniform over the sky,
//                                                          written cell by cell (streamed)
//   lensmap -o map.h5 --spacetime S --r-obs R --bh-ra A --bh-dec D --fov F --width W
//           --height H --step S [--max-source DEG]
//                                                          a regular-grid lens map that keeps
//                                                          every escaped triangle, also those
//                                                          straddling the Einstein ring
//   cells STORE A B     prints the star rows [first, end) of cells A:B and the bytes of the
//                       star chunks holding them
//   damage IN -o OUT [--delete OBJECT] [--set-int NAME=VALUE] [--set-double NAME=VALUE]
//          [--set-string NAME=VALUE] [--set-array NAME=N]
//                                                          a copy with one thing broken
//                                                          (--set-array: root attribute NAME
//                                                          stored as N zeros of its own type)
#include <hdf5.h>

#include <CLI/CLI.hpp>
#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <random>
#include <sstream>

#include "catalog/photometry.h"
#include "catalog/sky_cells.h"
#include "catalog/store_format.h"
#include "catalog/store_reader.h"
#include "catalog/store_writer.h"
#include "core/errors.h"
#include "lensmap/camera.h"
#include "lensmap/lensmap_file.h"
#include "spacetime/spacetime.h"

using namespace starlens;
using namespace starlens::catalog;

namespace {

StoreDescription description(const std::string& band, const std::string& how) {
  StoreDescription d;
  d.band = band_by_name(band, "--band");
  d.teff_relation = "given";
  d.generator = {{"tool", "produce_fixtures"}, {"how", how}};
  return d;
}

void write_listed_stars(const std::string& csv, const std::string& output, int order,
                        const std::string& band) {
  std::ifstream in(csv);
  if (!in) throw std::runtime_error("cannot read " + csv);
  std::vector<StarRecord> stars;
  std::string line;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#') continue;
    std::replace(line.begin(), line.end(), ',', ' ');
    std::istringstream fields(line);
    double ra, dec, teff, flux;
    if (!(fields >> ra >> dec >> teff >> flux)) throw std::runtime_error("bad line: " + line);
    StarRecord star;
    star.key = sky_key(ra, dec);
    star.ra_deg = ra;
    star.dec_deg = dec;
    star.id = static_cast<std::int64_t>(stars.size()) + 1;  // the listed star's line
    star.teff_k = static_cast<float>(teff);
    star.flux_jy = static_cast<float>(flux);
    stars.push_back(star);
  }
  std::sort(stars.begin(), stars.end());
  StoreWriter writer(output, output, order, description(band, "listed stars from " + csv));
  writer.append(stars);
  writer.finish();
}

// Uniform over the sphere: every key cell has the same area, so a uniform key is a uniform
// position (to the key cell's 0.4 mas). Each store cell gets its binomial share.
void write_uniform_stars(const std::string& output, std::uint64_t count, int order,
                         std::uint64_t seed, const std::string& band) {
  std::mt19937_64 random(seed);
  const SkyCells cells(order);
  const std::uint64_t keys_per_cell = std::uint64_t{1} << (2 * (kKeyOrder - order));
  StoreWriter writer(output, output, order,
                     description(band, "uniform, seed " + std::to_string(seed)));
  std::uint64_t left = count;
  std::uniform_real_distribution<double> unit(0, 1);
  std::vector<StarRecord> stars;
  for (std::uint64_t cell = 0; cell < cells.count(); ++cell) {
    const std::uint64_t cells_left = cells.count() - cell;
    std::binomial_distribution<std::uint64_t> share(left, 1.0 / static_cast<double>(cells_left));
    const std::uint64_t n = cells_left == 1 ? left : share(random);
    left -= n;
    stars.clear();
    std::uniform_int_distribution<std::uint64_t> key_in_cell(0, keys_per_cell - 1);
    for (std::uint64_t i = 0; i < n; ++i) {
      StarRecord star;
      star.key = cell * keys_per_cell + key_in_cell(random);
      key_centre_deg(star.key, star.ra_deg, star.dec_deg);
      star.teff_k = static_cast<float>(3000 + 9000 * unit(random));
      star.flux_jy = static_cast<float>(std::pow(10.0, -1 - 5 * unit(random)));  // mag ~ 11 to 23
      stars.push_back(star);
    }
    std::sort(stars.begin(), stars.end());
    writer.append(stars);
  }
  writer.finish();
}

double signed_solid_angle(const Vec3& a, const Vec3& b, const Vec3& c) {
  return 2 * std::atan2(dot(a, cross(b, c)), 1 + dot(a, b) + dot(b, c) + dot(c, a));
}

struct GridMapOptions {
  std::string spacetime = "schwarzschild";
  double r_obs = 100, bh_ra = 0, bh_dec = 0, fov = 40, step = 4, max_source_deg = 5;
  std::uint32_t width = 256, height = 256;
};

// docs/design.md section 3's base grid without refinement or orientation checks: every triangle
// whose vertices escaped and whose source edges are below max_source is kept.
void write_grid_lensmap(const std::string& output, const GridMapOptions& o) {
  const Vec3 hole = unit_vector_from_angles(o.bh_ra * kDegree, o.bh_dec * kDegree);
  const auto spacetime = make_spacetime(o.spacetime, {o.r_obs, hole});
  const Camera camera(camera_axes(hole, {0, 0, 1}, {1, 0, 0}, 0), Projection::pinhole, o.fov,
                      o.width, o.height);
  LensmapAttributes a;
  a.spacetime = o.spacetime;
  a.r_obs = o.r_obs;
  a.bh_frame = "icrs";
  a.bh_lon_deg = a.bh_ra_deg = a.look_ra_deg = o.bh_ra;
  a.bh_lat_deg = a.bh_dec_deg = a.look_dec_deg = o.bh_dec;
  a.projection = "pinhole";
  a.fov_deg = o.fov;
  a.width = o.width;
  a.height = o.height;
  a.mesh_step = o.step;
  a.mesh_tol = 0;
  a.mesh_max_source_deg = o.max_source_deg;
  for (const char* reason :
       {"failed", "status", "orientation", "tolerance", "source_size", "degenerate"})
    a.dropped[reason] = 0;
  LensmapArrays arrays;
  const auto columns = static_cast<std::uint32_t>(std::ceil(o.width / o.step)) + 1;
  const auto rows = static_cast<std::uint32_t>(std::ceil(o.height / o.step)) + 1;
  std::vector<Vec3> rays;
  for (std::uint32_t j = 0; j < rows; ++j)
    for (std::uint32_t i = 0; i < columns; ++i) {
      const double x = std::min(i * o.step, double(o.width)),
                   y = std::min(j * o.step, double(o.height));
      const Vec3 ray = camera.direction(x, y);
      const TracedRay traced = spacetime->trace(ray);
      rays.push_back(ray);
      arrays.xy.insert(arrays.xy.end(), {x, y});
      arrays.dir.insert(arrays.dir.end(), traced.source_direction.begin(),
                        traced.source_direction.end());
      arrays.g.push_back(traced.g);
      arrays.status.push_back(static_cast<std::uint8_t>(traced.status));
    }
  const auto source = [&](std::uint32_t v) {
    return Vec3{arrays.dir[3 * v], arrays.dir[3 * v + 1], arrays.dir[3 * v + 2]};
  };
  const auto add = [&](std::uint32_t p, std::uint32_t q, std::uint32_t r) {
    for (const std::uint32_t v : {p, q, r})
      if (arrays.status[v] != 0) {
        ++a.dropped["status"];
        return;
      }
    const Vec3 sp = source(p), sq = source(q), sr = source(r);
    const double limit = std::cos(o.max_source_deg * kDegree);
    if (dot(sp, sq) < limit || dot(sq, sr) < limit || dot(sr, sp) < limit) {
      ++a.dropped["source_size"];
      return;
    }
    const double image = signed_solid_angle(rays[p], rays[q], rays[r]);
    const double sky = signed_solid_angle(sp, sq, sr);
    if (sky == 0) {
      ++a.dropped["degenerate"];
      return;
    }
    arrays.triangle_vertices.insert(arrays.triangle_vertices.end(), {p, q, r});
    arrays.mu.push_back(std::abs(image / sky));
    arrays.parity.push_back(image * sky > 0 ? 1 : -1);
    arrays.depth.push_back(0);
  };
  for (std::uint32_t j = 0; j + 1 < rows; ++j)
    for (std::uint32_t i = 0; i + 1 < columns; ++i) {
      const std::uint32_t v = j * columns + i;
      add(v, v + 1, v + columns + 1);  // wound positively in pixels (y down)
      add(v, v + columns + 1, v + columns);
    }
  write_lensmap(output, output, a, arrays);
}

void print_cell_rows(const std::string& path, std::uint64_t first, std::uint64_t end) {
  CatalogStore store(path);
  const std::vector<std::uint64_t> offsets = store.read_offsets(first, end);
  const std::uint64_t row0 = offsets.front(), row1 = offsets.back();
  // Whole chunks of the three star datasets (16 + 4 + 4 bytes a row, uncompressed).
  const std::uint64_t chunk = store::kStarChunkRows;
  const std::uint64_t chunks = row1 > row0 ? (row1 - 1) / chunk - row0 / chunk + 1 : 0;
  std::cout << row0 << ' ' << row1 << ' ' << chunks * chunk * 24 << '\n';
}

void check(herr_t status, const std::string& what) {
  if (status < 0) throw std::runtime_error("HDF5 failed: " + what);
}

void damage(const std::string& input, const std::string& output, const std::string& remove,
            const std::vector<std::string>& set_int, const std::vector<std::string>& set_double,
            const std::vector<std::string>& set_string, const std::vector<std::string>& set_array) {
  std::filesystem::copy_file(input, output, std::filesystem::copy_options::overwrite_existing);
  const hid_t file = H5Fopen(output.c_str(), H5F_ACC_RDWR, H5P_DEFAULT);
  if (file < 0) throw std::runtime_error("cannot open " + output);
  if (!remove.empty()) check(H5Ldelete(file, remove.c_str(), H5P_DEFAULT), "delete " + remove);
  const auto split = [](const std::string& assignment) {
    const auto equals = assignment.find('=');
    if (equals == std::string::npos) throw std::runtime_error("expected NAME=VALUE: " + assignment);
    return std::pair{assignment.substr(0, equals), assignment.substr(equals + 1)};
  };
  for (const std::string& assignment : set_int) {
    const auto [name, value] = split(assignment);
    if (H5Aexists(file, name.c_str()) > 0) check(H5Adelete(file, name.c_str()), "delete " + name);
    const hid_t space = H5Screate(H5S_SCALAR);
    const hid_t attribute =
        H5Acreate2(file, name.c_str(), H5T_STD_I64LE, space, H5P_DEFAULT, H5P_DEFAULT);
    const long long number = std::stoll(value);
    check(H5Awrite(attribute, H5T_NATIVE_LLONG, &number), "write " + name);
    H5Aclose(attribute);
    H5Sclose(space);
  }
  for (const std::string& assignment : set_double) {
    const auto [name, value] = split(assignment);
    if (H5Aexists(file, name.c_str()) > 0) check(H5Adelete(file, name.c_str()), "delete " + name);
    const hid_t space = H5Screate(H5S_SCALAR);
    const hid_t attribute =
        H5Acreate2(file, name.c_str(), H5T_IEEE_F64LE, space, H5P_DEFAULT, H5P_DEFAULT);
    const double number = std::strtod(value.c_str(), nullptr);  // subnormals too
    check(H5Awrite(attribute, H5T_NATIVE_DOUBLE, &number), "write " + name);
    H5Aclose(attribute);
    H5Sclose(space);
  }
  for (const std::string& assignment : set_array) {
    const auto [name, value] = split(assignment);
    const hid_t old = H5Aopen(file, name.c_str(), H5P_DEFAULT);
    check(old, "open " + name);
    const hid_t type = H5Aget_type(old);
    H5Aclose(old);
    check(H5Adelete(file, name.c_str()), "delete " + name);
    const hsize_t count = std::stoull(value);
    const hid_t space = H5Screate_simple(1, &count, nullptr);
    const hid_t attribute = H5Acreate2(file, name.c_str(), type, space, H5P_DEFAULT, H5P_DEFAULT);
    const std::vector<unsigned char> zeros(count * H5Tget_size(type));
    check(H5Awrite(attribute, type, zeros.data()), "write " + name);
    H5Aclose(attribute);
    H5Sclose(space);
    H5Tclose(type);
  }
  for (const std::string& assignment : set_string) {
    const auto [name, value] = split(assignment);
    if (H5Aexists(file, name.c_str()) > 0) check(H5Adelete(file, name.c_str()), "delete " + name);
    const hid_t type = H5Tcopy(H5T_C_S1);
    H5Tset_size(type, value.size());
    const hid_t space = H5Screate(H5S_SCALAR);
    const hid_t attribute = H5Acreate2(file, name.c_str(), type, space, H5P_DEFAULT, H5P_DEFAULT);
    check(H5Awrite(attribute, type, value.data()), "write " + name);
    H5Aclose(attribute);
    H5Sclose(space);
    H5Tclose(type);
  }
  check(H5Fclose(file), "close");
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"Fixtures for starlens-produce's tests"};
  app.require_subcommand(1);
  std::string input, output, band = "V", remove;
  std::vector<std::string> set_int, set_double, set_string, set_array;
  int order = 3;
  std::uint64_t count = 0, seed = 1;
  auto* stars = app.add_subcommand("stars", "A store of listed stars");
  stars->add_option("csv", input)->required();
  auto* uniform = app.add_subcommand("uniform", "Stars uniform over the sky");
  uniform->add_option("--count", count)->required();
  uniform->add_option("--seed", seed);
  std::uint64_t first_cell = 0, end_cell = 0;
  auto* cells = app.add_subcommand("cells", "Star rows of a cell range");
  cells->add_option("store", input)->required();
  cells->add_option("first", first_cell)->required();
  cells->add_option("end", end_cell)->required();
  GridMapOptions grid;
  auto* lensmap =
      app.add_subcommand("lensmap", "A regular-grid lens map keeping every escaped triangle");
  lensmap->add_option("--spacetime", grid.spacetime);
  lensmap->add_option("--r-obs", grid.r_obs);
  lensmap->add_option("--bh-ra", grid.bh_ra);
  lensmap->add_option("--bh-dec", grid.bh_dec);
  lensmap->add_option("--fov", grid.fov);
  lensmap->add_option("--width", grid.width);
  lensmap->add_option("--height", grid.height);
  lensmap->add_option("--step", grid.step);
  lensmap->add_option("--max-source", grid.max_source_deg);
  auto* broken = app.add_subcommand("damage", "A copy of an HDF5 file with one thing broken");
  broken->add_option("input", input)->required();
  broken->add_option("--delete", remove);
  broken->add_option("--set-int", set_int);
  broken->add_option("--set-double", set_double);
  broken->add_option("--set-string", set_string);
  broken->add_option("--set-array", set_array);
  for (auto* command : {stars, uniform, lensmap, broken})
    command->add_option("-o", output)->required();
  for (auto* command : {stars, uniform}) {
    command->add_option("--order", order);
    command->add_option("--band", band);
  }
  CLI11_PARSE(app, argc, argv);
  try {
    H5Eset_auto2(H5E_DEFAULT, nullptr, nullptr);
    if (*stars) write_listed_stars(input, output, order, band);
    if (*uniform) write_uniform_stars(output, count, order, seed, band);
    if (*lensmap) write_grid_lensmap(output, grid);
    if (*cells) print_cell_rows(input, first_cell, end_cell);
    if (*broken) damage(input, output, remove, set_int, set_double, set_string, set_array);
  } catch (const std::exception& error) {
    std::cerr << "produce_fixtures: " << error.what() << '\n';
    return 1;
  }
  return 0;
}
