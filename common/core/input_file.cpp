#include "core/input_file.h"

#include <filesystem>

#include "core/errors.h"

namespace starlens {

void require_input_file(const std::string& path, const std::string& field, EmptyInput empty) {
  namespace fs = std::filesystem;
  std::error_code error;
  const fs::file_status status = fs::status(path, error);
  if (status.type() == fs::file_type::not_found || status.type() == fs::file_type::none)
    throw_input_error(path, field, "no such file");
  if (error) throw_input_error(path, field, "cannot be examined: " + error.message());
  if (fs::is_directory(status)) throw_input_error(path, field, "is a folder, not a file");
  if (!fs::is_regular_file(status))
    throw_input_error(path, field, "is not a regular file (a device, FIFO or socket)");
  if (empty == EmptyInput::refused && fs::file_size(path, error) == 0 && !error)
    throw_input_error(path, field, "is empty");
}

}  // namespace starlens
