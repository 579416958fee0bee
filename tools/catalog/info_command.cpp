#include "info_command.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <iomanip>
#include <iostream>
#include <iterator>
#include <map>

#include "catalog/photometry.h"
#include "catalog/sky_cells.h"
#include "catalog/store_reader.h"
#include "core/cli_validators.h"
#include "core/errors.h"
#include "core/progress.h"
#include "core/utf8.h"
#include "frame/frame_io.h"
#include "manifest/manifest.h"
#include "sky_map.h"
#include "store_command.h"

namespace starlens::catalog {
namespace {

constexpr int kMapMaxOrder = 8;  // the map aggregates finer stores to this order
constexpr double kMapStarsPerCell = 30.0;
constexpr std::uint64_t kRowsPerRead = 1 << 20;

// Stars per cell for the map. The map's order aims at kMapStarsPerCell stars a cell (at
// most kMapMaxOrder): from the offsets when that is not finer than the store's cells,
// otherwise by reading the stars' positions (small stores).
std::vector<std::uint64_t> counts_per_cell(CatalogStore& store, int& map_order) {
  const double per_base_cell = static_cast<double>(store.star_count()) / (12.0 * kMapStarsPerCell);
  const int wanted =
      per_base_cell > 1 ? static_cast<int>(std::floor(std::log(per_base_cell) / std::log(4.0))) : 0;
  map_order = std::clamp(wanted, std::min(store.order(), kMapMaxOrder), kMapMaxOrder);
  std::vector<std::uint64_t> counts(12ull << (2 * map_order), 0);
  if (map_order > store.order()) {
    const SkyCells cells(map_order);
    store.for_each_block(0, store.cell_count(), kRowsPerRead, [&](const CellBlock& block) {
      for (const CatalogStar& star : block.stars) ++counts[cells.cell_of(star.ra, star.dec)];
    });
    return counts;
  }
  const int shift = 2 * (store.order() - map_order);
  constexpr std::uint64_t kSlab = 1 << 20;
  for (std::uint64_t first = 0; first < store.cell_count(); first += kSlab) {
    const std::uint64_t end = std::min(store.cell_count(), first + kSlab);
    const auto offsets = store.read_offsets(first, end);
    for (std::uint64_t cell = first; cell < end; ++cell)
      counts[cell >> shift] += offsets[cell - first + 1] - offsets[cell - first];
  }
  return counts;
}

// Temperature bins: [edge[i-1], edge[i]) K, the first from 0 and the last to infinity.
constexpr double kTemperatureEdges[] = {2500, 3000, 3500, 4000, 5000, 6000, 7500, 10000, 20000};
constexpr std::size_t kTemperatureBins = std::size(kTemperatureEdges) + 1;

// Histograms of magnitude (1 mag bins) and temperature, streamed by rows.
struct Histograms {
  std::map<int, std::uint64_t> magnitude;  // floor(m) -> count
  std::array<std::uint64_t, kTemperatureBins> temperature{};
  double brightest = INFINITY, faintest = -INFINITY, coolest = INFINITY, hottest = -INFINITY;
};

std::size_t temperature_bin(double teff) {
  return static_cast<std::size_t>(
      std::upper_bound(std::begin(kTemperatureEdges), std::end(kTemperatureEdges), teff) -
      std::begin(kTemperatureEdges));
}

Histograms histograms(CatalogStore& store, bool quiet) {
  Histograms result;
  Progress progress("info", store.star_count(), quiet);
  std::vector<float> teff, flux;
  for (std::uint64_t first = 0; first < store.star_count(); first += kRowsPerRead) {
    const std::uint64_t count = std::min(kRowsPerRead, store.star_count() - first);
    store.read_photometry(first, count, teff, flux);
    for (std::uint64_t i = 0; i < count; ++i) {
      const double magnitude = magnitude_from_flux(store.band(), flux[i]);
      if (!std::isfinite(magnitude) || !(teff[i] > 0) || !std::isfinite(teff[i]))
        throw_input_error(
            store.path(), "/stars/table teff, flux",
            "row " + std::to_string(first + i) + " is not a positive temperature and flux");
      ++result.magnitude[static_cast<int>(std::floor(magnitude))];
      ++result.temperature[temperature_bin(teff[i])];
      result.brightest = std::min(result.brightest, magnitude);
      result.faintest = std::max(result.faintest, magnitude);
      result.coolest = std::min<double>(result.coolest, teff[i]);
      result.hottest = std::max<double>(result.hottest, teff[i]);
    }
    progress.advance(count);
  }
  return result;
}

nlohmann::json describe(CatalogStore& store, const std::vector<std::uint64_t>& counts,
                        int map_order, const Histograms& histogram) {
  nlohmann::json report;
  report["path"] = store.path();
  report["count"] = store.star_count();
  report["order"] = store.order();
  report["cells"] = store.cell_count();
  report["band"] = store.band().name;
  report["F0_jy"] = store.band().zero_point_jy;
  report["band_wavelength_um"] = store.band().wavelength_um;
  report["teff_relation"] = store.teff_relation();
  report["sources"] = nlohmann::json::parse(store.sources_json(), nullptr, false);
  report["generator"] = nlohmann::json::parse(store.generator_json(), nullptr, false);
  std::vector<std::uint64_t> sorted = counts;
  std::sort(sorted.begin(), sorted.end());
  const double cell_deg2 = SkyCells(map_order).cell_solid_angle_sr() / (kDegree * kDegree);
  report["density_per_deg2"] = {{"order", map_order},
                                {"min", sorted.front() / cell_deg2},
                                {"median", sorted[sorted.size() / 2] / cell_deg2},
                                {"max", sorted.back() / cell_deg2},
                                {"empty_cells", std::count(sorted.begin(), sorted.end(), 0ull)}};
  nlohmann::json magnitudes = nlohmann::json::array();
  for (const auto& [bin, count] : histogram.magnitude)
    magnitudes.push_back({{"from", bin}, {"to", bin + 1}, {"count", count}});
  report["magnitude_histogram"] = magnitudes;
  nlohmann::json temperatures = nlohmann::json::array();
  for (std::size_t bin = 0; bin < kTemperatureBins; ++bin) {
    nlohmann::json row = {{"from_k", bin == 0 ? 0.0 : kTemperatureEdges[bin - 1]},
                          {"count", histogram.temperature[bin]}};
    row["to_k"] = bin + 1 < kTemperatureBins ? nlohmann::json(kTemperatureEdges[bin])
                                             : nlohmann::json(nullptr);
    temperatures.push_back(row);
  }
  report["temperature_histogram"] = temperatures;
  if (store.star_count() > 0) {
    report["magnitude_range"] = {histogram.brightest, histogram.faintest};
    report["temperature_range_k"] = {histogram.coolest, histogram.hottest};
  }
  return report;
}

void print_text(const nlohmann::json& report) {
  const std::string band = report["band"].get<std::string>();
  std::cout << std::setprecision(4) << report["path"].get<std::string>() << ": " << report["count"]
            << " stars, HEALPix order " << report["order"] << " (" << report["cells"]
            << " NESTED cells), band " << band << " (F0 " << report["F0_jy"].get<double>()
            << " Jy at " << report["band_wavelength_um"].get<double>() << " um), teff "
            << report["teff_relation"].get<std::string>() << '\n';
  const auto& density = report["density_per_deg2"];
  std::cout << "stars per deg^2 (order " << density["order"] << " cells): min "
            << density["min"].get<double>() << ", median " << density["median"].get<double>()
            << ", max " << density["max"].get<double>() << ", empty cells "
            << density["empty_cells"] << '\n';
  // A store of band G holds V flux densities (G converted through the G-V relation).
  std::cout << "magnitude (" << (band == "G" ? std::string("V from G") : band) << ")       stars\n";
  for (const auto& bin : report["magnitude_histogram"])
    std::cout << "  " << std::setw(4) << bin["from"].get<int>() << " .. " << std::setw(4)
              << bin["to"].get<int>() << "  " << std::setw(12) << bin["count"].get<std::uint64_t>()
              << '\n';
  std::cout << "temperature (K)      stars\n";
  for (const auto& bin : report["temperature_histogram"]) {
    const std::string to = bin["to_k"].is_null() ? "" : std::to_string(bin["to_k"].get<int>());
    std::cout << "  " << std::setw(6) << bin["from_k"].get<int>() << " .. " << std::setw(6) << to
              << "  " << std::setw(10) << bin["count"].get<std::uint64_t>() << '\n';
  }
}

}  // namespace

CLI::App* add_info_command(CLI::App& app, InfoOptions& options) {
  CLI::App* command =
      app.add_subcommand("info", "Describe a store; --png draws a full-sky density map");
  command->add_option("input", options.input, "The store (catalog.h5)")->required();
  command
      ->add_option("--png", options.png,
                   "Write a full-sky density map (galactic Hammer projection)")
      ->check(output_name("PNG", {".png"}));
  command->add_option("--width", options.width, "Width of the map in pixels (height = width / 2)")
      ->check(CLI::Range(16u, 16384u))
      ->capture_default_str();
  command->add_flag("--json", options.json, "Print the description as JSON");
  add_common_flags(*command, options.common, false);
  return command;
}

int run_info(const InfoOptions& options, int argc, char** argv) {
  if (options.json)
    require_utf8(options.input, options.input, "file name", "--json prints it as a JSON string");
  if (!options.png.empty()) {
    check_output_path(options.png, options.common.force);
    check_output_path(manifest_path_for(options.png), options.common.force);
  }
  // Both locked before the work, committed together after it.
  OutputSet outputs(options.common.force);
  if (!options.png.empty()) {
    outputs.add(options.png);
    outputs.add_record(manifest_path_for(options.png));
  }
  CatalogStore store(options.input);
  int map_order = 0;
  const std::vector<std::uint64_t> counts = counts_per_cell(store, map_order);
  const Histograms histogram = histograms(store, options.common.quiet);
  const nlohmann::json report = describe(store, counts, map_order, histogram);
  if (options.json)
    std::cout << report.dump(2) << '\n';
  else
    print_text(report);
  if (options.png.empty()) return 0;

  Manifest manifest(kToolName, argc, argv);
  manifest.exclude_from_digest("png");
  manifest.parameters()["command"] = "info";
  manifest.parameters()["png"] = options.png;
  manifest.parameters()["width"] = options.width;
  manifest.add_input(options.input, "catalog");
  Frame frame;
  const DensityMapScale scale = render_density_map(counts, map_order, options.width, frame);
  write_frame_png(frame, outputs, options.png, 1.0);
  manifest.add_output(outputs, options.png, "density_map");
  manifest.section("map") = {
      {"projection", "Hammer, galactic, l = 0 at the centre growing to the left"},
      {"order", map_order},
      {"black_per_deg2", scale.low_per_deg2},
      {"white_per_deg2", scale.high_per_deg2},
      {"scale", "log10 density, sRGB-even grey"}};
  manifest.counts()["stars"] = store.star_count();
  manifest.commit(outputs, options.png);
  return 0;
}

}  // namespace starlens::catalog
