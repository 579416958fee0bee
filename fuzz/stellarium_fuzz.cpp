// Stellarium stars_*.cat as `starlens-catalog ingest` reads it (ingest_stellarium: header, zone
// table, every record, the B-V temperature and V flux of each star checked by the batcher).
// InputError is the expected outcome of a bad catalogue; anything else is a finding.
#include <cstddef>
#include <cstdint>

#include "core/errors.h"
#include "fuzz_input.h"
#include "ingest_harness.h"

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  starlens::fuzz::use_one_thread();
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static starlens::fuzz::InputFile input("stars_0_0v0_8.cat");
  const std::vector<std::string> files = {input.write(data, size)};
  try {
    starlens::fuzz::run_ingest([&](auto& sorter, auto& tally, auto& progress) {
      starlens::catalog::ingest_stellarium(files, sorter, tally, progress);
    });
  } catch (const starlens::InputError&) {
  }
  return 0;
}
