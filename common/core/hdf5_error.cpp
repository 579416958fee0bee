#include "core/hdf5_error.h"

#include <hdf5.h>

namespace starlens {
namespace {

// The driver's entries read "..., errno = 28, error message = 'No space left on device'".
herr_t find_system_message(unsigned, const H5E_error2_t* entry, void* data) {
  auto& reason = *static_cast<std::string*>(data);
  if (!reason.empty() || entry->desc == nullptr) return 0;
  const std::string text = entry->desc;
  const std::string marker = "error message = '";
  const auto start = text.find(marker);
  if (start == std::string::npos) return 0;
  const auto end = text.find('\'', start + marker.size());
  if (end != std::string::npos)
    reason = text.substr(start + marker.size(), end - start - marker.size());
  return 0;
}

}  // namespace

std::string hdf5_failure(const std::string& what) {
  std::string reason;
  H5Ewalk2(H5E_DEFAULT, H5E_WALK_DOWNWARD, find_system_message, &reason);
  return reason.empty() ? what + " (disk full?)" : what + ": " + reason;
}

}  // namespace starlens
