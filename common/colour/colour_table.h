#pragma once
// Fast colour and flux of a star image: a table in ln T of the exact results of
// observed_colour.h, for the producer's millions of stars per second.
//
// Nodes are spaced evenly in s = ln T over [kFirstTemperatureK, kLastTemperatureK]; each
// holds, from exact integration, the colour before gamut mapping (linear sRGB at Y = 1,
// which is linear in X/Y and Z/Y) and v = ln(flux in Vega units per unit A), with their
// exact derivatives in s. Between nodes each is a cubic Hermite interpolant; the gamut
// mapping is applied after interpolation. Outside the range (and for invalid arguments) a
// lookup falls back to observed_colour_exact, so results are right everywhere and the
// error bound applies to every lookup.
//
// The table's accuracy is measured, not assumed: measure_accuracy() compares it against
// exact integration at 7 interior points of every interval (t = 1/8 .. 7/8; the Hermite
// error t^2 (1-t)^2 h^4 f''''/24 peaks at t = 1/2) and reports the worst relative error
// (colour: the largest channel error over the largest channel; flux: relative).
#include <cmath>
#include <limits>
#include <vector>

#include "colour/linear_srgb.h"
#include "colour/observed_colour.h"

namespace starlens {

struct ColourTableAccuracy {
  double max_relative_error;   // the larger of the two below
  double max_colour_error;     // max |c_table - c_exact| / max(r, g, b)_exact
  double max_flux_error;       // max |flux_table - flux_exact| / flux_exact
  double worst_temperature_k;  // where max_relative_error was found
  long samples;                // temperatures compared
};

class ColourTable {
 public:
  static constexpr double kFirstTemperatureK = 500.0;
  static constexpr double kLastTemperatureK = 1.0e6;
  static constexpr int kDefaultNodesPerLogUnit = 64;  // nodes per factor e in T

  explicit ColourTable(int nodes_per_log_unit = kDefaultNodesPerLogUnit);

  // The table every producer thread shares (built on first use, a few ms).
  static const ColourTable& shared();

  // Colour and flux of a black body at observed_temperature_k with spectrum scale
  // k_times_mu: as observed_colour_exact, within the worst error measure_accuracy() finds
  // (it samples every interval at 7 points; dense random sampling stays within 1.05 x).
  StarColour lookup(double observed_temperature_k, double k_times_mu) const {
    return lookup(at_temperature(observed_temperature_k), k_times_mu);
  }

  // lookup(...).flux alone, bit for bit (the same arithmetic, without the colour): the
  // producer's bound on a star's brightest image needs only the flux.
  double lookup_flux(double observed_temperature_k, double k_times_mu) const {
    return lookup_flux(at_temperature(observed_temperature_k), k_times_mu);
  }

  // What a lookup finds from the temperature alone (its interval, and the flux per unit
  // spectrum scale), for several lookups at one temperature: the overloads below give the
  // lookups above bit for bit without the log and the exp.
  struct AtTemperature {
    double temperature_k = 0;
    bool in_range = false;  // inside the table (else the lookups integrate)
    int index = 0;          // the interval and the position t in it
    double t = 0;
    double flux_per_scale = 0;  // exp(v)
  };
  AtTemperature at_temperature(double observed_temperature_k) const {
    AtTemperature at;
    at.temperature_k = observed_temperature_k;
    const double position = (std::log(observed_temperature_k) - log_first_) * nodes_per_log_unit_;
    at.in_range = position >= 0.0 && position < intervals_;
    if (!at.in_range) return at;
    at.index = static_cast<int>(position);
    at.t = position - at.index;
    at.flux_per_scale = std::exp(interpolate(weights(at), kFlux));
    return at;
  }
  StarColour lookup(const AtTemperature& at, double k_times_mu) const {
    if (!(at.in_range && valid_scale(k_times_mu)))
      return observed_colour_exact(at.temperature_k, k_times_mu);
    const Interpolation w = weights(at);
    const LinearRgb rgb =
        desaturate_into_gamut({interpolate(w, 0), interpolate(w, 1), interpolate(w, 2)}, 1.0);
    const double flux = k_times_mu * at.flux_per_scale;
    if (!(flux <= std::numeric_limits<double>::max())) {
      return observed_colour_exact(at.temperature_k, k_times_mu);  // throws: overflow
    }
    return {rgb.r, rgb.g, rgb.b, flux};
  }
  double lookup_flux(const AtTemperature& at, double k_times_mu) const {
    if (!(at.in_range && valid_scale(k_times_mu)))
      return observed_colour_exact(at.temperature_k, k_times_mu).flux;
    const double flux = k_times_mu * at.flux_per_scale;
    if (!(flux <= std::numeric_limits<double>::max())) {
      return observed_colour_exact(at.temperature_k, k_times_mu).flux;  // throws: overflow
    }
    return flux;
  }

  ColourTableAccuracy measure_accuracy() const;

  int intervals() const { return intervals_; }
  double nodes_per_log_unit() const { return nodes_per_log_unit_; }
  double first_temperature_k() const { return kFirstTemperatureK; }
  double last_temperature_k() const {
    return std::exp(log_first_ + intervals_ / nodes_per_log_unit_);
  }

 private:
  static constexpr int kQuantities = 4;  // r, g, b at Y = 1 before gamut mapping; v
  static constexpr int kFlux = 3;        // v
  // One cache line: values and derivatives times the node spacing.
  struct alignas(64) Node {
    double value[kQuantities];
    double scaled_slope[kQuantities];
  };
  // Where a lookup falls in the table: its interval's nodes and the cubic Hermite weights.
  struct Interpolation {
    const Node* left;
    const Node* right;
    double left_value, left_slope, right_value, right_slope;
  };

  // The cubic Hermite weights at a temperature inside the table.
  Interpolation weights(const AtTemperature& at) const {
    const double t = at.t;
    const double u = 1.0 - t;
    return {&nodes_[at.index], &nodes_[at.index + 1],   (1.0 + 2.0 * t) * u * u,
            t * u * u,         t * t * (3.0 - 2.0 * t), -t * t * u};
  }
  static bool valid_scale(double k_times_mu) {
    return k_times_mu >= 0.0 && k_times_mu <= std::numeric_limits<double>::max();
  }

  static double interpolate(const Interpolation& at, int q) {
    return at.left_value * at.left->value[q] + at.left_slope * at.left->scaled_slope[q] +
           at.right_value * at.right->value[q] + at.right_slope * at.right->scaled_slope[q];
  }

  double log_first_;
  double nodes_per_log_unit_;
  int intervals_;
  std::vector<Node> nodes_;
};

// ColourTable::shared().lookup(...): the producer's colour of a star image.
inline StarColour observed_colour(double observed_temperature_k, double k_times_mu) {
  return ColourTable::shared().lookup(observed_temperature_k, k_times_mu);
}

// ColourTable::shared().lookup_flux(...): observed_colour(...).flux, bit for bit.
inline double observed_flux(double observed_temperature_k, double k_times_mu) {
  return ColourTable::shared().lookup_flux(observed_temperature_k, k_times_mu);
}

// The shared table's measured accuracy (measured once, ~0.1 s; the producer records it in
// its manifest).
const ColourTableAccuracy& colour_table_accuracy();
inline double colour_table_max_relative_error() {
  return colour_table_accuracy().max_relative_error;
}

}  // namespace starlens
