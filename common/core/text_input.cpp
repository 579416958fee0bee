#include "core/text_input.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "core/errors.h"

namespace starlens {
namespace {

std::string type_of_mode(mode_t mode) {
  if (S_ISREG(mode)) return "a regular file";
  if (S_ISDIR(mode)) return "a folder";
  if (S_ISCHR(mode)) return "a character device";
  if (S_ISBLK(mode)) return "a block device";
  if (S_ISFIFO(mode)) return "a pipe";
  if (S_ISSOCK(mode)) return "a socket";
  return "not a file";
}

// Closes a file descriptor on scope exit.
class FileDescriptor {
 public:
  explicit FileDescriptor(int fd) : fd_(fd) {}
  ~FileDescriptor() {
    if (fd_ >= 0) ::close(fd_);
  }
  FileDescriptor(const FileDescriptor&) = delete;
  FileDescriptor& operator=(const FileDescriptor&) = delete;
  int get() const { return fd_; }

 private:
  int fd_;
};

void require_readable_kind(const struct stat& status, const std::string& name,
                           const std::string& what, std::uint64_t max_bytes) {
  if (!S_ISREG(status.st_mode) && !S_ISFIFO(status.st_mode))
    throw_input_error(name, "", "is " + type_of_mode(status.st_mode) + ", not a " + what + " file");
  if (S_ISREG(status.st_mode) && std::uint64_t(status.st_size) > max_bytes)
    throw_input_error(name, "",
                      std::to_string(status.st_size) + " bytes: larger than any " + what + " (" +
                          std::to_string(max_bytes) + " bytes at most)");
}

}  // namespace

std::string read_text_input(const std::filesystem::path& path, const std::string& what,
                            std::uint64_t max_bytes) {
  const std::string name = path.string();
  // Checked before opening (opening a device can have effects) and again on what was opened.
  struct stat status {};
  if (::stat(path.c_str(), &status) != 0)
    throw_input_error(name, "", what + " cannot be opened: " + std::strerror(errno));
  require_readable_kind(status, name, what, max_bytes);
  const FileDescriptor file(::open(path.c_str(), O_RDONLY | O_CLOEXEC));
  if (file.get() < 0)
    throw_input_error(name, "", what + " cannot be opened: " + std::strerror(errno));
  if (::fstat(file.get(), &status) != 0)
    throw_input_error(name, "", what + " cannot be read: " + std::strerror(errno));
  require_readable_kind(status, name, what, max_bytes);
  std::string text;
  char buffer[65536];
  while (true) {
    const ssize_t got = ::read(file.get(), buffer, sizeof buffer);
    if (got < 0 && errno == EINTR) continue;
    if (got < 0) throw_input_error(name, "", what + " cannot be read: " + std::strerror(errno));
    if (got == 0) break;
    if (text.size() + std::uint64_t(got) > max_bytes)
      throw_input_error(
          name, "", "more than " + std::to_string(max_bytes) + " bytes: larger than any " + what);
    text.append(buffer, static_cast<std::size_t>(got));
  }
  return text;
}

}  // namespace starlens
