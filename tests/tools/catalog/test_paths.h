#pragma once
// Where the tests find their data: the shared fixtures (CI lays shared/ beside the
// checkout), the installed Stellarium package, and a scratch folder of their own.
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <string>

#include "../../common/catalog/scratch_folder.h"

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

}  // namespace starlens::catalog::testing
