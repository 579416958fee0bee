#pragma once
// One of the engine's two pipeline slots: a pinned host buffer and its device twin (events and
// the indices of the direct ones), with the GPU events that time and guard its batch.
#include <cstdint>
#include <memory>
#include <vector>

#include "events/star_event.h"
#include "gpu/device_memory.h"

namespace starlens {

// What the device time before a mark was spent on.
enum class BatchPhase : std::uint8_t { binning, accumulate, merge, direct };

struct BatchSlot {
  PinnedArray<StarEvent> staged;
  DeviceArray<StarEvent> device;
  PinnedArray<std::uint32_t> direct_staged;
  DeviceArray<std::uint32_t> direct_device;
  std::uint32_t count = 0;
  bool in_flight = false;
  GpuEvent upload_start{"event creation"}, uploaded{"event creation"};
  GpuEvent compute_start{"event creation"}, prepared{"event creation"};
  // After each kernel of the batch: the event and the phase the time since the last belongs to.
  std::vector<std::unique_ptr<GpuEvent>> marks;
  std::vector<BatchPhase> mark_phases;
  std::uint32_t rounds = 0;  // binning rounds

  explicit BatchSlot(std::uint32_t capacity)
      : staged(capacity, "pinned allocation"),
        device(capacity, "event buffer allocation"),
        direct_staged(capacity, "pinned allocation"),
        direct_device(capacity, "event buffer allocation") {}
  void mark(BatchPhase phase, hipStream_t stream) {
    if (marks.size() == mark_phases.size())
      marks.push_back(std::make_unique<GpuEvent>("event creation"));
    marks[mark_phases.size()]->record(stream, "event record");
    mark_phases.push_back(phase);
  }
};

}  // namespace starlens
