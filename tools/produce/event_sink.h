#pragma once
// Where the producer's chunks go (--sink): an event stream (a file or stdout) or nowhere
// but a count (--sink count: the producer runs fully, nothing is written).
#include <atomic>
#include <cstdint>
#include <memory>
#include <span>
#include <string>

#include "events/event_stream.h"
#include "events/stream_layout.h"

namespace starlens::produce {

class EventSink {
 public:
  virtual ~EventSink() = default;
  // Thread-safe: workers submit whole chunks, sealed (seal_chunk) where they were made.
  virtual void submit(std::span<const StarEvent> events, const ChunkSeal& seal,
                      std::uint32_t first_triangle, std::uint32_t last_triangle) = 0;
  // Ends the stream (the end chunk; a file is then complete for its OutputSet's commit).
  virtual void finish() = 0;
  virtual std::uint64_t chunks() const = 0;
  virtual std::uint64_t events() const = 0;
  // Bytes written, or that a stream of these chunks would have.
  virtual std::uint64_t bytes() const = 0;
};

class StreamSink final : public EventSink {
 public:
  StreamSink(OutputSet& outputs, const std::string& path, const StreamHeader& header)
      : writer_(outputs, path, header) {}
  void submit(std::span<const StarEvent> events, const ChunkSeal& seal,
              std::uint32_t first_triangle, std::uint32_t last_triangle) override {
    writer_.write_sealed_chunk(events, seal, first_triangle, last_triangle);
  }
  void finish() override { writer_.finish(); }
  std::uint64_t chunks() const override { return writer_.chunks_written(); }
  std::uint64_t events() const override { return writer_.events_written(); }
  std::uint64_t bytes() const override { return writer_.bytes_written(); }
  std::string tree_sha256() const { return writer_.tree_sha256(); }

 private:
  EventWriter writer_;
};

class CountSink final : public EventSink {
 public:
  void submit(std::span<const StarEvent> events, const ChunkSeal&, std::uint32_t,
              std::uint32_t) override {
    chunks_.fetch_add(1, std::memory_order_relaxed);
    events_.fetch_add(events.size(), std::memory_order_relaxed);
  }
  void finish() override {}
  std::uint64_t chunks() const override { return chunks_.load(); }
  std::uint64_t events() const override { return events_.load(); }
  // File header, chunk headers, records and the end chunk (docs/formats/events.md).
  std::uint64_t bytes() const override {
    return kFileHeaderBytes + kChunkHeaderBytes * (chunks_.load() + 1) +
           kEventRecordBytes * events_.load();
  }

 private:
  std::atomic<std::uint64_t> chunks_{0};
  std::atomic<std::uint64_t> events_{0};
};

}  // namespace starlens::produce
