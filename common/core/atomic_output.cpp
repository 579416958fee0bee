#include "core/atomic_output.h"

#include <fcntl.h>
#include <unistd.h>

namespace starlens {

AtomicOutput::AtomicOutput(std::filesystem::path final_path, bool force, OutputLocking locking)
    : set_(force, locking), final_path_(std::move(final_path)), temp_path_(set_.add(final_path_)) {}

void start_writeback(const std::filesystem::path& path) {
  const int fd = open(path.c_str(), O_RDONLY);
  if (fd < 0) return;
  sync_file_range(fd, 0, 0, SYNC_FILE_RANGE_WRITE);
  close(fd);
}

}  // namespace starlens
