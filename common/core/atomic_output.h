#pragma once
// Outputs are written under a temporary name beside the final one and renamed on success
// (docs/design.md section 2): a failed or interrupted run never leaves a half file under the final
// name. Temporary files are removed on failure, on destruction and on SIGINT/SIGTERM.
#include <filesystem>
#include <string>

namespace starlens {

class AtomicOutput {
 public:
  // Checks that the final path may be written: its folder exists and, unless `force`,
  // nothing exists there yet. Throws InputError naming the path otherwise.
  AtomicOutput(std::filesystem::path final_path, bool force);
  AtomicOutput(const AtomicOutput&) = delete;
  AtomicOutput& operator=(const AtomicOutput&) = delete;
  ~AtomicOutput();

  const std::filesystem::path& final_path() const { return final_path_; }
  // Where the writer writes; unique per process and output.
  const std::filesystem::path& temp_path() const { return temp_path_; }
  // fsyncs the temporary file and renames it to the final path; throws RunFailure on error.
  void commit();
  // Removes the temporary file (also done by the destructor when not committed).
  void abandon();

 private:
  std::filesystem::path final_path_;
  std::filesystem::path temp_path_;
  bool committed_ = false;
};

// Asks the kernel to start writing a file's pages written so far to the disk (Linux
// sync_file_range), without waiting: a large output written in parts then finds less for
// commit's fsync to wait for. Only a hint: failures are ignored (fsync reports real ones).
void start_writeback(const std::filesystem::path& path);

// Checks an output path without creating anything (used to validate all outputs before a
// long run starts). Throws InputError as AtomicOutput's constructor would.
void check_output_path(const std::filesystem::path& final_path, bool force);

}  // namespace starlens
