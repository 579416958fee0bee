#pragma once
// The fuzzer's bytes as a file that the readers open by path, as the tools do: an anonymous
// in-memory file (memfd) rewritten for every input, named /proc/self/fd/<n>. Nothing is written
// to disk, and the real readers (stdio, ifstream, HDF5's sec2 driver, OpenEXR) run unchanged.
#include <cstddef>
#include <cstdint>
#include <string>

namespace starlens::fuzz {

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
