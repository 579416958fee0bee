#include "frame/exr_failure.h"

#include "core/errors.h"

namespace starlens {

void throw_exr_write_failure(const std::exception& error, const std::string& temp,
                             const std::string& name) {
  std::string reason = error.what();
  for (std::size_t at; (at = reason.find(temp)) != std::string::npos;)
    reason.replace(at, temp.size(), name);
  throw_run_failure(name, "cannot write EXR: " + reason);
}

}  // namespace starlens
