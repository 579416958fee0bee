// Count backend: the stream is read and validated (by the reader) and counted; nothing is
// accumulated. Times the pure read path.
#include "backend.h"
#include "splat_counts.h"

namespace starlens {
namespace {

class CountBackend final : public SplatBackend {
 public:
  std::string name() const override { return "count"; }
  void begin(const StreamHeader& header, const PhaseCache&) override { psf_ = header.psf; }
  void accumulate(std::span<const StarEvent> events) override {
    for (const StarEvent& event : events) counts_.add(stream_event_class(event, psf_));
  }
  void finish(Frame&) override {}
  nlohmann::json statistics() const override { return {{"counts", counts_.to_json()}}; }

 private:
  PsfModel psf_;
  EventClassCounts counts_;
};

}  // namespace

std::unique_ptr<SplatBackend> make_count_backend(const SplatSettings&) {
  return std::make_unique<CountBackend>();
}

}  // namespace starlens
