#include "ingest_harness.h"

#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>

namespace starlens::fuzz {
namespace {

// A folder of this process for the sorter's run files, removed at exit.
const std::filesystem::path& spill_folder() {
  static const std::filesystem::path folder = [] {
    std::string pattern =
        (std::filesystem::temp_directory_path() / "starlens-fuzz-XXXXXX").string();
    if (!mkdtemp(pattern.data())) {
      std::perror("mkdtemp");
      std::abort();
    }
    std::atexit([] { std::filesystem::remove_all(spill_folder()); });
    return std::filesystem::path(pattern);
  }();
  return folder;
}

}  // namespace

void run_ingest(const IngestReader& reader) {
  catalog::ExternalSorter sorter(spill_folder() / "catalog.h5", catalog::kMinimumMemoryLimit);
  catalog::IngestTally tally;
  {
    Progress progress("fuzz", 0, true);
    reader(sorter, tally, progress);
  }
  sorter.finish([](std::span<const catalog::StarRecord>) {});
  (void)tally.sources.dump();
  (void)tally.rejections.to_json().dump();
}

}  // namespace starlens::fuzz
