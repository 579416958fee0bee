#pragma once
// Synthetic star-image fields for tests and benchmarks of splat (docs/design.md section 5 records):
// positions from a distribution over the frame, fluxes from a power law, a black-body colour,
// and the class and support that the producer's classify_event gives them. Events are drawn
// one at a time, so memory does not depend on how many are made.
#include <cstdint>
#include <string>

#include "events/star_event.h"
#include "synth_random.h"

namespace starlens::synth {

enum class Distribution { uniform, hotspot, mixed };
const char* distribution_name(Distribution distribution);

struct FieldOptions {
  Distribution distribution = Distribution::uniform;
  std::uint32_t width = 1920;
  std::uint32_t height = 1080;
  std::uint64_t seed = 1;
  PsfModel psf;
  double flux_slope = 1.8;        // dN/dF ~ F^-slope
  double flux_min = 0;            // Vega units; 0: 0.8 x the visibility floor
  double flux_max = 100;          // Vega units: a bright star, or a fainter one magnified
  double hotspot_fraction = 0.7;  // share of hotspot events in the Gaussian
  double hotspot_sigma = 0.05;    // Gaussian sigma as a fraction of the frame height
  double temperature_min = 2500;  // K, log-uniform
  double temperature_max = 40000;
};

// Flux thresholds of the PSF model's classes, from the closed-form Moffat density (docs/design.md
// section 5); classify_event decides each event, these only aim the draws.
struct FluxThresholds {
  double visibility_floor;  // below it an event is discarded: min_y / p_pix,max
  double wing_clip_min;     // support reaches Rc: relative_tail * min_y / p(Rc)
  double direct_min;        // the wing at Rc is still visible: min_y / p(Rc)
};
FluxThresholds flux_thresholds(const PsfModel& psf);

struct ClassCounts {
  std::uint64_t drawn = 0;      // candidates drawn, discarded ones included
  std::uint64_t discarded = 0;  // below the visibility floor: never written
  std::uint64_t cache = 0;
  std::uint64_t wing_clip = 0;
  std::uint64_t direct = 0;
  std::uint64_t bounded_by_max = 0;  // direct events whose support is cut at max_radius
  std::uint64_t written() const { return cache + wing_clip + direct; }
};

// In `mixed`, of every kMixedPeriod written events one is a guaranteed direct event and one
// a guaranteed wing clip (2% each); uniform and mixed put their first four events on the
// frame's corners so that border clipping is always exercised.
constexpr std::uint64_t kMixedPeriod = 50;

class SyntheticField {
 public:
  // Validates the options (InputError naming the flag) and resolves flux_min.
  explicit SyntheticField(const FieldOptions& options);

  // The next event to write; discarded candidates are counted and skipped.
  StarEvent next();

  const FieldOptions& options() const { return options_; }
  const FluxThresholds& thresholds() const { return thresholds_; }
  const ClassCounts& counts() const { return counts_; }

 private:
  enum class Slot { regular, direct, wing_clip };
  Slot slot_of(std::uint64_t index) const;
  void place(StarEvent& event, std::uint64_t index);
  // Draws fluxes for this slot until classify_event keeps one; fills flux and support.
  void assign_flux(StarEvent& event, Slot slot);

  FieldOptions options_;
  FluxThresholds thresholds_;
  SynthRandom random_;
  ClassCounts counts_;
  std::uint64_t index_ = 0;  // events written so far
};

}  // namespace starlens::synth
