// frame.exr as starlens-compare reads it: the streaming reader's header checks, every band of
// rows (band_rows, as compare_frames reads them), and the header strings as the --report JSON
// holds them. InputError is the expected outcome of a bad frame; anything else is a finding.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <nlohmann/json.hpp>
#include <vector>

#include "core/errors.h"
#include "frame/exr_chunking.h"
#include "frame/exr_reader.h"
#include "fuzz_input.h"

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  starlens::fuzz::use_one_thread();
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static starlens::fuzz::InputFile input("frame.exr");
  try {
    starlens::ExrFrameReader frame(input.write(data, size));
    const std::uint32_t band = starlens::exr_layout::band_rows(frame.width());
    std::vector<double> rows(std::size_t(band) * frame.width() * 3);
    for (std::uint32_t first = 0; first < frame.height(); first += band)
      frame.read_rows(first, std::min(band, frame.height() - first), rows.data());
    const nlohmann::json report = {{"width", frame.width()},
                                   {"height", frame.height()},
                                   {"exact", frame.exact()},
                                   {"format_version", frame.format_version()},
                                   {"run_digest", frame.run_digest()}};
    (void)report.dump(2);
  } catch (const starlens::InputError&) {
  }
  return 0;
}
