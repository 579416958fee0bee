#pragma once
// An empty folder of the test's own under the system's temporary folder (the process id keeps
// concurrent runs apart); the test removes it.
#include <unistd.h>

#include <filesystem>
#include <string>

namespace starlens::testing {

inline std::filesystem::path fresh_folder(const std::string& name) {
  const std::filesystem::path folder = std::filesystem::temp_directory_path() /
                                       ("starlens_test_" + name + "_" + std::to_string(::getpid()));
  std::filesystem::remove_all(folder);
  std::filesystem::create_directories(folder);
  return folder;
}

}  // namespace starlens::testing
