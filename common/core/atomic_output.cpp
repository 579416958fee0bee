#include "core/atomic_output.h"

#include <fcntl.h>
#include <unistd.h>

#include <array>
#include <atomic>
#include <csignal>
#include <cstring>
#include <mutex>

#include "core/errors.h"

namespace starlens {
namespace {

// Temporary paths still open, for the signal handler. A fixed table of C strings keeps the
// handler async-signal-safe (it only calls unlink, signal and raise).
constexpr int kMaxPending = 64;
constexpr int kMaxPath = 4096;
std::array<char[kMaxPath], kMaxPending> pending_paths;
std::array<std::atomic<bool>, kMaxPending> pending_used{};
std::mutex register_mutex;
std::once_flag handlers_installed;

void remove_pending_and_reraise(int signal_number) {
  for (int i = 0; i < kMaxPending; ++i)
    if (pending_used[i].load()) unlink(pending_paths[i]);
  std::signal(signal_number, SIG_DFL);
  std::raise(signal_number);
}

int register_pending(const std::string& path) {
  std::call_once(handlers_installed, [] {
    std::signal(SIGINT, remove_pending_and_reraise);
    std::signal(SIGTERM, remove_pending_and_reraise);
    std::signal(SIGHUP, remove_pending_and_reraise);
  });
  std::lock_guard lock(register_mutex);
  if (path.size() >= kMaxPath) return -1;
  for (int i = 0; i < kMaxPending; ++i) {
    if (!pending_used[i].load()) {
      std::memcpy(pending_paths[i], path.c_str(), path.size() + 1);
      pending_used[i].store(true);
      return i;
    }
  }
  return -1;
}

void unregister_pending(const std::string& path) {
  std::lock_guard lock(register_mutex);
  for (int i = 0; i < kMaxPending; ++i)
    if (pending_used[i].load() && path == pending_paths[i]) pending_used[i].store(false);
}

}  // namespace

void check_output_path(const std::filesystem::path& final_path, bool force) {
  namespace fs = std::filesystem;
  const std::string name = final_path.string();
  if (name.empty()) throw_input_error("(output)", "", "empty output path");
  const fs::path folder = final_path.has_parent_path() ? final_path.parent_path() : fs::path(".");
  std::error_code error;
  if (!fs::is_directory(folder, error))
    throw_input_error(name, "", "output folder '" + folder.string() + "' does not exist");
  if (access(folder.c_str(), W_OK) != 0)
    throw_input_error(name, "", "output folder '" + folder.string() + "' is not writable");
  if (fs::exists(final_path, error)) {
    if (fs::is_directory(final_path, error)) throw_input_error(name, "", "output path is a folder");
    if (!force) throw_input_error(name, "", "output exists (use --force to overwrite)");
  }
}

AtomicOutput::AtomicOutput(std::filesystem::path final_path, bool force)
    : final_path_(std::move(final_path)) {
  check_output_path(final_path_, force);
  temp_path_ = final_path_;
  temp_path_ += ".tmp." + std::to_string(getpid()) + "." +
                std::to_string(reinterpret_cast<std::uintptr_t>(this) & 0xffffff);
  register_pending(temp_path_.string());
}

AtomicOutput::~AtomicOutput() {
  if (!committed_) abandon();
}

void AtomicOutput::abandon() {
  std::error_code ignored;
  std::filesystem::remove(temp_path_, ignored);
  unregister_pending(temp_path_.string());
}

void start_writeback(const std::filesystem::path& path) {
  const int fd = open(path.c_str(), O_RDONLY);
  if (fd < 0) return;
  sync_file_range(fd, 0, 0, SYNC_FILE_RANGE_WRITE);
  close(fd);
}

void AtomicOutput::commit() {
  const int fd = open(temp_path_.c_str(), O_RDONLY);
  if (fd < 0) throw_run_failure(final_path_.string(), "temporary output vanished before commit");
  const bool synced = fsync(fd) == 0;
  close(fd);
  if (!synced)
    throw_run_failure(final_path_.string(), std::string("fsync failed: ") + std::strerror(errno));
  if (std::rename(temp_path_.c_str(), final_path_.c_str()) != 0)
    throw_run_failure(final_path_.string(), std::string("rename failed: ") + std::strerror(errno));
  unregister_pending(temp_path_.string());
  committed_ = true;
}

}  // namespace starlens
