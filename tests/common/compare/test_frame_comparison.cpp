// compare's statistics against closed forms and against a brute-force second computation in
// long double over the frames held in memory; its compensated sums against exact integers.
#include <ImfChannelList.h>
#include <ImfFrameBuffer.h>
#include <ImfHeader.h>
#include <ImfOutputFile.h>
#include <doctest/doctest.h>

#include <cmath>
#include <limits>
#include <random>

#include "compare/compensated_sum.h"
#include "compare/frame_comparison.h"
#include "compare/heat_map.h"
#include "compare/verdict.h"
#include "core/progress.h"
#include "frame/frame_io.h"
#include "frame_fixtures.h"

namespace fs = std::filesystem;
using namespace starlens;
using namespace starlens::compare;

namespace {

struct Compared {
  FrameComparison result;
  std::vector<std::uint8_t> heat_map;
};

Compared compare_in_files(const Frame& a, const Frame& b, double rel_floor = 1e-9) {
  const auto folder = testing::fresh_folder("comparison");
  write_frame_exr(a, folder / "a.exr", false, "a");
  write_frame_exr(b, folder / "b.exr", false, "b");
  ExrFrameReader reader_a(folder / "a.exr"), reader_b(folder / "b.exr");
  Progress quiet("test", 0, true);
  Compared compared;
  compared.result = compare_frames(reader_a, reader_b, {rel_floor, rel_floor, rel_floor, rel_floor},
                                   HeatMapTarget{&compared.heat_map}, quiet);
  fs::remove_all(folder);
  return compared;
}

// The same statistics, computed naively in long double from the in-memory frames.
struct Reference {
  long double max_abs = 0, max_rel = 0, sum_squares = 0, total_a = 0, total_b = 0;
  std::uint32_t max_abs_x = 0, max_abs_y = 0, max_rel_x = 0, max_rel_y = 0;
};

Reference brute_force(const Frame& a, const Frame& b, int channel, double rel_floor) {
  auto value = [channel](const Frame& frame, std::uint32_t x, std::uint32_t y) -> long double {
    const double* p = frame.pixel(x, y);
    if (channel < 3) return p[channel];
    return 0.2126L * p[0] + 0.7152L * p[1] + 0.0722L * p[2];
  };
  long double max_reference = 0;
  for (std::uint32_t y = 0; y < b.height; ++y)
    for (std::uint32_t x = 0; x < b.width; ++x)
      max_reference = std::max(max_reference, std::fabs(value(b, x, y)));
  Reference r;
  for (std::uint32_t y = 0; y < b.height; ++y) {
    for (std::uint32_t x = 0; x < b.width; ++x) {
      const long double va = value(a, x, y), vb = value(b, x, y), error = std::fabs(va - vb);
      r.sum_squares += error * error;
      r.total_a += va;
      r.total_b += vb;
      if (error > r.max_abs) r.max_abs = error, r.max_abs_x = x, r.max_abs_y = y;
      if (std::fabs(vb) > rel_floor * max_reference && error / std::fabs(vb) > r.max_rel)
        r.max_rel = error / std::fabs(vb), r.max_rel_x = x, r.max_rel_y = y;
    }
  }
  return r;
}

double relative_difference(long double computed, long double reference) {
  return double(std::fabs(computed - reference) / std::fabs(reference));
}

void write_viewer_exr(const fs::path& path, const std::vector<float>& rgb, int width, int height) {
  Imf::Header header(width, height);
  Imf::FrameBuffer buffer;
  const char* names[] = {"R", "G", "B"};
  for (int c = 0; c < 3; ++c) {
    header.channels().insert(names[c], Imf::Channel(Imf::FLOAT));
    buffer.insert(names[c], Imf::Slice::Make(Imf::FLOAT, rgb.data() + c, header.dataWindow(),
                                             3 * sizeof(float), 3 * sizeof(float) * width));
  }
  Imf::OutputFile file(path.c_str(), header);
  file.setFrameBuffer(buffer);
  file.writePixels(height);
}

}  // namespace

TEST_CASE("A = B (1 + eps) everywhere: max_rel and total_rel are eps") {
  const Frame b = testing::field_frame(300, 200, 5);
  Frame a = b;
  const double eps = 1e-6;
  for (double& value : a.rgb) value *= 1 + eps;
  const auto compared = compare_in_files(a, b).result;
  for (std::size_t c = 0; c < kChannelCount; ++c) {
    CAPTURE(c);
    CHECK(std::fabs(compared.channels[c].max_rel_error - eps) < 1e-15);
    CHECK(std::fabs(compared.channels[c].total_rel() - eps) < 1e-15);
    CHECK(compared.channels[c].rel_pixels == 300u * 200u);
    CHECK(compared.channels[c].compared == 300u * 200u);
  }
}

TEST_CASE("A = B + delta everywhere: max_abs and rms are delta, total_abs is N delta") {
  Frame b(64, 50);
  for (double& value : b.rgb) value = 3.0;
  Frame a = b;
  for (double& value : a.rgb) value = 3.0 + 0.25;  // exact in binary
  const auto compared = compare_in_files(a, b).result;
  for (std::size_t c = 0; c < 3; ++c) {
    CHECK(compared.channels[c].max_abs_error == 0.25);
    CHECK(compared.channels[c].rms() == 0.25);
    CHECK(compared.channels[c].total_difference.value() == 0.25 * 64 * 50);
    CHECK(compared.channels[c].total_b.value() == 3.0 * 64 * 50);
  }
}

TEST_CASE("statistics agree with a brute-force long double computation") {
  const Frame b = testing::field_frame(517, 301, 9);  // several bands, odd sizes
  Frame a = b;
  std::mt19937_64 random(4);
  std::normal_distribution<double> noise(0.0, 1e-7);
  for (double& value : a.rgb) value = std::fabs(value * (1 + noise(random)));
  a.pixel(400, 250)[1] *= 1 + 3e-5;  // a clear maximum
  const auto compared = compare_in_files(a, b).result;
  for (int c = 0; c < 4; ++c) {
    CAPTURE(c);
    const Reference r = brute_force(a, b, c, 1e-9);
    const ChannelStatistics& s = compared.channels[std::size_t(c)];
    CHECK(relative_difference(s.max_abs_error, r.max_abs) < 1e-9);
    CHECK(relative_difference(s.max_rel_error, r.max_rel) < 1e-9);
    CHECK(s.max_rel_at.x == r.max_rel_x);
    CHECK(s.max_rel_at.y == r.max_rel_y);
    CHECK(s.max_abs_at.x == r.max_abs_x);
    CHECK(s.max_abs_at.y == r.max_abs_y);
    CHECK(relative_difference(s.rms(), std::sqrt(r.sum_squares / (517.0L * 301))) < 1e-12);
    CHECK(relative_difference(s.total_a.value(), r.total_a) < 1e-15);
    CHECK(relative_difference(s.total_b.value(), r.total_b) < 1e-15);
    CHECK(relative_difference(s.total_difference.value(), r.total_a - r.total_b) < 1e-6);
  }
  CHECK(compared.channels[1].max_rel_at.x == 400);
  CHECK(compared.channels[1].max_rel_at.y == 250);
}

TEST_CASE("pixels at or below rel_floor x max|B| do not count for max_rel") {
  Frame b(8, 8), a(8, 8);
  for (double& value : b.rgb) value = 1.0;
  a = b;
  b.pixel(2, 3)[0] = 1e-12;
  a.pixel(2, 3)[0] = 2e-12;  // 100 % off, but far below the floor
  const auto with_floor = compare_in_files(a, b, 1e-9).result;
  CHECK(with_floor.channels[0].max_rel_error == 0.0);
  CHECK(with_floor.channels[0].rel_pixels == 63);
  CHECK(with_floor.channels[0].max_abs_error == doctest::Approx(1e-12).epsilon(1e-12));
  const auto without_floor = compare_in_files(a, b, 0.0).result;
  CHECK(without_floor.channels[0].max_rel_error == 1.0);
  CHECK(without_floor.channels[0].rel_pixels == 64);
}

TEST_CASE("non-finite and negative values are counted per frame and left out of the errors") {
  const auto folder = testing::fresh_folder("comparison_nonfinite");
  std::vector<float> values(4 * 3 * 3, 1.0f);
  write_viewer_exr(folder / "b.exr", values, 4, 3);
  values[3 * (1 * 4 + 2) + 0] = std::numeric_limits<float>::quiet_NaN();
  values[3 * (2 * 4 + 3) + 2] = -std::numeric_limits<float>::infinity();
  values[3 * (0 * 4 + 1) + 1] = -0.5f;
  write_viewer_exr(folder / "a.exr", values, 4, 3);
  ExrFrameReader a(folder / "a.exr"), b(folder / "b.exr");
  CHECK_FALSE(a.exact());
  Progress quiet("test", 0, true);
  std::vector<std::uint8_t> heat;
  const auto result = compare_frames(a, b, {1e-9, 1e-9, 1e-9, 1e-9}, HeatMapTarget{&heat}, quiet);
  CHECK(result.channels[0].non_finite_a == 1);
  CHECK(result.channels[2].non_finite_a == 1);
  CHECK(result.channels[2].negative_a == 1);  // -inf is negative too
  CHECK(result.channels[1].negative_a == 1);
  CHECK(result.channels[kLuminance].non_finite_a == 2);
  CHECK(result.channels[0].non_finite_b == 0);
  CHECK(result.channels[0].compared == 11);
  CHECK(result.channels[1].max_abs_error == 1.5);
  // The NaN pixel is marked in the heat map.
  const auto green = heat_map_non_finite_colour();
  CHECK(std::equal(green.begin(), green.end(), heat.begin() + 3 * (1 * 4 + 2)));
  // And the default budget (no non-finite, no negative values allowed) rejects A.
  const auto exceeded = check_budget(result, Budget{});
  // non_finite: R, B, Y; negative: G, B (-inf), Y (twice, but one limit).
  CHECK(exceeded.size() == 6);
  CHECK(result.channels[kLuminance].negative_a == 2);  // Y(-inf) and Y of G = -0.5
  fs::remove_all(folder);
}

TEST_CASE("the verdict names the channel and limit exceeded") {
  FrameComparison comparison;
  comparison.channels[kLuminance].max_rel_error = 2e-12;
  comparison.channels[kLuminance].max_rel_at = {3, 7};
  comparison.channels[0].max_rel_error = 5e-13;
  Budget budget;
  for (auto& limits : budget.channels) limits.max_rel = 1e-12;
  const auto exceeded = check_budget(comparison, budget);
  REQUIRE(exceeded.size() == 1);
  CHECK(exceeded[0].describe() == "Y max_rel = 2e-12 > 1e-12 at pixel (3, 7)");
  budget.channels[kLuminance].max_rel = 3e-12;
  CHECK(check_budget(comparison, budget).empty());
  comparison.channels[2].max_abs_error = std::numeric_limits<double>::quiet_NaN();
  budget.channels[2].max_abs = 1.0;
  CHECK(check_budget(comparison, budget).size() == 1);  // NaN never passes
}

TEST_CASE("heat map colours: black for no error, white from 100 %, the ramp's stops between") {
  using Colour = std::array<std::uint8_t, 3>;
  CHECK(heat_map_colour(0.0) == Colour{0, 0, 0});
  CHECK(heat_map_colour(1e-20) == Colour{0, 0, 0});
  CHECK(heat_map_colour(1e-12) == Colour{20, 40, 200});
  CHECK(heat_map_colour(1e-8) == Colour{190, 30, 170});
  CHECK(heat_map_colour(1e-4) == Colour{255, 120, 20});
  CHECK(heat_map_colour(1.0) == Colour{255, 255, 255});
  CHECK(heat_map_colour(std::numeric_limits<double>::infinity()) == Colour{255, 255, 255});
}

TEST_CASE("compensated sums are exact where naive sums lose everything") {
  CompensatedSum sum;
  sum.add(1e16);
  for (int k = 0; k < 10000; ++k) sum.add(1.0);
  sum.add(-1e16);
  CHECK(sum.value() == 10000.0);
  // Random multiples of 2^-40 below 2^13: their exact sum is an integer count of 2^-40.
  std::mt19937_64 random(12);
  __extension__ __int128 exact_units = 0;
  CompensatedSum many;
  for (int k = 0; k < 200000; ++k) {
    const std::uint64_t units = random() >> 11;  // < 2^53
    exact_units += units;
    many.add(std::ldexp(double(units), -40));
  }
  const long double exact = std::ldexp(static_cast<long double>(exact_units), -40);
  CHECK(double(std::fabs(many.value() - exact) / exact) <= 1.2e-16);
}
