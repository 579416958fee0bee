#pragma once
// Turns a failed GPU runtime call into the run failure of docs/design.md section 6: the tool prints
// "gpu <phase>: <the runtime's message>" and exits 1. Never a silent CPU fallback.
#include <string>

#include "core/errors.h"
#include "gpu/hip_compat.h"

namespace starlens {

inline void check_gpu(hipError_t status, const char* phase) {
  if (status != hipSuccess)
    throw_run_failure(std::string("gpu ") + phase, hipGetErrorString(status));
}

// After a kernel launch: a bad configuration shows at once; faults inside the kernel show
// at the next synchronisation, which is checked with its own phase name.
inline void check_launch(const char* phase) {
  check_gpu(hipGetLastError(), phase);
}

}  // namespace starlens
