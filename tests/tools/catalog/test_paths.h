#pragma once
// Where the tests find their data: the shared fixtures (CI lays shared/ beside the
// checkout), the installed Stellarium package, and a scratch folder of their own.
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <string>

namespace starlens::catalog::testing {

inline std::filesystem::path shared_fixture(const std::string& name) {
  const char* shared = std::getenv("STARLENS_SHARED_DIR");
  return std::filesystem::path(shared ? shared : "../shared") / "fixtures" / name;
}

constexpr const char* kStellariumDir = "/usr/share/stellarium/stars/default";

inline std::filesystem::path stellarium_file(const std::string& name) {
  return std::filesystem::path(kStellariumDir) / name;
}

inline bool stellarium_installed() {
  return std::filesystem::exists(stellarium_file("stars_0_0v0_8.cat"));
}

// A fresh folder for one test case, removed when it ends.
class ScratchFolder {
 public:
  explicit ScratchFolder(const std::string& name) {
    path_ = std::filesystem::temp_directory_path() /
            ("starlens-catalog-test-" + name + "-" + std::to_string(::getpid()));
    std::filesystem::remove_all(path_);
    std::filesystem::create_directories(path_);
  }
  ~ScratchFolder() {
    std::error_code ignored;
    std::filesystem::remove_all(path_, ignored);
  }
  std::filesystem::path operator/(const std::string& name) const { return path_ / name; }
  const std::filesystem::path& path() const { return path_; }

 private:
  std::filesystem::path path_;
};

}  // namespace starlens::catalog::testing
