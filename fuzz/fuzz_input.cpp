#include "fuzz_input.h"

#include <fcntl.h>
#include <omp.h>
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

const std::filesystem::path& private_folder() {
  static const std::filesystem::path folder = [] {
    const char* tmpdir = std::getenv("TMPDIR");
    const std::string base = tmpdir && *tmpdir ? tmpdir : "/dev/shm";
    std::string pattern = base + "/starlens-fuzz-XXXXXX";
    if (!mkdtemp(pattern.data())) fail("mkdtemp");
    std::atexit([] {
      std::error_code ignored;
      std::filesystem::remove_all(private_folder(), ignored);
    });
    return std::filesystem::path(pattern);
  }();
  return folder;
}

InputFile::InputFile(const char* name) : path_((private_folder() / name).string()) {
  fd_ = open(path_.c_str(), O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
  if (fd_ < 0) fail("open");
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
