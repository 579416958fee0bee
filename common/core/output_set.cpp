#include "core/output_set.h"

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <mutex>
#include <vector>

#include "core/errors.h"

namespace starlens {
namespace {

namespace fs = std::filesystem;

// Temporaries and lock files still held, for the signal handler. A fixed table of C strings
// keeps the handler async-signal-safe (it only calls unlink, signal and raise).
constexpr int kMaxPending = 128;
constexpr int kMaxPath = 4096;
std::array<char[kMaxPath], kMaxPending> pending_paths;
std::array<std::atomic<bool>, kMaxPending> pending_used{};
std::mutex register_mutex;
std::once_flag handlers_installed;
std::atomic<std::uint64_t> temp_counter{0};

void remove_pending_and_reraise(int signal_number) {
  for (int i = 0; i < kMaxPending; ++i)
    if (pending_used[i].load()) unlink(pending_paths[i]);
  std::signal(signal_number, SIG_DFL);
  std::raise(signal_number);
}

void register_pending(const std::string& path) {
  std::call_once(handlers_installed, [] {
    std::signal(SIGINT, remove_pending_and_reraise);
    std::signal(SIGTERM, remove_pending_and_reraise);
    std::signal(SIGHUP, remove_pending_and_reraise);
  });
  std::lock_guard lock(register_mutex);
  if (path.size() >= kMaxPath) return;
  for (int i = 0; i < kMaxPending; ++i) {
    if (!pending_used[i].load()) {
      std::memcpy(pending_paths[i], path.c_str(), path.size() + 1);
      pending_used[i].store(true);
      return;
    }
  }
}

void unregister_pending(const std::string& path) {
  std::lock_guard lock(register_mutex);
  for (int i = 0; i < kMaxPending; ++i)
    if (pending_used[i].load() && path == pending_paths[i]) pending_used[i].store(false);
}

std::string system_reason(const char* what, int error) {
  return std::string(what) + ": " + std::strerror(error);
}

fs::path folder_of(const fs::path& path) {
  return path.has_parent_path() ? path.parent_path() : fs::path(".");
}

// The pid in a lock file: one fixed-width field, so that a holder overwriting an earlier
// holder's pid never shows a reader a mix of the two.
constexpr int kPidField = 11;

std::string read_pid(int fd) {
  char text[kPidField + 1] = {};
  const ssize_t got = pread(fd, text, kPidField, 0);
  std::string pid = got > 0 ? std::string(text, std::size_t(got)) : std::string();
  while (!pid.empty() && (pid.back() == '\n' || pid.back() == ' ')) pid.pop_back();
  while (!pid.empty() && pid.front() == ' ') pid.erase(pid.begin());
  const bool digits = !pid.empty() && std::all_of(pid.begin(), pid.end(),
                                                  [](char c) { return c >= '0' && c <= '9'; });
  return digits ? pid : std::string();
}

// The holder's pid; a holder that has just taken the lock writes it right after, so an empty
// file is read again for up to 0.2 s ("" if it stays empty).
std::string lock_holder(int fd) {
  for (int attempt = 0; attempt < 200; ++attempt) {
    if (std::string pid = read_pid(fd); !pid.empty()) return pid;
    ::usleep(1000);
  }
  return {};
}

// flock on "<output>.lock". The file is removed by its holder when it releases it, so a lock
// taken on a file that is no longer under that name (removed between open and flock) is
// dropped and taken again on the new one.
int take_lock(const fs::path& lock_path, const std::string& name) {
  for (int attempt = 0; attempt < 64; ++attempt) {
    const int fd = ::open(lock_path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0666);
    if (fd < 0)
      throw_run_failure(
          name, system_reason(("cannot create the lock file '" + lock_path.string() + "'").c_str(),
                              errno));
    if (::flock(fd, LOCK_EX | LOCK_NB) != 0) {
      const int error = errno;
      const std::string holder = lock_holder(fd);
      ::close(fd);
      if (error == EWOULDBLOCK)
        throw_input_error(name, "",
                          "output is being written by another process (" +
                              (holder.empty() ? std::string("pid unknown") : "pid " + holder) +
                              "); refusing a second writer");
      throw_run_failure(name, system_reason("cannot lock the output", error));
    }
    struct stat opened {};
    struct stat named {};
    if (::fstat(fd, &opened) == 0 && ::stat(lock_path.c_str(), &named) == 0 &&
        opened.st_dev == named.st_dev && opened.st_ino == named.st_ino) {
      char pid[kPidField + 1];
      std::snprintf(pid, sizeof pid, "%*d\n", kPidField - 1, int(::getpid()));
      if (::pwrite(fd, pid, kPidField, 0) != kPidField) {
        // The pid only improves a refusal's message: a full disk does not stop the run here.
      }
      return fd;
    }
    ::close(fd);
  }
  throw_run_failure(name, "cannot take the output's lock '" + lock_path.string() + "'");
}

bool process_alive(pid_t pid) {
  return ::kill(pid, 0) == 0 || errno != ESRCH;
}

// Removes "<output>.tmp.<pid>.<n>" files whose process is no longer alive. Called with the
// output's lock held, so no live writer of this output is using them.
void remove_stale_temporaries(const fs::path& final_path) {
  const std::string prefix = final_path.filename().string() + ".tmp.";
  std::error_code error;
  for (fs::directory_iterator it(folder_of(final_path), error), end; !error && it != end;
       it.increment(error)) {
    const std::string name = it->path().filename().string();
    if (name.rfind(prefix, 0) != 0) continue;
    const std::string rest = name.substr(prefix.size());
    const auto dot = rest.find('.');
    if (dot == 0 || dot == std::string::npos || dot > 9) continue;
    if (!std::all_of(rest.begin(), rest.begin() + long(dot),
                     [](char c) { return c >= '0' && c <= '9'; }))
      continue;
    const pid_t pid = pid_t(std::stol(rest.substr(0, dot)));
    if (pid <= 0 || pid == ::getpid() || process_alive(pid)) continue;
    std::error_code ignored;
    if (it->is_regular_file(ignored)) fs::remove(it->path(), ignored);
  }
}

int fsync_path(const fs::path& path, int flags) {
  const int fd = ::open(path.c_str(), flags | O_CLOEXEC);
  if (fd < 0) return errno;
  const int result = ::fsync(fd) == 0 ? 0 : errno;
  ::close(fd);
  return result;
}

}  // namespace

void check_output_path(const fs::path& final_path, bool force) {
  const std::string name = final_path.string();
  if (name.empty()) throw_input_error("(output)", "", "empty output path");
  const fs::path folder = folder_of(final_path);
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

OutputSet::~OutputSet() {
  if (!committed_) abandon();
}

OutputSet::Entry& OutputSet::add_entry(const fs::path& final_path, bool record) {
  for (Entry& entry : entries_)
    if (entry.final_path == final_path) return entry;
  if (committed_) throw_run_failure(final_path.string(), "output added after its set's commit");
  check_output_path(final_path, force_);
  Entry entry;
  entry.final_path = final_path;
  entry.record = record;
  entry.lock_path = final_path;
  entry.lock_path += ".lock";
  if (locking_ == OutputLocking::lock) {
    entry.lock_fd = take_lock(entry.lock_path, final_path.string());
    register_pending(entry.lock_path.string());
  }
  entries_.push_back(entry);  // from here the destructor releases the lock
  remove_stale_temporaries(final_path);
  Entry& added = entries_.back();
  added.temp_path = final_path;
  added.temp_path += ".tmp." + std::to_string(::getpid()) + "." + std::to_string(temp_counter++);
  register_pending(added.temp_path.string());
  return added;
}

const fs::path& OutputSet::add(const fs::path& final_path) {
  return add_entry(final_path, false).temp_path;
}

const fs::path& OutputSet::add_record(const fs::path& final_path) {
  return add_entry(final_path, true).temp_path;
}

bool OutputSet::contains(const fs::path& final_path) const {
  return std::any_of(entries_.begin(), entries_.end(),
                     [&](const Entry& entry) { return entry.final_path == final_path; });
}

const fs::path& OutputSet::temp_path(const fs::path& final_path) const {
  for (const Entry& entry : entries_)
    if (entry.final_path == final_path) return entry.temp_path;
  throw_run_failure(final_path.string(), "not an output of this run's set");
}

void OutputSet::sync(const fs::path& final_path) const {
  if (const int error = fsync_path(temp_path(final_path), O_RDONLY); error != 0)
    throw_run_failure(final_path.string(), system_reason("fsync failed", error));
}

void OutputSet::release_locks() {
  for (Entry& entry : entries_) {
    if (entry.lock_fd < 0) continue;
    // Removed while still held: a writer that opened it meanwhile finds it gone and retries.
    ::unlink(entry.lock_path.c_str());
    unregister_pending(entry.lock_path.string());
    ::close(entry.lock_fd);
    entry.lock_fd = -1;
  }
}

void OutputSet::abandon() {
  for (const Entry& entry : entries_) {
    ::unlink(entry.temp_path.c_str());
    unregister_pending(entry.temp_path.string());
  }
  release_locks();
}

void OutputSet::roll_back(const std::string& file, const std::string& reason) {
  for (const Entry& entry : entries_) ::unlink(entry.final_path.c_str());
  abandon();
  committed_ = true;  // nothing left to abandon
  throw_run_failure(file, reason);
}

void OutputSet::commit() {
  if (committed_) throw_run_failure("(outputs)", "committed twice");
  // 1. Every temporary on the disk; nothing under a final name has changed yet.
  for (const Entry& entry : entries_) {
    const int error = fsync_path(entry.temp_path, O_RDONLY);
    if (error != 0) {
      abandon();
      committed_ = true;
      throw_run_failure(entry.final_path.string(),
                        error == ENOENT ? std::string("temporary output missing before commit")
                                        : system_reason("fsync failed", error));
    }
  }
  // 2. An earlier run's outputs go first, so that its record never stands beside a new output.
  for (const Entry& entry : entries_)
    if (!entry.record && ::unlink(entry.final_path.c_str()) != 0 && errno != ENOENT)
      roll_back(entry.final_path.string(), system_reason("cannot remove the old output", errno));
  // 3. The record, then 4. the outputs, each folder fsynced after its renames.
  for (const bool record : {true, false}) {
    std::vector<fs::path> folders;
    for (const Entry& entry : entries_) {
      if (entry.record != record) continue;
      if (::rename(entry.temp_path.c_str(), entry.final_path.c_str()) != 0)
        roll_back(entry.final_path.string(), system_reason("rename failed", errno));
      const fs::path folder = folder_of(entry.final_path);
      if (std::find(folders.begin(), folders.end(), folder) == folders.end())
        folders.push_back(folder);
    }
    for (const fs::path& folder : folders)
      if (const int error = fsync_path(folder, O_RDONLY | O_DIRECTORY); error != 0)
        roll_back(folder.string(), system_reason("fsync of the output folder failed", error));
  }
  for (const Entry& entry : entries_) unregister_pending(entry.temp_path.string());
  release_locks();
  committed_ = true;
}

}  // namespace starlens
