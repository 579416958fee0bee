// 2MASS psc_*.gz as `starlens-catalog ingest` reads it (ingest_twomass, band J: the gzip
// stream, every row's 60 fields, rejections with their details, J-Ks temperatures and fluxes
// checked by the batcher). An input that starts with the gzip magic is used as the file, so the
// decompression is fuzzed too; any other input is the text of the rows, gzip-compressed here so
// that mutations reach the row parser. InputError is the expected outcome of a bad file;
// anything else is a finding.
#include <zlib.h>

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <vector>

#include "catalog/photometry.h"
#include "core/errors.h"
#include "fuzz_input.h"
#include "ingest_harness.h"

namespace {

std::vector<std::uint8_t> gzip(const std::uint8_t* data, std::size_t size) {
  z_stream stream{};
  if (deflateInit2(&stream, 1, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) != Z_OK) std::abort();
  std::vector<std::uint8_t> out(deflateBound(&stream, size) + 32);
  stream.next_in = const_cast<Bytef*>(data);
  stream.avail_in = static_cast<uInt>(size);
  stream.next_out = out.data();
  stream.avail_out = static_cast<uInt>(out.size());
  if (deflate(&stream, Z_FINISH) != Z_STREAM_END) std::abort();
  out.resize(stream.total_out);
  deflateEnd(&stream);
  return out;
}

}  // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  starlens::fuzz::use_one_thread();
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static starlens::fuzz::InputFile input("psc_aaa.gz");
  const bool compressed = size >= 2 && data[0] == 0x1f && data[1] == 0x8b;
  const std::vector<std::uint8_t> packed =
      compressed ? std::vector<std::uint8_t>(data, data + size) : gzip(data, size);
  const std::vector<std::string> files = {input.write(packed.data(), packed.size())};
  try {
    const starlens::catalog::Band& band = starlens::catalog::band_by_name("J", "--band");
    starlens::fuzz::run_ingest([&](auto& sorter, auto& tally, auto& progress) {
      starlens::catalog::ingest_twomass(files, band, sorter, tally, progress);
    });
  } catch (const starlens::InputError&) {
  }
  return 0;
}
