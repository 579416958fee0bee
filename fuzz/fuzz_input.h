#pragma once
// The fuzzer's bytes as a file that the readers open by path, as the tools do: one file in a
// private folder of this process, rewritten for every input, so the real readers (stdio,
// ifstream, HDF5's sec2 driver, OpenEXR) run unchanged. The folder is under $TMPDIR, else
// /dev/shm (memory-backed), and is removed at exit. (An anonymous memfd would need no folder, but
// HDF5 resolves the path it opens and /proc/self/fd/<n> of a memfd resolves to no file.)
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <string>

namespace starlens::fuzz {

// This process's folder for the harness's files (created on first use).
const std::filesystem::path& private_folder();

class InputFile {
 public:
  explicit InputFile(const char* name);
  ~InputFile();
  InputFile(const InputFile&) = delete;
  InputFile& operator=(const InputFile&) = delete;

  // Replaces the file's content with `data`; returns the path to open.
  const std::string& write(const std::uint8_t* data, std::size_t size);
  const std::string& path() const { return path_; }

 private:
  int fd_ = -1;
  std::string path_;
};

// One worker thread for OpenMP and the hash pool: an input's outcome must not depend on
// scheduling, and libFuzzer measures one core per job.
void use_one_thread();

}  // namespace starlens::fuzz
