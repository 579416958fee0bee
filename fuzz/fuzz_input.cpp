#include "fuzz_input.h"

#include <omp.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "manifest/hash_pool.h"

namespace starlens::fuzz {
namespace {

[[noreturn]] void fail(const char* what) {
  std::fprintf(stderr, "fuzz input file: %s: %s\n", what, std::strerror(errno));
  std::abort();
}

}  // namespace

InputFile::InputFile(const char* name) {
  fd_ = memfd_create(name, MFD_CLOEXEC);
  if (fd_ < 0) fail("memfd_create");
  path_ = "/proc/self/fd/" + std::to_string(fd_);
}

InputFile::~InputFile() {
  close(fd_);
}

const std::string& InputFile::write(const std::uint8_t* data, std::size_t size) {
  if (ftruncate(fd_, 0) != 0) fail("ftruncate");
  std::size_t done = 0;
  while (done < size) {
    const ssize_t n = pwrite(fd_, data + done, size - done, static_cast<off_t>(done));
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) fail("pwrite");
    done += static_cast<std::size_t>(n);
  }
  return path_;
}

void use_one_thread() {
  omp_set_num_threads(1);
  set_hash_threads(1);
}

}  // namespace starlens::fuzz
