#pragma once
// The GPU backend of the producer's triangle-index search (hit_search.h; docs/gpu.md): the
// index's flat arrays copied to the device once, then each worker's queries staged through its
// own pinned buffers and stream, counted per star by one kernel, offset by an exclusive scan and
// written by a second kernel in the CPU's order. Plain C++ (no GPU runtime types): builds
// without -Dgpu=cuda|hip refuse it (no_gpu_search.cpp).
#include <cstdint>
#include <memory>

#include "gpu/gpu_device.h"
#include "hit_search.h"

namespace starlens::produce {

struct GpuSearchReport {
  GpuDeviceInfo device;
  std::uint64_t index_bytes = 0;        // the index's arrays on the device
  std::uint64_t device_bytes_peak = 0;  // all device memory the search held
  std::uint64_t pinned_bytes_peak = 0;  // pinned host memory
  std::uint64_t queries = 0;            // stars searched
  std::uint64_t kernel_launches = 0;
};

class GpuSearchBackend : public SearchBackend {
 public:
  // What the run used; call after the workers are done.
  virtual GpuSearchReport report() const = 0;
};

// Selects GPU `device_index`, copies the index's arrays to it and makes buffers and a stream for
// each of `workers` workers. Any GPU failure (no device, out of memory, a kernel fault) is a
// RunFailure "gpu <phase>: ..." (exit 1); a build without a GPU backend refuses (exit 2).
std::unique_ptr<GpuSearchBackend> make_gpu_search(const TriangleIndex& index, int device_index,
                                                  std::size_t workers);

}  // namespace starlens::produce
