#pragma once
// RAII owners of GPU resources: device arrays, pinned host arrays, streams and events.
// Allocation failures throw RunFailure naming the phase; releases never throw (a failing
// release during unwinding must not hide the error that caused it).
#include <cstddef>
#include <utility>

#include "gpu/gpu_check.h"

namespace starlens {

// Bytes of device and of pinned host memory that the arrays below hold, now and at most: the
// memory figures of a run's manifest. The arrays are made and released by one thread (the
// engine's).
struct GpuMemoryTally {
  struct Bytes {
    std::size_t now = 0, peak = 0;
    void add(std::size_t bytes) {
      now += bytes;
      if (now > peak) peak = now;
    }
    void remove(std::size_t bytes) { now -= bytes; }
  };
  Bytes device, pinned;
  static GpuMemoryTally& get() {
    static GpuMemoryTally tally;
    return tally;
  }
};

template <typename T>
class DeviceArray {
 public:
  DeviceArray() = default;
  DeviceArray(std::size_t count, const char* phase) : count_(count) {
    if (count == 0) return;
    check_gpu(hipMalloc(reinterpret_cast<void**>(&data_), bytes()), phase);
    GpuMemoryTally::get().device.add(bytes());
  }
  ~DeviceArray() {
    if (!data_) return;
    (void)hipFree(data_);
    GpuMemoryTally::get().device.remove(bytes());
  }
  DeviceArray(DeviceArray&& other) noexcept { swap(other); }
  DeviceArray& operator=(DeviceArray&& other) noexcept {
    swap(other);
    return *this;
  }
  DeviceArray(const DeviceArray&) = delete;
  DeviceArray& operator=(const DeviceArray&) = delete;

  T* data() const { return data_; }
  std::size_t size() const { return count_; }
  std::size_t bytes() const { return count_ * sizeof(T); }

 private:
  void swap(DeviceArray& other) noexcept {
    std::swap(data_, other.data_);
    std::swap(count_, other.count_);
  }
  T* data_ = nullptr;
  std::size_t count_ = 0;
};

// Page-locked host memory: asynchronous copies from it overlap with kernels.
template <typename T>
class PinnedArray {
 public:
  PinnedArray() = default;
  PinnedArray(std::size_t count, const char* phase) : count_(count) {
    if (count == 0) return;
    check_gpu(hipHostMalloc(reinterpret_cast<void**>(&data_), bytes(), hipHostMallocDefault),
              phase);
    GpuMemoryTally::get().pinned.add(bytes());
  }
  ~PinnedArray() {
    if (!data_) return;
    (void)hipHostFree(data_);
    GpuMemoryTally::get().pinned.remove(bytes());
  }
  PinnedArray(PinnedArray&& other) noexcept { swap(other); }
  PinnedArray& operator=(PinnedArray&& other) noexcept {
    swap(other);
    return *this;
  }
  PinnedArray(const PinnedArray&) = delete;
  PinnedArray& operator=(const PinnedArray&) = delete;

  T* data() const { return data_; }
  std::size_t size() const { return count_; }
  std::size_t bytes() const { return count_ * sizeof(T); }

 private:
  void swap(PinnedArray& other) noexcept {
    std::swap(data_, other.data_);
    std::swap(count_, other.count_);
  }
  T* data_ = nullptr;
  std::size_t count_ = 0;
};

class GpuStream {
 public:
  explicit GpuStream(const char* phase) {
    check_gpu(hipStreamCreateWithFlags(&stream_, hipStreamNonBlocking), phase);
  }
  ~GpuStream() {
    if (stream_) (void)hipStreamDestroy(stream_);
  }
  GpuStream(const GpuStream&) = delete;
  GpuStream& operator=(const GpuStream&) = delete;
  hipStream_t get() const { return stream_; }

 private:
  hipStream_t stream_ = nullptr;
};

// An event with timing: marks a point in a stream, for ordering and for elapsed times.
class GpuEvent {
 public:
  explicit GpuEvent(const char* phase) {
    check_gpu(hipEventCreateWithFlags(&event_, hipEventDefault), phase);
  }
  ~GpuEvent() {
    if (event_) (void)hipEventDestroy(event_);
  }
  GpuEvent(const GpuEvent&) = delete;
  GpuEvent& operator=(const GpuEvent&) = delete;
  hipEvent_t get() const { return event_; }
  void record(hipStream_t stream, const char* phase) {
    check_gpu(hipEventRecord(event_, stream), phase);
  }
  void synchronize(const char* phase) const { check_gpu(hipEventSynchronize(event_), phase); }

 private:
  hipEvent_t event_ = nullptr;
};

// Seconds between two completed events.
inline double elapsed_seconds(const GpuEvent& from, const GpuEvent& to, const char* phase) {
  float milliseconds = 0;
  check_gpu(hipEventElapsedTime(&milliseconds, from.get(), to.get()), phase);
  return 1e-3 * milliseconds;
}

}  // namespace starlens
