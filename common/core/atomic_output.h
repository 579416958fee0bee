#pragma once
// One output written under a temporary name beside the final one and renamed on success
// (docs/design.md section 2): a failed or interrupted run never leaves a half file under the final
// name. It is an OutputSet of one file, so it is locked and cleans up after dead runs the same
// way; outputs that go with a manifest belong in the run's OutputSet instead. Temporary files are
// removed on failure, on destruction and on SIGINT/SIGTERM.
#include <filesystem>
#include <string>

#include "core/output_set.h"

namespace starlens {

class AtomicOutput {
 public:
  // Checks that the final path may be written (its folder exists and, unless `force`, nothing
  // exists there yet) and takes its lock. Throws InputError naming the path otherwise.
  AtomicOutput(std::filesystem::path final_path, bool force,
               OutputLocking locking = OutputLocking::lock);
  AtomicOutput(const AtomicOutput&) = delete;
  AtomicOutput& operator=(const AtomicOutput&) = delete;

  const std::filesystem::path& final_path() const { return final_path_; }
  // Where the writer writes; unique per process and output.
  const std::filesystem::path& temp_path() const { return temp_path_; }
  // fsyncs the temporary file and renames it to the final path; throws RunFailure on error.
  void commit() { set_.commit(); }
  // Removes the temporary file (also done by the destructor when not committed).
  void abandon() { set_.abandon(); }

 private:
  OutputSet set_;
  std::filesystem::path final_path_;
  std::filesystem::path temp_path_;
};

// Asks the kernel to start writing a file's pages written so far to the disk (Linux
// sync_file_range), without waiting: a large output written in parts then finds less for
// commit's fsync to wait for. Only a hint: failures are ignored (fsync reports real ones).
void start_writeback(const std::filesystem::path& path);

}  // namespace starlens
