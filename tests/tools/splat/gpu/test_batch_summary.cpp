// The host's look at a batch: event classes and the centre-tile density that drives the
// adaptive strategy choice.
#include <doctest/doctest.h>

#include <vector>

#include "batch_summary.h"
#include "core/errors.h"
#include "gpu_strategy.h"
#include "splat_engine.h"

using namespace starlens;

namespace {
StarEvent event_at(double x, double y, double support) {
  return {x, y, 1, 1, 1, 1.0, support};
}
}  // namespace

TEST_CASE("density: event centres per occupied 32 px tile; direct: support above Rc") {
  BatchSummariser summariser(100, 70, 16, false);  // 4 x 3 centre tiles, the last ones partial
  std::vector<StarEvent> events = {
      event_at(1, 1, 3),        event_at(31.9, 31.9, 3), event_at(5, 5, 16),  // tile (0,0)
      event_at(99.5, 69.5, 17),                                               // tile (3,2): direct
      event_at(40, 1, 2),                                                     // tile (1,0)
      event_at(-1, 5, 20),      event_at(50, 70, 2)};                         // centres outside
  std::vector<std::uint32_t> direct(events.size());
  const BatchSummary summary = summariser.summarise(events, direct.data());
  CHECK(summary.events == 7);
  CHECK(summary.direct == 2);
  CHECK(direct[0] == 3);
  CHECK(direct[1] == 5);
  CHECK(summary.max_cached_support == 16);
  // The direct boxes: (99.5, 69.5) with support 17 + 1 reaches columns 81..99 and rows 51..69
  // (clipped to the frame), (-1, 5) with support 20 + 1 columns 0..20 and rows 0..26.
  CHECK(summary.direct_pixels == 19 * 19 + 21 * 27);
  CHECK(summary.centres_in_frame == 5);
  CHECK(summary.occupied_centre_tiles == 3);
  CHECK(summary.density() == doctest::Approx(5.0 / 3.0));

  // The occupancy is reset between batches.
  const BatchSummary again = summariser.summarise(std::span(events).first(1), direct.data());
  CHECK(again.occupied_centre_tiles == 1);
  CHECK(again.density() == 1.0);
  CHECK(summariser.summarise({}, direct.data()).density() == 0.0);
}

TEST_CASE("--psf-direct makes every event direct") {
  BatchSummariser summariser(64, 64, 16, true);
  const std::vector<StarEvent> events = {event_at(3, 3, 1), event_at(40, 40, 30)};
  std::vector<std::uint32_t> direct(events.size());
  const BatchSummary summary = summariser.summarise(events, direct.data());
  CHECK(summary.direct == 2);
  CHECK(summary.max_cached_support == 0);
}

TEST_CASE("strategy names and the adaptive choice") {
  CHECK(parse_gpu_strategy("atomic") == GpuStrategy::atomic);
  CHECK(parse_gpu_strategy("tile16") == GpuStrategy::tile16);
  CHECK(parse_gpu_strategy("tile32") == GpuStrategy::tile32);
  CHECK(parse_gpu_strategy("scatter16") == GpuStrategy::scatter16);
  for (int k = 0; k < kGpuStrategyCount; ++k)  // every name parses back to its strategy
    CHECK(parse_gpu_strategy(strategy_name(GpuStrategy(k))) == GpuStrategy(k));
  CHECK_FALSE(parse_gpu_strategy("adaptive").has_value());
  CHECK_THROWS_AS(parse_gpu_strategy("tile64"), InputError);
  CHECK(strategy_tile_size(GpuStrategy::atomic) == 0);
  CHECK(strategy_tile_size(GpuStrategy::tile32) == 32);
  CHECK(strategy_tile_size(GpuStrategy::scatter16) == 16);

  const AdaptiveThresholds thresholds{4.0, 64.0, 1000.0};
  CHECK(choose_strategy(0.0, thresholds) == GpuStrategy::atomic);
  CHECK(choose_strategy(3.99, thresholds) == GpuStrategy::atomic);
  CHECK(choose_strategy(4.0, thresholds) == GpuStrategy::tile16);
  CHECK(choose_strategy(63.9, thresholds) == GpuStrategy::tile16);
  CHECK(choose_strategy(64.0, thresholds) == GpuStrategy::tile32);
  CHECK(choose_strategy(999.9, thresholds) == GpuStrategy::tile32);
  CHECK(choose_strategy(1000.0, thresholds) == GpuStrategy::scatter16);
  const AdaptiveThresholds defaults = default_adaptive_thresholds();
  CHECK(choose_strategy(32.0, defaults) == GpuStrategy::atomic);
  CHECK(choose_strategy(128.5, defaults) == GpuStrategy::scatter16);
}

TEST_CASE("a batch never holds more events than the input can") {
  constexpr std::uint32_t kDefault = 1u << 22;
  CHECK(batch_events_for(kDefault, 0) == kDefault);  // unknown length: standard input
  CHECK(batch_events_for(kDefault, 4096) == 4096);
  CHECK(batch_events_for(kDefault, 1) == 1);
  CHECK(batch_events_for(kDefault, kDefault) == kDefault);
  CHECK(batch_events_for(kDefault, 100'000'000) == kDefault);
  CHECK(batch_events_for(10'000, 300'000) == 10'000);  // a smaller batch asked for stays
}
