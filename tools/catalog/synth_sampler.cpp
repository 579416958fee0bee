#include "synth_sampler.h"

#include <healpix_base.h>
#include <omp.h>
#include <pointing.h>

#include <algorithm>
#include <array>
#include <cmath>

#include "catalog/sky_cells.h"
#include "core/errors.h"

namespace starlens::catalog {
namespace {

using galaxy::Kind;

constexpr double kNearestKpc = 0.01;
constexpr double kFarthestKpc = 50.0;
constexpr double kStepX = 0.01;  // grid step of x = mu + A and of absolute magnitudes
constexpr double kMinX = -10.0;
constexpr double kMaxX = 40.0;
// Intrinsic colours are tabulated in log10 T.
constexpr double kColourMinLogT = 3.3;  // 2000 K
constexpr double kColourMaxLogT = 4.7;  // 50,000 K
constexpr int kColourSteps = 4096;

std::uint64_t splitmix64(std::uint64_t x) {
  x += 0x9e3779b97f4a7c15ull;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
  return x ^ (x >> 31);
}

double distance_modulus(double distance_kpc) {
  return 5.0 * std::log10(distance_kpc * 100.0);
}

// Linear interpolation on a uniform grid starting at `first` with step `step`.
double on_grid(const std::vector<double>& values, double first, double step, double x) {
  const double position = (x - first) / step;
  if (position <= 0) return values.front();
  const auto last = static_cast<double>(values.size() - 1);
  if (position >= last) return values.back();
  const auto i = static_cast<std::size_t>(position);
  const double t = position - static_cast<double>(i);
  return values[i] * (1 - t) + values[i + 1] * t;
}

}  // namespace

SynthSampler::SynthSampler() {
  for (int i = 0; i <= kColourSteps; ++i)
    colour_table_.push_back(galaxy::intrinsic_j_ks(
        std::pow(10.0, kColourMinLogT + (kColourMaxLogT - kColourMinLogT) * i / kColourSteps)));
  build_magnitude_tables();
  build_sky_tables();
}

SynthSampler::~SynthSampler() {
  if (cell_table_) gsl_ran_discrete_free(cell_table_);
}

void SynthSampler::build_magnitude_tables() {
  for (double m = galaxy::kAbsoluteMin; m <= galaxy::kAbsoluteMax + 1e-9; m += kStepX)
    lf_grid_.push_back(m);
  lf_cdf_dwarf_.assign(lf_grid_.size(), 0);
  lf_cdf_giant_.assign(lf_grid_.size(), 0);
  for (std::size_t i = 1; i < lf_grid_.size(); ++i) {
    const double middle = 0.5 * (lf_grid_[i - 1] + lf_grid_[i]);
    lf_cdf_dwarf_[i] =
        lf_cdf_dwarf_[i - 1] + galaxy::luminosity_function(Kind::dwarf, middle) * kStepX;
    lf_cdf_giant_[i] =
        lf_cdf_giant_[i - 1] + galaxy::luminosity_function(Kind::giant, middle) * kStepX;
  }
  for (double x = kMinX; x <= kMaxX + 1e-9; x += kStepX) detected_fraction_x_.push_back(x);
  g_dwarf_.assign(detected_fraction_x_.size(), 0);
  g_giant_.assign(detected_fraction_x_.size(), 0);
  const long count = static_cast<long>(detected_fraction_x_.size());
#pragma omp parallel for schedule(static)
  for (long j = 0; j < count; ++j) {
    const double x = detected_fraction_x_[static_cast<std::size_t>(j)];
    double dwarf = 0, giant = 0;
    for (std::size_t i = 1; i < lf_grid_.size(); ++i) {
      const double middle = 0.5 * (lf_grid_[i - 1] + lf_grid_[i]);
      if (middle + x > galaxy::kHardLimitKs) break;
      const double p = galaxy::detection_probability(middle + x);
      dwarf += (lf_cdf_dwarf_[i] - lf_cdf_dwarf_[i - 1]) * p;
      giant += (lf_cdf_giant_[i] - lf_cdf_giant_[i - 1]) * p;
    }
    g_dwarf_[static_cast<std::size_t>(j)] = dwarf;
    g_giant_[static_cast<std::size_t>(j)] = giant;
  }
}

double SynthSampler::intrinsic_j_ks(double teff_k) const {
  return on_grid(colour_table_, kColourMinLogT, (kColourMaxLogT - kColourMinLogT) / kColourSteps,
                 std::log10(teff_k));
}

double SynthSampler::detected_per_volume(Kind kind, double x) const {
  return on_grid(kind == Kind::dwarf ? g_dwarf_ : g_giant_, kMinX, kStepX, x);
}

void SynthSampler::build_sky_tables() {
  const T_Healpix_Base<int64> cells(kModelOrder, NEST);
  cell_count_ = static_cast<std::uint64_t>(cells.Npix());
  for (int k = 0; k <= kDistanceBins; ++k)
    bin_edges_kpc_.push_back(
        kNearestKpc * std::pow(kFarthestKpc / kNearestKpc, static_cast<double>(k) / kDistanceBins));
  distance_cdf_.assign(cell_count_ * kDistanceBins, 0.0f);
  extinction_.assign(cell_count_ * (kDistanceBins + 1), 0.0f);
  std::vector<double> cell_weight(cell_count_, 0.0);
  const auto& populations = galaxy::populations();
  const long cell_total = static_cast<long>(cell_count_);
#pragma omp parallel for schedule(dynamic, 256)
  for (long c = 0; c < cell_total; ++c) {
    const auto cell = static_cast<std::size_t>(c);
    const vec3 centre = cells.pix2vec(c);
    const Vec3 direction = icrs_to_galactic({centre.x, centre.y, centre.z});
    // Extinction at the bin edges: the dust integrated along the line of sight (midpoint rule,
    // 2 steps a bin: bins are 14% of their distance wide).
    float* extinction = &extinction_[cell * (kDistanceBins + 1)];
    double integral =
        kNearestKpc * galaxy::dust_density(galaxy::galactocentric(direction, 0.5 * kNearestKpc));
    extinction[0] = static_cast<float>(galaxy::kExtinctionKsPerKpc * integral);
    for (int k = 0; k < kDistanceBins; ++k) {
      constexpr int kSteps = 2;
      const double width = (bin_edges_kpc_[k + 1] - bin_edges_kpc_[k]) / kSteps;
      for (int s = 0; s < kSteps; ++s)
        integral += width * galaxy::dust_density(galaxy::galactocentric(
                                direction, bin_edges_kpc_[k] + (s + 0.5) * width));
      extinction[k + 1] = static_cast<float>(galaxy::kExtinctionKsPerKpc * integral);
    }
    // Expected detected stars per bin: volume x sum over populations of density x G(mu + A).
    float* cdf = &distance_cdf_[cell * kDistanceBins];
    double total = 0;
    for (int k = 0; k < kDistanceBins; ++k) {
      const double middle = std::sqrt(bin_edges_kpc_[k] * bin_edges_kpc_[k + 1]);
      const double volume_pc3 =
          1e9 * (std::pow(bin_edges_kpc_[k + 1], 3) - std::pow(bin_edges_kpc_[k], 3)) / 3.0;
      const Vec3 position = galaxy::galactocentric(direction, middle);
      const double x = distance_modulus(middle) + 0.5 * (extinction[k] + extinction[k + 1]);
      const auto shapes = galaxy::shape_densities(position);
      const double per_kind[2] = {detected_per_volume(Kind::dwarf, x),
                                  detected_per_volume(Kind::giant, x)};
      double density = 0;
      for (const auto& population : populations)
        density += population.density_scale * shapes[static_cast<int>(population.shape)] *
                   per_kind[static_cast<int>(population.kind)];
      total += volume_pc3 * density;
      cdf[k] = static_cast<float>(total);
    }
    for (int k = 0; k < kDistanceBins; ++k)
      cdf[k] = total > 0 ? static_cast<float>(cdf[k] / total) : 1.0f;
    cell_weight[cell] = total;
  }
  cell_table_ = gsl_ran_discrete_preproc(cell_count_, cell_weight.data());
  if (!cell_table_) throw_run_failure("synth", "GSL could not build the sky-cell table");

  // The model's own centre/pole contrast, for the manifest.
  const Vec3 centre_direction = galactic_to_icrs({1, 0, 0});
  double centre_sum = 0, pole_sum = 0;
  std::uint64_t centre_cells = 0, pole_cells = 0;
  for (std::uint64_t c = 0; c < cell_count_; ++c) {
    const vec3 v = cells.pix2vec(static_cast<int64>(c));
    const Vec3 icrs = {v.x, v.y, v.z};
    const double latitude = std::asin(std::clamp(icrs_to_galactic(icrs)[2], -1.0, 1.0));
    if (dot(icrs, centre_direction) > std::cos(5 * kDegree)) {
      centre_sum += cell_weight[c];
      ++centre_cells;
    }
    if (std::fabs(latitude) > 70 * kDegree) {
      pole_sum += cell_weight[c];
      ++pole_cells;
    }
  }
  expected_contrast_ = (centre_sum / static_cast<double>(centre_cells)) /
                       (pole_sum / static_cast<double>(pole_cells));
}

double SynthSampler::sample_absolute(gsl_rng* rng, Kind kind, double x) const {
  const std::vector<double>& cdf = kind == Kind::dwarf ? lf_cdf_dwarf_ : lf_cdf_giant_;
  // Only magnitudes that can be detected at this distance and extinction.
  const double brightest_undetectable = galaxy::kHardLimitKs - x;
  const double limit = on_grid(cdf, galaxy::kAbsoluteMin, kStepX, brightest_undetectable);
  for (int attempt = 0; attempt < 1000; ++attempt) {
    const double target = gsl_rng_uniform(rng) * limit;
    const auto upper = std::upper_bound(cdf.begin(), cdf.end(), target);
    const std::size_t i =
        std::clamp<std::size_t>(static_cast<std::size_t>(upper - cdf.begin()), 1, cdf.size() - 1);
    const double span = cdf[i] - cdf[i - 1];
    const double t = span > 0 ? (target - cdf[i - 1]) / span : 0.5;
    const double absolute = lf_grid_[i - 1] + t * kStepX;
    if (gsl_rng_uniform(rng) < galaxy::detection_probability(absolute + x)) return absolute;
  }
  return brightest_undetectable - 1.0;  // practically unreachable
}

void SynthSampler::generate(std::uint64_t seed, std::uint64_t block, std::uint64_t end,
                            std::vector<SynthStar>& out, std::uint64_t first) const {
  static const T_Healpix_Base<int64> keys(kKeyOrder, NEST);
  constexpr int kSubBits = 2 * (kKeyOrder - kModelOrder);
  const auto& populations = galaxy::populations();
  std::unique_ptr<gsl_rng, void (*)(gsl_rng*)> rng(gsl_rng_alloc(gsl_rng_mt19937), gsl_rng_free);
  gsl_rng_set(rng.get(), static_cast<unsigned long>(splitmix64(seed ^ splitmix64(block))));
  std::vector<double> weights(populations.size());
  out.clear();
  // Stars are drawn in batches: first every star's cell and point in it, then the rest star
  // by star. The cells' tables are fetched ahead meanwhile (they are 100 MB, read at random).
  constexpr std::uint64_t kBatch = 32;
  std::array<std::size_t, kBatch> batch_cells{};
  std::array<std::uint64_t, kBatch> batch_keys{};
  for (std::uint64_t i = 0; i < end; ++i) {
    const std::uint64_t slot = i % kBatch;
    if (slot == 0) {
      // Always a whole batch, so that a star does not depend on where the request ends.
      for (std::uint64_t k = 0; k < kBatch; ++k) {
        batch_cells[k] = gsl_ran_discrete(rng.get(), cell_table_);
        const std::uint64_t low =
            (static_cast<std::uint64_t>(gsl_rng_get(rng.get())) << 32 | gsl_rng_get(rng.get()));
        batch_keys[k] = static_cast<std::uint64_t>(batch_cells[k]) << kSubBits |
                        (low & ((1ull << kSubBits) - 1));
        for (int line = 0; line < kDistanceBins; line += 16) {
          __builtin_prefetch(&distance_cdf_[batch_cells[k] * kDistanceBins + line]);
          __builtin_prefetch(&extinction_[batch_cells[k] * (kDistanceBins + 1) + line]);
        }
        __builtin_prefetch(&extinction_[batch_cells[k] * (kDistanceBins + 1) + kDistanceBins]);
      }
    }
    SynthStar star;
    const std::size_t cell = batch_cells[slot];
    star.key = batch_keys[slot];
    const vec3 v = keys.pix2vec(static_cast<int64>(star.key));
    const Vec3 icrs = {v.x, v.y, v.z};
    const Vec3 galactic = icrs_to_galactic(icrs);
    // Distance: a bin by the cell's table, then uniform in volume inside it.
    const float* cdf = &distance_cdf_[cell * kDistanceBins];
    const float u = static_cast<float>(gsl_rng_uniform(rng.get()));
    const int bin = std::min<int>(
        kDistanceBins - 1, static_cast<int>(std::upper_bound(cdf, cdf + kDistanceBins, u) - cdf));
    const double near = bin_edges_kpc_[bin], far = bin_edges_kpc_[bin + 1];
    const double near3 = near * near * near, far3 = far * far * far;
    const double distance = std::cbrt(near3 + gsl_rng_uniform(rng.get()) * (far3 - near3));
    const float* extinction = &extinction_[cell * (kDistanceBins + 1)];
    const double t =
        (distance - bin_edges_kpc_[bin]) / (bin_edges_kpc_[bin + 1] - bin_edges_kpc_[bin]);
    const double a_ks = extinction[bin] * (1 - t) + extinction[bin + 1] * t;
    const double x = distance_modulus(distance) + a_ks;
    // A population by its share of the detectable stars at this point.
    const Vec3 position = galaxy::galactocentric(galactic, distance);
    const auto shapes = galaxy::shape_densities(position);
    const double per_kind[2] = {detected_per_volume(Kind::dwarf, x),
                                detected_per_volume(Kind::giant, x)};
    double total = 0;
    for (std::size_t p = 0; p < populations.size(); ++p) {
      total += populations[p].density_scale * shapes[static_cast<int>(populations[p].shape)] *
               per_kind[static_cast<int>(populations[p].kind)];
      weights[p] = total;
    }
    const double pick = gsl_rng_uniform(rng.get()) * total;
    const std::size_t chosen = std::min<std::size_t>(
        populations.size() - 1,
        static_cast<std::size_t>(std::upper_bound(weights.begin(), weights.end(), pick) -
                                 weights.begin()));
    const Kind kind = populations[chosen].kind;
    const double absolute = sample_absolute(rng.get(), kind, x);
    star.teff_k = std::clamp(galaxy::temperature(kind, absolute) *
                                 (1 + 0.03 * gsl_ran_gaussian_ziggurat(rng.get(), 1.0)),
                             2000.0, 50000.0);
    const double j_ks = intrinsic_j_ks(star.teff_k);
    star.ks = absolute + x;
    star.j = star.ks + j_ks + galaxy::kReddeningJKs * a_ks;
    star.h = star.ks + galaxy::intrinsic_h_ks(j_ks) + galaxy::kReddeningHKs * a_ks;
    if (i < first) continue;
    const auto icrs_angles = angles_from_vector(icrs);
    star.ra_deg = icrs_angles[0] / kDegree;
    if (star.ra_deg >= 360.0) star.ra_deg -= 360.0;
    star.dec_deg = icrs_angles[1] / kDegree;
    const auto galactic_angles = angles_from_vector(galactic);
    star.glon_deg = galactic_angles[0] / kDegree;
    star.glat_deg = galactic_angles[1] / kDegree;
    out.push_back(star);
  }
}

}  // namespace starlens::catalog
