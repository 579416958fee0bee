#include "events/pipe_capacity.h"

#include <fcntl.h>
#include <sys/stat.h>

#include <algorithm>
#include <fstream>

namespace starlens {

namespace {

long system_pipe_limit() {
  long limit = 0;
  std::ifstream("/proc/sys/fs/pipe-max-size") >> limit;
  return limit;
}

}  // namespace

bool is_pipe(int descriptor) {
  struct stat status {};
  return ::fstat(descriptor, &status) == 0 && S_ISFIFO(status.st_mode);
}

long pipe_capacity_bound(int descriptor) {
  return std::max<long>(::fcntl(descriptor, F_GETPIPE_SZ), system_pipe_limit());
}

void enlarge_pipe(int descriptor) {
  if (!is_pipe(descriptor)) return;
  const long limit = system_pipe_limit();
  if (limit <= 0) return;
  // Both ends ask for the same size. A refusal (EPERM beyond an unprivileged user's pipe
  // quota) is retried at half the size, down to the default.
  for (long size = limit; size > (64L << 10); size /= 2)
    if (::fcntl(descriptor, F_SETPIPE_SZ, static_cast<int>(size)) >= size) return;
}

}  // namespace starlens
