// The cached evaluator's row kernels (common/optics/cached_row.h): the AVX-512, AVX2, SSE2 and
// scalar paths write the same bits, only to the pixels [lo, hi] of the row, whatever the row's
// length and chord (the frame must not depend on the processor the splat runs on).
#include <doctest/doctest.h>

#include <cstring>
#include <random>
#include <vector>

#include "optics/cached_row.h"

namespace starlens {
namespace {

struct RowCase {
  std::vector<double> phases[4];
  cached_row::Blend blend;
  cached_row::Colour colour;
  std::vector<double> frame;
  std::int64_t count, lo, hi;

  cached_row::PhaseRows rows() const {
    return {phases[0].data(), phases[1].data(), phases[2].data(), phases[3].data()};
  }
};

RowCase random_row(std::mt19937_64& random, std::int64_t count) {
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  RowCase row;
  for (auto& phase : row.phases) {
    phase.resize(std::size_t(count));
    for (double& weight : phase) weight = unit(random) * 1e-3;
  }
  const double tx = unit(random), ty = unit(random);
  row.blend = {(1 - tx) * (1 - ty), tx * (1 - ty), (1 - tx) * ty, tx * ty};
  row.colour = {unit(random) * 1e4, unit(random) * 1e4, unit(random) * 1e4};
  row.frame.resize(3 * std::size_t(count));
  for (double& value : row.frame) value = unit(random);
  row.count = count;
  std::uniform_int_distribution<std::int64_t> column(0, count - 1);
  row.lo = column(random);
  row.hi = std::uniform_int_distribution<std::int64_t>(row.lo, count - 1)(random);
  return row;
}

#if defined(__x86_64__)
[[gnu::target("avx2")]] void add_with_avx2(const RowCase& row, double* out) {
  const cached_row::Avx2RowAdder adder(row.blend, row.colour);
  adder.add(row.rows(), out, row.count, row.lo, row.hi);
}
[[gnu::target("avx512f")]] void add_with_avx512(const RowCase& row, double* out) {
  const cached_row::Avx512RowAdder adder(row.blend, row.colour);
  adder.add(row.rows(), out, row.count, row.lo, row.hi);
}
// The chord given as bits lo .. hi.
[[gnu::target("avx512f")]] void add_with_avx512_bits(const RowCase& row, double* out) {
  const cached_row::Avx512RowAdder adder(row.blend, row.colour);
  const std::uint64_t chord =
      ((std::uint64_t(2) << row.hi) - 1) & ~((std::uint64_t(1) << row.lo) - 1);
  adder.add_masked(row.rows(), out, row.count, chord);
}
#endif

// The row followed by guard values that no path may change (the AVX-512 path's last step is
// masked).
std::vector<double> guarded(const std::vector<double>& frame) {
  std::vector<double> out = frame;
  out.resize(frame.size() + 24, -7.0);
  return out;
}

bool same_bits(const std::vector<double>& a, const std::vector<double>& b) {
  return a.size() == b.size() && std::memcmp(a.data(), b.data(), a.size() * sizeof(double)) == 0;
}

TEST_CASE("cached row kernels: vector paths write the scalar path's bits on the chord only") {
  std::mt19937_64 random(7);
  for (std::int64_t count = 1; count <= 33; ++count) {
    for (int trial = 0; trial < 20; ++trial) {
      const RowCase row = random_row(random, count);
      std::vector<double> scalar = row.frame;
      cached_row::add_tail(row.rows(), row.blend, row.colour, scalar.data(), 0, count, row.lo,
                           row.hi);
      INFO("count " << count << ", chord [" << row.lo << ", " << row.hi << "]");
      for (std::int64_t k = 0; k < count; ++k) {
        const bool on_chord = k >= row.lo && k <= row.hi;
        CHECK((std::memcmp(&scalar[3 * k], &row.frame[3 * k], 3 * sizeof(double)) != 0) ==
              on_chord);
      }
      const std::vector<double> expected = guarded(scalar);
      std::vector<double> portable = guarded(row.frame);
      cached_row::RowAdder(row.blend, row.colour)
          .add(row.rows(), portable.data(), count, row.lo, row.hi);
      CHECK(same_bits(portable, expected));
#if defined(__x86_64__)
      if (__builtin_cpu_supports("avx2")) {
        std::vector<double> avx2 = guarded(row.frame);
        add_with_avx2(row, avx2.data());
        CHECK(same_bits(avx2, expected));
      }
      if (__builtin_cpu_supports("avx512f")) {
        std::vector<double> avx512 = guarded(row.frame);
        add_with_avx512(row, avx512.data());
        CHECK(same_bits(avx512, expected));
        std::vector<double> bits = guarded(row.frame);
        add_with_avx512_bits(row, bits.data());
        CHECK(same_bits(bits, expected));
      }
#endif
    }
  }
}

}  // namespace
}  // namespace starlens
