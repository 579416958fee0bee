#pragma once
// Parallel loops whose results come out in input order, the same for any thread count: each
// thread takes one contiguous range, and per-thread totals are combined by a prefix sum.
#include <omp.h>

#include <cstdint>
#include <utility>
#include <vector>

#include "fill_vector.h"

namespace starlens {

// The contiguous share [first, end) of n items for thread `id` of `threads`.
inline std::pair<std::int64_t, std::int64_t> thread_range(std::int64_t n, int id, int threads) {
  return {n * id / threads, n * (id + 1) / threads};
}

// Replaces `values` (a vector) by their exclusive prefix sums; returns the total.
template <typename Values>
typename Values::value_type exclusive_scan_in_parallel(Values& values) {
  using T = typename Values::value_type;
  const auto n = static_cast<std::int64_t>(values.size());
  std::vector<T> offsets(omp_get_max_threads() + 1, T{0});
  int used_threads = 1;
#pragma omp parallel
  {
    const int id = omp_get_thread_num(), threads = omp_get_num_threads();
    const auto [first, end] = thread_range(n, id, threads);
    T sum{0};
    for (std::int64_t i = first; i < end; ++i) sum += values[i];
    offsets[id + 1] = sum;
#pragma omp barrier
#pragma omp single
    {
      used_threads = threads;
      for (int k = 1; k <= threads; ++k) offsets[k] += offsets[k - 1];
    }
    T running = offsets[id];
    for (std::int64_t i = first; i < end; ++i) {
      const T value = values[i];
      values[i] = running;
      running += value;
    }
  }
  return offsets[used_threads];
}

// value(i) for the i in [0, n) where keep(i) holds, in order of i, into `output` (a vector;
// a FillVector is resized without being zeroed first, on one thread, and filled by all).
template <typename Output, typename Keep, typename Value>
void select_in_parallel(std::int64_t n, const Keep& keep, const Value& value, Output& output) {
  std::vector<std::int64_t> offsets(omp_get_max_threads() + 1, 0);
  FillVector<std::uint8_t> kept(n);
#pragma omp parallel
  {
    const int id = omp_get_thread_num(), threads = omp_get_num_threads();
    const auto [first, end] = thread_range(n, id, threads);
    std::int64_t count = 0;
    for (std::int64_t i = first; i < end; ++i) count += kept[i] = keep(i) ? 1 : 0;
    offsets[id + 1] = count;
#pragma omp barrier
#pragma omp single
    {
      for (int k = 1; k <= threads; ++k) offsets[k] += offsets[k - 1];
      output.resize(offsets[threads]);
    }
    std::int64_t at = offsets[id];
    for (std::int64_t i = first; i < end; ++i)
      if (kept[i]) output[at++] = value(i);
  }
}

}  // namespace starlens
