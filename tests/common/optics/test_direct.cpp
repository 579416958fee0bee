// The direct evaluator on isolated stars: the pixel sum is flux x colour x the enclosed
// Moffat fraction of the support (closed form, or an independent polar quadrature where
// the frame's border cuts the disc), nothing is written outside the frame, and the pixels
// written are exactly those whose square meets the support disc.
#include <doctest/doctest.h>

#include <cmath>

#include "frame_fixture.h"
#include "optics/accumulate.h"
#include "reference_integrals.h"

namespace starlens {
namespace {

using testing::GuardedFrame;

constexpr double kColour[3] = {1.2, 0.9, 0.4};

StarEvent star(double x, double y, double flux, double support) {
  return {x, y, kColour[0], kColour[1], kColour[2], flux, support};
}

// Pixels whose square meets the open disc, counted by brute force.
std::uint64_t pixels_meeting_disc(const StarEvent& e, std::uint32_t width, std::uint32_t height) {
  std::uint64_t count = 0;
  for (std::uint32_t j = 0; j < height; ++j) {
    for (std::uint32_t i = 0; i < width; ++i) {
      const double dx = std::max({0.0, i - e.x, e.x - (i + 1.0)});
      const double dy = std::max({0.0, j - e.y, e.y - (j + 1.0)});
      if (dx * dx + dy * dy < e.support * e.support) ++count;
    }
  }
  return count;
}

void check_channel_sums(const GuardedFrame& frame, double flux, double fraction, double bound) {
  for (int c = 0; c < 3; ++c) {
    const double expected = flux * kColour[c] * fraction;
    INFO("channel " << c << ": " << frame.channel_sum(c) << " vs " << expected);
    CHECK(std::fabs(frame.channel_sum(c) / expected - 1) < bound);
  }
}

// docs/design.md section 10 starts this budget at 1e-9; measured: 2.2e-16 (docs/accuracy/psf.md),
// so the tests hold it to 1e-12 (the double sums of up to 2e5 pixels stay well inside that).
constexpr double kSumBudget = 1e-12;

TEST_CASE("isolated star, direct: pixel sum = flux x E(support) to 1e-12") {
  const PsfModel model;
  const Moffat psf = moffat_from_fwhm(model.fwhm, model.beta);
  const auto ref = reference::from_fwhm(model.fwhm, model.beta);
  struct Case {
    double support;
    std::uint32_t size;
  };
  for (const Case& c : {Case{2.3, 16}, Case{16.0, 48}, Case{41.7, 96}}) {
    for (double fx : {0.0, 0.5, 0.999}) {
      for (double fy : {0.0, 0.5, 0.999}) {
        GuardedFrame frame(c.size, c.size);
        const StarEvent e = star(c.size / 2 + fx, c.size / 2 - 1 + fy, 2.5, c.support);
        INFO("support " << c.support << " phase (" << fx << ", " << fy << ")");
        const std::uint64_t written =
            accumulate_direct(e, psf, frame.rgb(), frame.width(), frame.height(), 0, c.size);
        CHECK(written == pixels_meeting_disc(e, c.size, c.size));
        check_channel_sums(frame, e.flux, double(reference::enclosed(ref, c.support)), kSumBudget);
        CHECK(frame.guards_intact());
      }
    }
  }
}

TEST_CASE("isolated star, direct, at the maximum radius of 256 px") {
  const PsfModel model;
  const Moffat psf = moffat_from_fwhm(model.fwhm, model.beta);
  const auto ref = reference::from_fwhm(model.fwhm, model.beta);
  GuardedFrame frame(520, 520);
  const StarEvent e = star(260.37, 259.81, 4e4, model.max_radius);
  accumulate_direct(e, psf, frame.rgb(), frame.width(), frame.height(), 0, frame.height());
  check_channel_sums(frame, e.flux, double(reference::enclosed(ref, model.max_radius)), kSumBudget);
  CHECK(frame.guards_intact());
}

TEST_CASE("a star on the frame's corner or edge keeps the in-frame share of its flux") {
  const PsfModel model;
  const Moffat psf = moffat_from_fwhm(model.fwhm, model.beta);
  const auto ref = reference::from_fwhm(model.fwhm, model.beta);
  const double support = 30.0;
  const double enclosed = double(reference::enclosed(ref, support));
  SUBCASE("top-left corner (0, 0): a quarter by symmetry") {
    GuardedFrame frame(40, 40);
    accumulate_direct(star(0, 0, 1.0, support), psf, frame.rgb(), 40, 40, 0, 40);
    check_channel_sums(frame, 1.0, enclosed / 4, kSumBudget);
    CHECK(frame.guards_intact());
  }
  SUBCASE("bottom-right corner (W, H): a quarter by symmetry") {
    GuardedFrame frame(37, 45);
    accumulate_direct(star(37, 45, 1.0, support), psf, frame.rgb(), 37, 45, 0, 45);
    check_channel_sums(frame, 1.0, enclosed / 4, kSumBudget);
    CHECK(frame.guards_intact());
  }
  SUBCASE("on the left edge: a half") {
    GuardedFrame frame(40, 80);
    accumulate_direct(star(0, 40.3, 1.0, support), psf, frame.rgb(), 40, 80, 0, 80);
    check_channel_sums(frame, 1.0, enclosed / 2, kSumBudget);
    CHECK(frame.guards_intact());
  }
  SUBCASE("near the corner: polar quadrature of the frame's quadrant") {
    for (auto [x, y] : {std::pair{2.3, 0.7}, std::pair{0.01, 5.5}, std::pair{17.2, 11.9}}) {
      GuardedFrame frame(64, 48);
      accumulate_direct(star(x, y, 1.0, support), psf, frame.rgb(), 64, 48, 0, 48);
      const double inside =
          reference::enclosed_in_rectangle_polar(ref, -x, 64 - x, -y, 48 - y, support);
      check_channel_sums(frame, 1.0, inside, kSumBudget);
      CHECK(frame.guards_intact());
    }
  }
}

TEST_CASE("direct: row bands add up to the whole frame, pixel by pixel") {
  const Moffat psf = moffat_from_fwhm(2.0, 2.5);
  const StarEvent e = star(20.4, 17.6, 1.0, 12.5);
  GuardedFrame whole(40, 36), banded(40, 36);
  const std::uint64_t all = accumulate_direct(e, psf, whole.rgb(), 40, 36, 0, 36);
  std::uint64_t parts = 0;
  for (std::uint32_t begin = 0; begin < 36; begin += 7) {
    parts += accumulate_direct(e, psf, banded.rgb(), 40, 36, begin, std::min(36u, begin + 7));
  }
  CHECK(parts == all);
  CHECK(whole == banded);
}

TEST_CASE("direct: events off the frame or not finite write nothing") {
  const Moffat psf = moffat_from_fwhm(2.0, 2.5);
  GuardedFrame frame(16, 16);
  const double nan = std::nan("");
  for (const StarEvent& e : {star(1e300, 5, 1, 10), star(-1e300, 5, 1, 10), star(5, 1e300, 1, 10),
                             star(5, -5e9, 1, 10), star(-20.5, 5, 1, 10), star(nan, 5, 1, 10),
                             star(5, 5, nan, 10), star(5, 5, 1, nan), star(5, 5, 1, -1)}) {
    CHECK(accumulate_direct(e, psf, frame.rgb(), 16, 16, 0, 16) == 0);
  }
  CHECK(frame.channel_sum(0) == 0.0);
  CHECK(frame.guards_intact());
}

}  // namespace
}  // namespace starlens
