// Builds without -Dgpu=cuda|hip have no GPU backend; asking for it is a bad argument.
#include "core/errors.h"
#include "gpu_search.h"

namespace starlens::produce {

std::unique_ptr<GpuSearchBackend> make_gpu_search(const TriangleIndex&, int, std::size_t) {
  throw_input_error("--backend gpu", "",
                    "this build has no GPU backend (configure with -Dgpu=cuda or -Dgpu=hip)");
}

}  // namespace starlens::produce
