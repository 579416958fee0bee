// CSV catalogues as `starlens-catalog ingest --band V` reads them (ingest_csv: header, every
// line, B-V or given temperatures, fluxes checked by the batcher). InputError is the expected
// outcome of a bad catalogue; anything else is a finding.
#include <cstddef>
#include <cstdint>

#include "catalog/photometry.h"
#include "core/errors.h"
#include "fuzz_input.h"
#include "ingest_harness.h"

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  starlens::fuzz::use_one_thread();
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static starlens::fuzz::InputFile input("stars.csv");
  const std::vector<std::string> files = {input.write(data, size)};
  try {
    const starlens::catalog::Band& band = starlens::catalog::band_by_name("V", "--band");
    starlens::fuzz::run_ingest([&](auto& sorter, auto& tally, auto& progress) {
      (void)starlens::catalog::ingest_csv(files, band, {}, false, sorter, tally, progress);
    });
  } catch (const starlens::InputError&) {
  }
  return 0;
}
