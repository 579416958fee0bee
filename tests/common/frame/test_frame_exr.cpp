// The EXR frame writer and reader: exact round trips, identical bytes, and every bad file.
#include <ImfChannelList.h>
#include <ImfFrameBuffer.h>
#include <ImfHeader.h>
#include <ImfInputFile.h>
#include <ImfIntAttribute.h>
#include <ImfOutputFile.h>
#include <doctest/doctest.h>
#include <half.h>

#include <bit>
#include <cfloat>
#include <cmath>
#include <fstream>
#include <iterator>
#include <limits>
#include <vector>

#include "core/errors.h"
#include "frame/frame_io.h"
#include "frame_fixtures.h"

namespace fs = std::filesystem;
using namespace starlens;
using starlens::testing::extreme_frame;
using starlens::testing::field_frame;
using starlens::testing::fresh_folder;

namespace {

std::string file_bytes(const fs::path& path) {
  std::ifstream file(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(file), std::istreambuf_iterator<char>()};
}

void write_bytes(const fs::path& path, const std::string& bytes) {
  std::ofstream(path, std::ios::binary) << bytes;
}

bool same_bits(const Frame& a, const Frame& b) {
  if (a.width != b.width || a.height != b.height || a.rgb.size() != b.rgb.size()) return false;
  for (std::size_t k = 0; k < a.rgb.size(); ++k)
    if (std::bit_cast<std::uint64_t>(a.rgb[k]) != std::bit_cast<std::uint64_t>(b.rgb[k]))
      return false;
  return true;
}

std::size_t files_in(const fs::path& folder) {
  return std::size_t(std::distance(fs::directory_iterator(folder), fs::directory_iterator()));
}

// An EXR written directly through OpenEXR with the given FLOAT/HALF channels, for the
// reader's handling of files other programs wrote.
void write_foreign_exr(const fs::path& path, int width, int height,
                       const std::vector<std::string>& channels, Imf::PixelType type,
                       const Imath::Box2i* data_window = nullptr) {
  Imf::Header header(width, height);
  if (data_window) header.dataWindow() = *data_window;
  const Imath::Box2i window = header.dataWindow();
  const int w = window.max.x - window.min.x + 1, h = window.max.y - window.min.y + 1;
  for (const auto& name : channels) header.channels().insert(name, Imf::Channel(type));
  std::vector<float> values(std::size_t(w) * h);
  for (std::size_t k = 0; k < values.size(); ++k) values[k] = 0.25f * float(k % 7);
  const std::vector<half> halves(values.begin(), values.end());  // exact: multiples of 1/4
  Imf::FrameBuffer buffer;
  for (const auto& name : channels)
    buffer.insert(name, type == Imf::HALF ? Imf::Slice::Make(Imf::HALF, halves.data(), window)
                                          : Imf::Slice::Make(Imf::FLOAT, values.data(), window));
  Imf::OutputFile file(path.c_str(), header);
  file.setFrameBuffer(buffer);
  file.writePixels(h);
}

}  // namespace

TEST_CASE("EXR round trip is exact to the bit, denormals and huge values included") {
  const auto folder = fresh_folder("exr_round_trip");
  // 700 x 530 spans two scanline bands; 37 x 53 is not a multiple of the 16-row ZIP block.
  for (const auto& [width, height] : {std::pair{700u, 530u}, {37u, 53u}, {1u, 1u}}) {
    const Frame frame = extreme_frame(width, height, 1000 + width);
    const auto path = folder / ("frame_" + std::to_string(width) + ".exr");
    write_frame_exr(frame, path, false, "digest-" + std::to_string(width));
    const FrameFile read = read_frame_exr(path);
    CHECK(read.exact);
    CHECK(read.format_version == kFrameFormatVersion);
    CHECK(read.run_digest == "digest-" + std::to_string(width));
    CHECK(same_bits(read.frame, frame));
  }
  // The sample really contains the extremes it claims to.
  const Frame sample = extreme_frame(700, 530, 1700);
  int denormals = 0, huge = 0;
  for (double value : sample.rgb) {
    denormals += std::fpclassify(value) == FP_SUBNORMAL;
    huge += value > 1e300;
  }
  CHECK(denormals > 1000);
  CHECK(huge > 100);
  fs::remove_all(folder);
}

TEST_CASE("the FLOAT channels hold the nearest float, saturated at FLT_MAX") {
  const auto folder = fresh_folder("exr_viewer");
  Frame frame(4, 1);
  frame.rgb = {0.1, 1e300, 1e-310, DBL_MAX, 3.0, 0.0, 1.0 / 3.0, 2.5e38, 5e-46, 7.0, 1e-30, 8.0};
  const auto path = folder / "viewer.exr";
  write_frame_exr(frame, path, false, "");
  Imf::InputFile file(path.c_str());
  std::vector<float> viewer(12);
  Imf::FrameBuffer buffer;
  const char* names[] = {"R", "G", "B"};
  for (int c = 0; c < 3; ++c)
    buffer.insert(names[c], Imf::Slice::Make(Imf::FLOAT, viewer.data() + c, Imath::V2i(0, 0), 4, 1,
                                             3 * sizeof(float), 12 * sizeof(float)));
  file.setFrameBuffer(buffer);
  file.readPixels(0, 0);
  const std::vector<float> expected = {0.1f,        FLT_MAX, 0.0f, FLT_MAX, 3.0f,   0.0f,
                                       1.0f / 3.0f, 2.5e38f, 0.0f, 7.0f,    1e-30f, 8.0f};
  for (std::size_t k = 0; k < 12; ++k) CHECK(viewer[k] == expected[k]);
  fs::remove_all(folder);
}

TEST_CASE("the same frame written twice gives the same bytes") {
  const auto folder = fresh_folder("exr_bytes");
  const Frame frame = extreme_frame(120, 90, 7);
  write_frame_exr(frame, folder / "a.exr", false, "same");
  write_frame_exr(frame, folder / "b.exr", false, "same");
  CHECK(file_bytes(folder / "a.exr") == file_bytes(folder / "b.exr"));
  Frame changed = frame;
  changed.rgb[17] = std::nextafter(changed.rgb[17], 2 * changed.rgb[17] + 1);
  write_frame_exr(changed, folder / "c.exr", false, "same");
  CHECK(file_bytes(folder / "a.exr") != file_bytes(folder / "c.exr"));
  fs::remove_all(folder);
}

TEST_CASE("truncated EXR files are bad input naming the file") {
  const auto folder = fresh_folder("exr_truncated");
  const auto whole = folder / "whole.exr";
  write_frame_exr(field_frame(64, 64, 3), whole, false, "t");
  const std::string bytes = file_bytes(whole);
  for (const std::size_t keep :
       {bytes.size() - 1, bytes.size() / 2, std::size_t(400), std::size_t(40), std::size_t(4)}) {
    CAPTURE(keep);
    const auto cut = folder / ("cut_" + std::to_string(keep) + ".exr");
    write_bytes(cut, bytes.substr(0, keep));
    CHECK_THROWS_WITH_AS(read_frame_exr(cut), doctest::Contains(cut.string().c_str()), InputError);
  }
  fs::remove_all(folder);
}

TEST_CASE("missing, empty and foreign files are bad input") {
  const auto folder = fresh_folder("exr_foreign");
  CHECK_THROWS_WITH_AS(read_frame_exr(folder / "missing.exr"),
                       doctest::Contains("cannot be opened"), InputError);
  CHECK_THROWS_WITH_AS(read_frame_exr(folder), doctest::Contains("is a folder"), InputError);
  write_bytes(folder / "empty.exr", "");
  CHECK_THROWS_WITH_AS(read_frame_exr(folder / "empty.exr"), doctest::Contains("not an OpenEXR"),
                       InputError);
  write_bytes(folder / "text.exr", "P3\n1 1\n255\n0 0 0\n");
  CHECK_THROWS_WITH_AS(read_frame_exr(folder / "text.exr"), doctest::Contains("not an OpenEXR"),
                       InputError);
  // The magic number alone is not enough.
  write_bytes(folder / "magic.exr", std::string("\x76\x2f\x31\x01\x02\x00\x00\x00garbage", 15));
  CHECK_THROWS_WITH_AS(read_frame_exr(folder / "magic.exr"), doctest::Contains("magic.exr"),
                       InputError);
  fs::remove_all(folder);
}

TEST_CASE("non-finite and negative values are refused and nothing is left") {
  const auto folder = fresh_folder("exr_nonfinite");
  const double bad_values[] = {std::numeric_limits<double>::quiet_NaN(),
                               std::numeric_limits<double>::infinity(), -1e-300, -0.0 - 1.0};
  for (const double bad : bad_values) {
    Frame frame = field_frame(10, 8, 1);
    frame.pixel(3, 5)[2] = bad;
    CHECK_THROWS_WITH_AS(write_frame_exr(frame, folder / "bad.exr", false, ""),
                         doctest::Contains("pixel (3, 5) channel B"), RunFailure);
    CHECK(files_in(folder) == 0);
  }
  fs::remove_all(folder);
}

TEST_CASE("a frame of size 0 is bad input") {
  const auto folder = fresh_folder("exr_empty_frame");
  CHECK_THROWS_WITH_AS(write_frame_exr(Frame(0, 5), folder / "zero.exr", false, ""),
                       doctest::Contains("frame of size 0"), InputError);
  CHECK_THROWS_WITH_AS(write_frame_exr(Frame(), folder / "zero.exr", false, ""),
                       doctest::Contains("frame of size 0"), InputError);
  CHECK(files_in(folder) == 0);
  fs::remove_all(folder);
}

TEST_CASE("a frame beyond the format's limits is refused, reading and writing") {
  const auto folder = fresh_folder("exr_limits");
  // A valid OpenEXR file of 1 x 70000 pixels: one side above the 65536 a frame may have.
  Imf::Header header(1, 70000);
  for (const char* name : {"R", "G", "B"}) header.channels().insert(name, Imf::Channel(Imf::FLOAT));
  std::vector<float> values(70000, 1.0f);
  Imf::FrameBuffer buffer;
  for (const char* name : {"R", "G", "B"})
    buffer.insert(name, Imf::Slice::Make(Imf::FLOAT, values.data(), header.dataWindow()));
  {
    Imf::OutputFile file((folder / "tall.exr").c_str(), header);
    file.setFrameBuffer(buffer);
    file.writePixels(70000);
  }
  const std::string path = (folder / "tall.exr").string();
  CHECK_THROWS_WITH_AS(read_frame_exr(path),
                       (path + ": dataWindow height: 70000 is outside 1..65536 px").c_str(),
                       InputError);
  CHECK_THROWS_WITH_AS(write_frame_exr(Frame(70000, 1), folder / "wide.exr", false, ""),
                       doctest::Contains("wide.exr: width: 70000 is outside 1..65536 px"),
                       InputError);
  CHECK(!fs::exists(folder / "wide.exr"));
  fs::remove_all(folder);
}

TEST_CASE("existing outputs need force; missing folders are bad input") {
  const auto folder = fresh_folder("exr_force");
  const Frame first = field_frame(5, 4, 1), second = field_frame(5, 4, 2);
  write_frame_exr(first, folder / "f.exr", false, "");
  CHECK_THROWS_WITH_AS(write_frame_exr(second, folder / "f.exr", false, ""),
                       doctest::Contains("--force"), InputError);
  CHECK(same_bits(read_frame_exr(folder / "f.exr").frame, first));
  write_frame_exr(second, folder / "f.exr", true, "");
  CHECK(same_bits(read_frame_exr(folder / "f.exr").frame, second));
  CHECK_THROWS_AS(write_frame_exr(first, folder / "no" / "f.exr", false, ""), InputError);
  fs::remove_all(folder);
}

TEST_CASE("files of other programs: FLOAT or HALF R, G, B are read, other layouts refused") {
  const auto folder = fresh_folder("exr_other");
  for (const auto type : {Imf::FLOAT, Imf::HALF}) {
    write_foreign_exr(folder / "rgb.exr", 9, 4, {"R", "G", "B"}, type);
    const FrameFile read = read_frame_exr(folder / "rgb.exr");
    CHECK_FALSE(read.exact);
    CHECK(read.format_version == 0);
    CHECK(read.run_digest.empty());
    REQUIRE(read.frame.width == 9);
    REQUIRE(read.frame.height == 4);
    for (std::uint32_t j = 0; j < 4; ++j)
      for (std::uint32_t i = 0; i < 9; ++i)
        for (int c = 0; c < 3; ++c) CHECK(read.frame.pixel(i, j)[c] == 0.25 * ((j * 9 + i) % 7));
    fs::remove(folder / "rgb.exr");
  }
  write_foreign_exr(folder / "rg.exr", 9, 4, {"R", "G"}, Imf::FLOAT);
  CHECK_THROWS_WITH_AS(read_frame_exr(folder / "rg.exr"), doctest::Contains("channel B: missing"),
                       InputError);
  write_foreign_exr(folder / "y.exr", 9, 4, {"Y"}, Imf::HALF);
  CHECK_THROWS_WITH_AS(read_frame_exr(folder / "y.exr"), doctest::Contains("channel R: missing"),
                       InputError);
  // Only some float64 word channels: the FLOAT channels are used.
  write_foreign_exr(folder / "partial.exr", 3, 2, {"R", "G", "B"}, Imf::FLOAT);
  {
    Imf::Header header(3, 2);
    for (const char* name : {"R", "G", "B"})
      header.channels().insert(name, Imf::Channel(Imf::FLOAT));
    header.channels().insert("R.f64hi", Imf::Channel(Imf::UINT));
    std::vector<float> values(6, 2.0f);
    Imf::FrameBuffer buffer;
    for (const char* name : {"R", "G", "B"})
      buffer.insert(name, Imf::Slice::Make(Imf::FLOAT, values.data(), header.dataWindow()));
    Imf::OutputFile file((folder / "partial.exr").c_str(), header);
    file.setFrameBuffer(buffer);
    file.writePixels(2);
  }
  const FrameFile partial = read_frame_exr(folder / "partial.exr");
  CHECK_FALSE(partial.exact);
  CHECK(partial.frame.pixel(2, 1)[1] == 2.0);
  fs::remove_all(folder);
}

TEST_CASE("a data window other than the display window is refused") {
  const auto folder = fresh_folder("exr_window");
  const Imath::Box2i cropped(Imath::V2i(1, 1), Imath::V2i(5, 3));
  write_foreign_exr(folder / "crop.exr", 8, 6, {"R", "G", "B"}, Imf::FLOAT, &cropped);
  CHECK_THROWS_WITH_AS(read_frame_exr(folder / "crop.exr"), doctest::Contains("dataWindow"),
                       InputError);
  fs::remove_all(folder);
}

TEST_CASE("a part of more channels than a frame has is refused before OpenEXR opens it") {
  // OpenEXR sizes a part's line buffers by its width and channels when it opens the part.
  const auto folder = fresh_folder("exr_channels");
  std::vector<std::string> channels = {"R", "G", "B"};
  for (int k = 0; k < 30; ++k) channels.push_back("extra" + std::to_string(k));
  write_foreign_exr(folder / "layers.exr", 8, 6, channels, Imf::FLOAT);
  CHECK_THROWS_WITH_AS(
      read_frame_exr(folder / "layers.exr"),
      doctest::Contains("layers.exr: part 0: 33 channels, more than a frame part may have (32)"),
      InputError);
  channels.resize(32);
  write_foreign_exr(folder / "some.exr", 8, 6, channels, Imf::FLOAT);
  CHECK(read_frame_exr(folder / "some.exr").frame.width == 8);
  fs::remove_all(folder);
}

TEST_CASE("a newer format version is refused") {
  const auto folder = fresh_folder("exr_version");
  Imf::Header header(2, 2);
  for (const char* name : {"R", "G", "B"}) header.channels().insert(name, Imf::Channel(Imf::FLOAT));
  header.insert("starlensFormatVersion", Imf::IntAttribute(kFrameFormatVersion + 1));
  std::vector<float> values(4, 1.0f);
  Imf::FrameBuffer buffer;
  for (const char* name : {"R", "G", "B"})
    buffer.insert(name, Imf::Slice::Make(Imf::FLOAT, values.data(), header.dataWindow()));
  {
    Imf::OutputFile file((folder / "v2.exr").c_str(), header);
    file.setFrameBuffer(buffer);
    file.writePixels(2);
  }
  CHECK_THROWS_WITH_AS(read_frame_exr(folder / "v2.exr"),
                       doctest::Contains("starlensFormatVersion"), InputError);
  fs::remove_all(folder);
}

TEST_CASE("an attribute declaring more bytes than the file holds or than the bound is refused") {
  const auto folder = fresh_folder("exr_attribute_size");
  const auto whole = folder / "whole.exr";
  write_frame_exr(field_frame(16, 8, 5), whole, false, "t");
  const std::string bytes = file_bytes(whole);
  // An attribute of a type OpenEXR does not know, first in part 0's header (after the magic
  // number and the version field): OpenEXR allocated the declared size whole (1.75 GB here)
  // before reading the value.
  const auto with_attribute = [&](std::int32_t declared, std::size_t stored) {
    std::string attribute = std::string("starlensJunk") + '\0' + "bogus" + '\0';
    for (int i = 0; i < 4; ++i) attribute.push_back(static_cast<char>(declared >> (8 * i)));
    attribute.append(stored, 'x');
    return bytes.substr(0, 8) + attribute + bytes.substr(8);
  };
  const auto huge = folder / "huge.exr";
  write_bytes(huge, with_attribute(1750000000, 8));
  const std::string left = std::to_string(bytes.size());  // after the size field
  CHECK_THROWS_WITH_AS(read_frame_exr(huge),
                       (huge.string() +
                        ": part 0 attribute starlensJunk: declares 1750000000 "
                        "bytes, " +
                        left + " are left in the file")
                           .c_str(),
                       InputError);
  const auto negative = folder / "negative.exr";
  write_bytes(negative, with_attribute(-5, 8));
  CHECK_THROWS_WITH_AS(
      read_frame_exr(negative),
      (negative.string() + ": part 0 attribute starlensJunk: negative size -5").c_str(),
      InputError);
  // Within the file but above the bound every attribute is held to.
  const std::int32_t above = (16 << 20) + 1;
  const auto large = folder / "large.exr";
  write_bytes(large, with_attribute(above, std::size_t(above)));
  CHECK_THROWS_WITH_AS(read_frame_exr(large),
                       (large.string() + ": part 0 attribute starlensJunk: declares 16777217 "
                                         "bytes, more than an attribute may have (16777216)")
                           .c_str(),
                       InputError);
  // A known type whose declared size is not what OpenEXR reads for it: OpenEXR would read the
  // rest of the header out of step (a channel list up to its empty name, a box as 16 bytes).
  const auto resized = [&](const std::string& name_and_type, int delta) {
    std::string changed = bytes;
    const std::size_t at = changed.find(name_and_type);
    REQUIRE(at != std::string::npos);
    changed[at + name_and_type.size()] =
        static_cast<char>(changed[at + name_and_type.size()] + delta);
    return changed;
  };
  const auto channels = folder / "channels.exr";
  write_bytes(channels, resized(std::string("channels") + '\0' + "chlist" + '\0', 4));
  CHECK_THROWS_WITH_AS(read_frame_exr(channels),
                       (channels.string() + ": part 0 attribute channels: of type chlist: the "
                                            "channel list ends before its declared size")
                           .c_str(),
                       InputError);
  const auto window = folder / "window.exr";
  write_bytes(window, resized(std::string("dataWindow") + '\0' + "box2i" + '\0', -12));
  CHECK_THROWS_WITH_AS(read_frame_exr(window),
                       (window.string() + ": part 0 attribute dataWindow: of type box2i: declares "
                                          "4 bytes, the type holds 16")
                           .c_str(),
                       InputError);
  // The same attribute of a sensible size passes the walk (the file, its chunk offsets now 20
  // bytes off, may then fail on its pixels, as any corrupt file does).
  const auto small = folder / "small.exr";
  write_bytes(small, with_attribute(8, 8));
  std::string message;
  try {
    read_frame_exr(small);
  } catch (const InputError& e) {
    message = e.what();
  }
  CHECK_MESSAGE(message.find("starlensJunk") == std::string::npos, message);
  fs::remove_all(folder);
}
