#pragma once
// One starlens-trace run: trace and refine the mesh, write lensmap.h5 atomically and its
// manifest beside it.
#include "trace_options.h"

namespace starlens {

int run_trace(const TraceOptions& options, int argc, char** argv);

}  // namespace starlens
