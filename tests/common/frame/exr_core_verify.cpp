// An independent reader of starlens frame files, written against OpenEXR's C core API
// (openexr.h: exr_start_read, exr_decoding_*), not the Imf C++ API the library uses.
// Usage: exr_core_verify FRAME.exr VALUES.f64 DIGEST
// VALUES.f64 holds the doubles that were written (little-endian, RGB interleaved, row-major).
// Rebuilds every double from the f64hi.R/f64lo.R... words of part "exact" and checks it bit for
// bit, checks the FLOAT channels of part "rgba" against the nearest float of the value over
// starlensExposure (saturated at FLT_MAX), the ZIP compression and the starlens attributes. Exit 0
// when all match, 1 on the first mismatch, 2 on usage errors.
#include <openexr.h>

#include <bit>
#include <cfloat>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <map>
#include <string>
#include <vector>

namespace {

int fail(const std::string& message) {
  std::fprintf(stderr, "exr_core_verify: %s\n", message.c_str());
  return 1;
}

std::string describe(exr_result_t result) {
  return exr_get_error_code_as_string(result);
}

std::vector<double> read_reference(const char* path) {
  std::ifstream file(path, std::ios::binary | std::ios::ate);
  std::vector<double> values(std::size_t(file.tellg()) / sizeof(double));
  file.seekg(0);
  file.read(reinterpret_cast<char*>(values.data()), std::streamsize(values.size() * 8));
  return values;
}

// Whole-frame planes of one part's channels, by name (small test frames).
using Planes = std::map<std::string, std::vector<uint32_t>>;

// Decodes every chunk of scanline part `part` into `planes` (32-bit channels only).
int decode_part(exr_context_t context, int part, int64_t width, int64_t height, Planes& planes) {
  exr_attr_box2i_t window;
  exr_get_data_window(context, part, &window);
  int32_t lines_per_chunk = 0;
  exr_get_scanlines_per_chunk(context, part, &lines_per_chunk);
  const exr_attr_chlist_t* channels = nullptr;
  exr_get_channels(context, part, &channels);
  for (int k = 0; k < channels->num_channels; ++k)
    planes[channels->entries[k].name.str].assign(std::size_t(width * height), 0);
  exr_decode_pipeline_t decoder{};  // EXR_DECODE_PIPELINE_INITIALIZER: all zero
  bool initialised = false;
  int status = 0;
  for (int y = window.min.y; y <= window.max.y; y += lines_per_chunk) {
    exr_chunk_info_t chunk;
    exr_result_t result = exr_read_scanline_chunk_info(context, part, y, &chunk);
    if (result == EXR_ERR_SUCCESS)
      result = initialised ? exr_decoding_update(context, part, &chunk, &decoder)
                           : exr_decoding_initialize(context, part, &chunk, &decoder);
    if (result != EXR_ERR_SUCCESS) {
      status = fail("part " + std::to_string(part) + " chunk at y " + std::to_string(y) + ": " +
                    describe(result));
      break;
    }
    initialised = true;
    for (int k = 0; k < decoder.channel_count; ++k) {
      exr_coding_channel_info_t& channel = decoder.channels[k];
      std::vector<uint32_t>& plane = planes[channel.channel_name];
      channel.decode_to_ptr =
          reinterpret_cast<uint8_t*>(plane.data() + std::size_t(y - window.min.y) * width);
      channel.user_pixel_stride = 4;
      channel.user_line_stride = int32_t(4 * width);
      channel.user_bytes_per_element = 4;
      channel.user_data_type = channel.data_type;
    }
    result = exr_decoding_choose_default_routines(context, part, &decoder);
    if (result == EXR_ERR_SUCCESS) result = exr_decoding_run(context, part, &decoder);
    if (result != EXR_ERR_SUCCESS) {
      status = fail("decoding part " + std::to_string(part) + " y " + std::to_string(y) + ": " +
                    describe(result));
      break;
    }
  }
  if (initialised) exr_decoding_destroy(context, &decoder);
  return status;
}

// The names and types of a part's channels, as "name:type" sorted by name.
std::string channel_summary(exr_context_t context, int part) {
  const exr_attr_chlist_t* channels = nullptr;
  exr_get_channels(context, part, &channels);
  std::string summary;
  for (int k = 0; k < channels->num_channels; ++k) {
    if (!summary.empty()) summary += " ";
    summary += channels->entries[k].name.str;
    summary += channels->entries[k].pixel_type == EXR_PIXEL_FLOAT  ? ":float"
               : channels->entries[k].pixel_type == EXR_PIXEL_UINT ? ":uint"
                                                                   : ":other";
  }
  return summary;
}

std::string part_name(exr_context_t context, int part) {
  const char* name = nullptr;
  if (exr_get_name(context, part, &name) != EXR_ERR_SUCCESS || !name) return "";
  return name;
}

int verify(exr_context_t context, const std::vector<double>& reference, const char* digest) {
  int parts = 0;
  exr_get_count(context, &parts);
  if (parts != 2) return fail("expected two parts, found " + std::to_string(parts));
  if (part_name(context, 0) != "rgba" || part_name(context, 1) != "exact")
    return fail("parts are not named rgba and exact");
  for (int part = 0; part < 2; ++part) {
    exr_storage_t storage;
    exr_get_storage(context, part, &storage);
    exr_compression_t compression;
    exr_get_compression(context, part, &compression);
    if (storage != EXR_STORAGE_SCANLINE) return fail("a part is not scanline");
    if (compression != EXR_COMPRESSION_ZIP) return fail("compression is not ZIP");
  }
  if (channel_summary(context, 0) != "B:float G:float R:float")
    return fail("part rgba has channels " + channel_summary(context, 0));
  if (channel_summary(context, 1) !=
      "f64hi.B:uint f64hi.G:uint f64hi.R:uint f64lo.B:uint f64lo.G:uint f64lo.R:uint")
    return fail("part exact has channels " + channel_summary(context, 1));

  int32_t version = 0;
  if (exr_attr_get_int(context, 0, "starlensFormatVersion", &version) != EXR_ERR_SUCCESS ||
      version != 2)
    return fail("starlensFormatVersion missing or not 2");
  int32_t length = 0;
  const char* stored_digest = nullptr;
  if (exr_attr_get_string(context, 0, "starlensRunDigest", &length, &stored_digest) !=
          EXR_ERR_SUCCESS ||
      std::string(stored_digest, std::size_t(length)) != digest)
    return fail("starlensRunDigest missing or different");
  double exposure = 0;
  if (exr_attr_get_double(context, 0, "starlensExposure", &exposure) != EXR_ERR_SUCCESS ||
      !(exposure > 0))
    return fail("starlensExposure missing or not positive");

  exr_attr_box2i_t window;
  exr_get_data_window(context, 0, &window);
  const int64_t width = int64_t(window.max.x) - window.min.x + 1;
  const int64_t height = int64_t(window.max.y) - window.min.y + 1;
  if (uint64_t(width * height * 3) != reference.size())
    return fail("frame size does not match the reference values");
  Planes viewer, exact;
  if (int status = decode_part(context, 0, width, height, viewer)) return status;
  if (int status = decode_part(context, 1, width, height, exact)) return status;

  const char* colours[] = {"R", "G", "B"};
  for (std::size_t pixel = 0; pixel < std::size_t(width * height); ++pixel) {
    for (int c = 0; c < 3; ++c) {
      const std::string colour = colours[c];
      const uint64_t bits = (uint64_t(exact["f64hi." + colour][pixel]) << 32) |
                            uint64_t(exact["f64lo." + colour][pixel]);
      const double expected = reference[3 * pixel + c];
      const double scaled = expected / exposure;
      const float expected_viewer = scaled >= double(FLT_MAX) ? FLT_MAX : float(scaled);
      const uint32_t viewer_bits = viewer[colour][pixel];
      if (bits != std::bit_cast<uint64_t>(expected) ||
          viewer_bits != std::bit_cast<uint32_t>(expected_viewer)) {
        char message[200];
        std::snprintf(message, sizeof message, "pixel %zu channel %c: read %a / %a, written %a",
                      pixel, "RGB"[c], std::bit_cast<double>(bits),
                      double(std::bit_cast<float>(viewer_bits)), expected);
        return fail(message);
      }
    }
  }
  std::printf("exr_core_verify: %lld x %lld pixels, parts rgba and exact: every double matches\n",
              static_cast<long long>(width), static_cast<long long>(height));
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 4) {
    std::fprintf(stderr, "usage: exr_core_verify FRAME.exr VALUES.f64 DIGEST\n");
    return 2;
  }
  const std::vector<double> reference = read_reference(argv[2]);
  exr_context_t context = nullptr;
  const exr_result_t opened = exr_start_read(&context, argv[1], nullptr);  // default options
  if (opened != EXR_ERR_SUCCESS) return fail(std::string("cannot open: ") + describe(opened));
  const int status = verify(context, reference, argv[3]);
  exr_finish(&context);
  return status;
}
