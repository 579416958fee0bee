#pragma once
// The immutable phase cache of the cached evaluator (docs/design.md section 5).
#include <cstddef>
#include <vector>

#include "events/star_event.h"

namespace starlens {

// Pixel-integrated weights of a unit-flux event for the (P+1) x (P+1) sub-pixel phases over
// the (2Rc+1)^2 window. Phase (a, b) places the centre at (ix + a/P, iy + b/P) for the pixel
// (ix, iy) = floor(x, y); window entry (dj + Rc) * (2Rc+1) + (di + Rc) is the weight of pixel
// (ix + di, iy + dj). Built once, then immutable (uploaded once to the GPU).
class PhaseCache {
 public:
  explicit PhaseCache(const PsfModel& model);
  int radius() const { return radius_; }
  int phases() const { return phases_; }
  int window() const { return 2 * radius_ + 1; }
  std::size_t phase_stride() const { return std::size_t(window()) * window(); }
  // Weights of phase (a, b), a, b in [0, P].
  const double* weights(int a, int b) const {
    return weights_.data() + (std::size_t(b) * (phases_ + 1) + a) * phase_stride();
  }
  const std::vector<double>& all_weights() const { return weights_; }

 private:
  int radius_;
  int phases_;
  std::vector<double> weights_;
};

}  // namespace starlens
