#include "ingest_harness.h"

#include "fuzz_input.h"

namespace starlens::fuzz {

void run_ingest(const IngestReader& reader) {
  catalog::ExternalSorter sorter(private_folder() / "catalog.h5", catalog::kMinimumMemoryLimit);
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
