// catalog.h5 as starlens-produce and `starlens-catalog info` read it: the store's validation,
// every cell through for_each_block (offsets, positions, checks and decoding) and every row's
// photometry and source. The bytes are an HDF5 file image opened by path through HDF5's own driver.
// InputError is the expected outcome of a bad store; anything else is a finding.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "catalog/store_reader.h"
#include "core/errors.h"
#include "fuzz_input.h"

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  starlens::fuzz::use_one_thread();
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static starlens::fuzz::InputFile input("catalog.h5");
  constexpr std::uint64_t kRowsPerRead = 1 << 12;
  try {
    starlens::catalog::CatalogStore store(input.write(data, size));
    (void)store.sources_json();
    store.for_each_block(0, store.cell_count(), kRowsPerRead,
                         [](const starlens::catalog::CellBlock&) {});
    std::vector<float> teff, flux;
    for (std::uint64_t first = 0; first < store.star_count(); first += kRowsPerRead) {
      const std::uint64_t rows = std::min(kRowsPerRead, store.star_count() - first);
      store.read_photometry(first, rows, teff, flux);
      (void)store.read_sources(first, rows);
    }
  } catch (const starlens::InputError&) {
  }
  return 0;
}
