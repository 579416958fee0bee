#include "core/errors.h"

namespace starlens {

void throw_input_error(const std::string& file, const std::string& field,
                       const std::string& reason) {
  std::string message = file;
  if (!field.empty()) message += ": " + field;
  throw InputError(message + ": " + reason);
}

void throw_run_failure(const std::string& what, const std::string& reason) {
  throw RunFailure(what + ": " + reason);
}

}  // namespace starlens
