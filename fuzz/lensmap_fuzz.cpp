// lensmap.h5 as starlens-produce and `starlens-trace inspect` read it: the reader's format,
// shape and attribute checks, then every vertex and triangle row in pieces. The bytes are an
// HDF5 file image opened by path through HDF5's own driver. InputError is the expected outcome
// of a bad map; anything else is a finding.
#include <algorithm>
#include <cstddef>
#include <cstdint>

#include "core/errors.h"
#include "fuzz_input.h"
#include "lensmap/lensmap_file.h"

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  starlens::fuzz::use_one_thread();
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static starlens::fuzz::InputFile input("lensmap.h5");
  constexpr std::uint64_t kRowsPerRead = 1 << 12;
  try {
    const starlens::LensmapReader reader(input.write(data, size));
    for (std::uint64_t first = 0; first < reader.vertex_count(); first += kRowsPerRead)
      (void)reader.read_vertices(first, std::min(kRowsPerRead, reader.vertex_count() - first));
    for (std::uint64_t first = 0; first < reader.triangle_count(); first += kRowsPerRead)
      (void)reader.read_triangles(first, std::min(kRowsPerRead, reader.triangle_count() - first));
  } catch (const starlens::InputError&) {
  }
  return 0;
}
