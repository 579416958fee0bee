#pragma once
// Random star sets and stores written from them, for the store tests.
#include <cmath>
#include <cstdint>
#include <filesystem>
#include <numbers>
#include <random>
#include <vector>

#include "catalog/external_sorter.h"
#include "catalog/sky_cells.h"
#include "catalog/store_writer.h"

namespace starlens::catalog::testing {

// `count` stars, isotropic on the sky (plus a dense clump when `clumped`), with random
// temperatures and magnitudes (flux in V from the magnitude), distinct ids; in random order.
inline std::vector<StarRecord> random_stars(std::size_t count, std::uint32_t seed,
                                            bool clumped = false) {
  std::mt19937_64 random(seed);
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  std::vector<StarRecord> stars(count);
  for (std::size_t i = 0; i < count; ++i) {
    double ra = 360.0 * unit(random);
    double dec = std::asin(2.0 * unit(random) - 1.0) * 180.0 / std::numbers::pi;
    if (clumped && i % 3 == 0) {
      ra = 266.4 + 2.0 * unit(random);
      dec = -29.0 + 2.0 * unit(random);
    }
    if (ra >= 360.0) ra -= 360.0;
    const double mag = 4.0 + 10.0 * unit(random);
    stars[i].key = sky_key(ra, dec);
    stars[i].ra_deg = ra;
    stars[i].dec_deg = dec;
    stars[i].id = static_cast<std::int64_t>(i) * 7 - 1000;  // distinct, some negative
    stars[i].teff_k = static_cast<float>(3000.0 + 20000.0 * unit(random));
    stars[i].flux_jy = static_cast<float>(3640.0 * std::pow(10.0, -0.4 * mag));
    stars[i].mag = static_cast<float>(mag);
  }
  return stars;
}

inline StoreDescription test_description() {
  StoreDescription description;
  description.band = {"V", 0.551, 3640.0, "test"};
  description.teff_relation = "given";
  description.id_scheme = "test";
  description.generator = {{"command", "test"}};
  return description;
}

// Sorts `stars` through an ExternalSorter limited to `memory_limit` and writes a store.
inline SortStatistics write_store(const std::filesystem::path& path,
                                  const std::vector<StarRecord>& stars, int order,
                                  std::uint64_t memory_limit = 256ull << 20, int deflate = 0) {
  ExternalSorter sorter(path, memory_limit);
  for (std::size_t first = 0; first < stars.size(); first += 10000)
    sorter.add(std::span<const StarRecord>(stars).subspan(
        first, std::min<std::size_t>(10000, stars.size() - first)));
  StoreDescription description = test_description();
  description.deflate = deflate;
  StoreWriter writer(path, path.string(), order, description);
  sorter.finish([&](std::span<const StarRecord> batch) { writer.append(batch); });
  writer.finish();
  return sorter.statistics();
}

}  // namespace starlens::catalog::testing
