// Builds without -Dgpu=cuda|hip have no GPU backend; asking for it is a bad argument.
#include "backend.h"
#include "core/errors.h"

namespace starlens {

std::unique_ptr<SplatBackend> make_gpu_backend(const SplatSettings&) {
  throw_input_error("--backend gpu", "",
                    "this build has no GPU backend (configure with -Dgpu=cuda or -Dgpu=hip)");
}

}  // namespace starlens
