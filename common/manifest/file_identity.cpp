#include "manifest/file_identity.h"

#include <sys/stat.h>

#include <cerrno>
#include <cstring>

#include "core/errors.h"

namespace starlens {

FileIdentity file_identity(int descriptor, const std::string& name) {
  struct stat status {};
  if (::fstat(descriptor, &status) != 0)
    throw_run_failure(name, std::string("cannot stat: ") + std::strerror(errno));
  return {std::uint64_t(status.st_size), std::uint64_t(status.st_ino), std::uint64_t(status.st_dev),
          std::int64_t(status.st_mtim.tv_sec), std::int64_t(status.st_mtim.tv_nsec)};
}

}  // namespace starlens
