#pragma once
// Draws stars from the synthetic Milky Way (galaxy_model.h): a sky cell (HEALPix order 7,
// ICRS NESTED) by its expected count of detected stars, a point uniformly inside it, a
// distance by the cell's line-of-sight table, a population, an absolute magnitude from the
// population's luminosity function accepted by the detection probability, a temperature
// and colours. Star i depends only on (seed, i / kBlockStars): any thread count gives the
// same stars.
#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>

#include <cstdint>
#include <memory>
#include <vector>

#include "galaxy_model.h"

namespace starlens::catalog {

struct SynthStar {
  std::uint64_t key = 0;  // HEALPix NESTED index at kKeyOrder
  double ra_deg = 0;
  double dec_deg = 0;
  double teff_k = 0;
  double j = 0, h = 0, ks = 0;  // apparent magnitudes
  double glon_deg = 0, glat_deg = 0;
};

class SynthSampler {
 public:
  static constexpr int kModelOrder = 7;
  static constexpr int kDistanceBins = 64;
  static constexpr std::uint64_t kBlockStars = 1 << 16;

  SynthSampler();  // builds the tables (about a second, OpenMP)
  ~SynthSampler();
  SynthSampler(const SynthSampler&) = delete;
  SynthSampler& operator=(const SynthSampler&) = delete;

  // Stars [first, end) of block `block` (0 <= first <= end <= kBlockStars), i.e. stars
  // block * kBlockStars + [first, end) of the catalogue; the ones before `first` are drawn
  // and dropped, so a star never depends on where a file or a thread starts.
  void generate(std::uint64_t seed, std::uint64_t block, std::uint64_t end,
                std::vector<SynthStar>& out, std::uint64_t first = 0) const;

  std::uint64_t cell_count() const { return cell_count_; }
  // The model's expected ratio of star density within 5 deg of the galactic centre to that
  // at |b| > 70 deg (the tests measure it on generated stars).
  double expected_centre_pole_contrast() const { return expected_contrast_; }

 private:
  struct Rng;
  std::uint64_t cell_count_ = 0;
  std::vector<double> bin_edges_kpc_;        // kDistanceBins + 1
  std::vector<float> distance_cdf_;          // per cell: kDistanceBins cumulative fractions
  std::vector<float> extinction_;            // per cell: A_Ks at the kDistanceBins + 1 edges
  std::vector<double> detected_fraction_x_;  // grid of x = mu + A for G tables
  std::vector<double> g_dwarf_, g_giant_;    // G(x) = int LF(M) p(M + x) dM
  std::vector<double> lf_grid_;              // absolute magnitudes of the LF tables
  std::vector<double> lf_cdf_dwarf_, lf_cdf_giant_;
  gsl_ran_discrete_t* cell_table_ = nullptr;
  double expected_contrast_ = 0;

  std::vector<double> colour_table_;  // intrinsic J-Ks on a log-temperature grid

  double detected_per_volume(galaxy::Kind kind, double x) const;
  double intrinsic_j_ks(double teff_k) const;
  void build_magnitude_tables();
  void build_sky_tables();
  double sample_absolute(gsl_rng* rng, galaxy::Kind kind, double x) const;
};

}  // namespace starlens::catalog
