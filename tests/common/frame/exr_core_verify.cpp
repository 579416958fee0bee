// An independent reader of starlens frame files, written against OpenEXR's C core API
// (openexr.h: exr_start_read, exr_decoding_*), not the Imf C++ API the library uses.
// Usage: exr_core_verify FRAME.exr VALUES.f64 DIGEST
// VALUES.f64 holds the doubles that were written (little-endian, RGB interleaved, row-major).
// Rebuilds every double from its R.f64hi/R.f64lo... words and checks it bit for bit, checks
// the FLOAT channels against the nearest float (saturated at FLT_MAX), the ZIP compression and
// the starlens attributes. Exit 0 when all match, 1 on the first mismatch, 2 on usage errors.
#include <openexr.h>

#include <bit>
#include <cfloat>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <fstream>
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

// Planar per-chunk buffers for the nine channels: R G B words hi, lo and the viewer float.
struct ChunkPlanes {
  std::vector<std::uint32_t> high[3], low[3];
  std::vector<float> viewer[3];
};

// Index of a channel name in "RGB" with its role, or -1 for a channel we do not use.
int channel_slot(const char* name, int& role) {
  static const char* const names[3][3] = {
      {"R.f64hi", "G.f64hi", "B.f64hi"}, {"R.f64lo", "G.f64lo", "B.f64lo"}, {"R", "G", "B"}};
  for (role = 0; role < 3; ++role)
    for (int c = 0; c < 3; ++c)
      if (std::strcmp(name, names[role][c]) == 0) return c;
  return -1;
}

int verify(exr_context_t context, const std::vector<double>& reference, const char* digest) {
  int parts = 0;
  exr_get_count(context, &parts);
  exr_storage_t storage;
  exr_get_storage(context, 0, &storage);
  exr_compression_t compression;
  exr_get_compression(context, 0, &compression);
  if (parts != 1 || storage != EXR_STORAGE_SCANLINE) return fail("not a single scanline part");
  if (compression != EXR_COMPRESSION_ZIP) return fail("compression is not ZIP");

  int32_t version = 0;
  if (exr_attr_get_int(context, 0, "starlensFormatVersion", &version) != EXR_ERR_SUCCESS ||
      version != 1)
    return fail("starlensFormatVersion missing or not 1");
  int32_t length = 0;
  const char* stored_digest = nullptr;
  if (exr_attr_get_string(context, 0, "starlensRunDigest", &length, &stored_digest) !=
          EXR_ERR_SUCCESS ||
      std::string(stored_digest, std::size_t(length)) != digest)
    return fail("starlensRunDigest missing or different");

  const exr_attr_chlist_t* channels = nullptr;
  exr_get_channels(context, 0, &channels);
  int used = 0;
  for (int k = 0; k < channels->num_channels; ++k) {
    int role = 0;
    if (channel_slot(channels->entries[k].name.str, role) < 0) continue;
    const exr_pixel_type_t want = role == 2 ? EXR_PIXEL_FLOAT : EXR_PIXEL_UINT;
    if (channels->entries[k].pixel_type != want) return fail("channel of the wrong type");
    ++used;
  }
  if (channels->num_channels != 9 || used != 9) return fail("expected exactly the 9 channels");

  exr_attr_box2i_t window;
  exr_get_data_window(context, 0, &window);
  const int64_t width = int64_t(window.max.x) - window.min.x + 1;
  const int64_t height = int64_t(window.max.y) - window.min.y + 1;
  if (uint64_t(width * height * 3) != reference.size())
    return fail("frame size does not match the reference values");
  int32_t lines_per_chunk = 0;
  exr_get_scanlines_per_chunk(context, 0, &lines_per_chunk);

  ChunkPlanes planes;
  const std::size_t plane_size = std::size_t(width) * std::size_t(lines_per_chunk);
  for (int c = 0; c < 3; ++c) {
    planes.high[c].resize(plane_size);
    planes.low[c].resize(plane_size);
    planes.viewer[c].resize(plane_size);
  }
  exr_decode_pipeline_t decoder{};  // EXR_DECODE_PIPELINE_INITIALIZER: all zero
  bool initialised = false;
  int status = 0;
  for (int y = window.min.y; y <= window.max.y && status == 0; y += lines_per_chunk) {
    exr_chunk_info_t chunk;
    exr_result_t result = exr_read_scanline_chunk_info(context, 0, y, &chunk);
    if (result == EXR_ERR_SUCCESS)
      result = initialised ? exr_decoding_update(context, 0, &chunk, &decoder)
                           : exr_decoding_initialize(context, 0, &chunk, &decoder);
    if (result != EXR_ERR_SUCCESS) {
      status = fail("chunk at y " + std::to_string(y) + ": " + describe(result));
      break;
    }
    initialised = true;
    for (int k = 0; k < decoder.channel_count; ++k) {
      exr_coding_channel_info_t& channel = decoder.channels[k];
      int role = 0;
      const int c = channel_slot(channel.channel_name, role);
      void* target = role == 0   ? static_cast<void*>(planes.high[c].data())
                     : role == 1 ? static_cast<void*>(planes.low[c].data())
                                 : static_cast<void*>(planes.viewer[c].data());
      channel.decode_to_ptr = static_cast<uint8_t*>(target);
      channel.user_pixel_stride = 4;
      channel.user_line_stride = int32_t(4 * width);
      channel.user_bytes_per_element = 4;
      channel.user_data_type = channel.data_type;
    }
    result = exr_decoding_choose_default_routines(context, 0, &decoder);
    if (result == EXR_ERR_SUCCESS) result = exr_decoding_run(context, 0, &decoder);
    if (result != EXR_ERR_SUCCESS) {
      status = fail("decoding y " + std::to_string(y) + ": " + describe(result));
      break;
    }
    for (int line = 0; line < chunk.height && status == 0; ++line) {
      for (int64_t x = 0; x < width && status == 0; ++x) {
        const std::size_t in_chunk = std::size_t(line) * std::size_t(width) + std::size_t(x);
        const std::size_t row = std::size_t(y - window.min.y + line);
        for (int c = 0; c < 3; ++c) {
          const uint64_t bits =
              (uint64_t(planes.high[c][in_chunk]) << 32) | uint64_t(planes.low[c][in_chunk]);
          const double expected = reference[3 * (row * std::size_t(width) + std::size_t(x)) + c];
          const float expected_viewer =
              expected >= double(FLT_MAX) ? FLT_MAX : static_cast<float>(expected);
          if (bits != std::bit_cast<uint64_t>(expected) ||
              std::bit_cast<uint32_t>(planes.viewer[c][in_chunk]) !=
                  std::bit_cast<uint32_t>(expected_viewer)) {
            char message[200];
            std::snprintf(message, sizeof message,
                          "pixel (%lld, %zu) channel %c: read %a / %a, written %a",
                          static_cast<long long>(x), row, "RGB"[c], std::bit_cast<double>(bits),
                          double(planes.viewer[c][in_chunk]), expected);
            status = fail(message);
            break;
          }
        }
      }
    }
  }
  if (initialised) exr_decoding_destroy(context, &decoder);
  if (status == 0)
    std::printf("exr_core_verify: %lld x %lld pixels, 9 channels: every double matches\n",
                static_cast<long long>(width), static_cast<long long>(height));
  return status;
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
