// The two-part frame layout (format version 2): what OpenEXR's own multi-part API finds in
// each part, the exposure baked into the viewer part, the header's metadata, the version 1
// files still read, and the files of version 2 that lack their exact part.
#include <ImfChannelList.h>
#include <ImfDoubleAttribute.h>
#include <ImfFrameBuffer.h>
#include <ImfHeader.h>
#include <ImfInputPart.h>
#include <ImfIntAttribute.h>
#include <ImfMultiPartInputFile.h>
#include <ImfOutputFile.h>
#include <ImfStandardAttributes.h>
#include <ImfStringAttribute.h>
#include <doctest/doctest.h>

#include <bit>
#include <cfloat>
#include <cstring>
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

std::vector<std::string> channel_list(const Imf::Header& header) {
  std::vector<std::string> names;
  for (auto channel = header.channels().begin(); channel != header.channels().end(); ++channel)
    names.emplace_back(channel.name());
  return names;
}

FrameMetadata equirect_metadata(std::uint32_t width, std::uint32_t height) {
  FrameMetadata metadata;
  metadata.run_digest = "d1";
  metadata.exposure = 0.015625;
  metadata.frame_number = 41;
  FrameCamera camera;
  camera.projection = "equirect";
  camera.fov_deg = 360;
  camera.look_ra_deg = 266.4;
  camera.look_dec_deg = -28.9;
  camera.roll_deg = 12.5;
  camera.width = width;
  camera.height = height;
  metadata.camera = camera;
  FrameScene scene;
  scene.spacetime = "kerr";
  scene.r_obs = 30;
  scene.spin = 0.9;
  scene.observer = "velocity";
  scene.observer_velocity = {0.1, -0.2, 0.3};
  metadata.scene = scene;
  return metadata;
}

}  // namespace

TEST_CASE("part 0 'rgba' holds the viewer floats, part 1 'exact' the words, as OpenEXR sees them") {
  const auto folder = fresh_folder("exr_parts");
  const Frame frame = field_frame(37, 21, 5);
  FrameMetadata metadata;
  metadata.exposure = 0.01;
  const auto path = folder / "f.exr";
  write_frame_exr(frame, path, false, metadata);

  Imf::MultiPartInputFile file(path.c_str());
  REQUIRE(file.parts() == 2);
  CHECK(file.header(0).name() == "rgba");
  CHECK(file.header(1).name() == "exact");
  CHECK(channel_list(file.header(0)) == std::vector<std::string>{"B", "G", "R"});
  CHECK(channel_list(file.header(1)) ==
        std::vector<std::string>{"f64hi.B", "f64hi.G", "f64hi.R", "f64lo.B", "f64lo.G", "f64lo.R"});
  for (int part = 0; part < 2; ++part)
    CHECK(file.header(part).compression() == Imf::ZIP_COMPRESSION);
  for (const char* name : {"R", "G", "B"})
    CHECK(file.header(0).channels().findChannel(name)->type == Imf::FLOAT);

  // The viewer floats are the values over the exposure, to the nearest float.
  Imf::InputPart viewer(file, 0);
  std::vector<float> floats(std::size_t(37) * 21 * 3);
  Imf::FrameBuffer buffer;
  const char* names[] = {"R", "G", "B"};
  for (int c = 0; c < 3; ++c)
    buffer.insert(names[c], Imf::Slice::Make(Imf::FLOAT, floats.data() + c, Imath::V2i(0, 0), 37,
                                             21, 3 * sizeof(float), 3 * sizeof(float) * 37));
  viewer.setFrameBuffer(buffer);
  viewer.readPixels(0, 20);
  for (std::size_t k = 0; k < floats.size(); ++k) CHECK(floats[k] == float(frame.rgb[k] / 0.01));

  // The words of part 1 rebuild each double.
  Imf::InputPart exact(file, 1);
  std::vector<std::uint32_t> high(floats.size()), low(floats.size());
  Imf::FrameBuffer words;
  for (int c = 0; c < 3; ++c) {
    words.insert(std::string("f64hi.") + names[c],
                 Imf::Slice::Make(Imf::UINT, high.data() + c, Imath::V2i(0, 0), 37, 21,
                                  3 * sizeof(std::uint32_t), 3 * sizeof(std::uint32_t) * 37));
    words.insert(std::string("f64lo.") + names[c],
                 Imf::Slice::Make(Imf::UINT, low.data() + c, Imath::V2i(0, 0), 37, 21,
                                  3 * sizeof(std::uint32_t), 3 * sizeof(std::uint32_t) * 37));
  }
  exact.setFrameBuffer(words);
  exact.readPixels(0, 20);
  for (std::size_t k = 0; k < floats.size(); ++k)
    CHECK(std::bit_cast<double>((std::uint64_t(high[k]) << 32) | low[k]) == frame.rgb[k]);
  fs::remove_all(folder);
}

TEST_CASE("the metadata goes into part 0's header and comes back") {
  const auto folder = fresh_folder("exr_metadata");
  const Frame frame = extreme_frame(24, 12, 9);
  const auto path = folder / "pano.exr";
  write_frame_exr(frame, path, false, equirect_metadata(24, 12));
  const FrameFile read = read_frame_exr(path);
  CHECK(read.exact);
  CHECK(read.format_version == 2);
  CHECK(read.run_digest == "d1");
  CHECK(read.metadata.exposure == 0.015625);
  REQUIRE(read.metadata.frame_number);
  CHECK(*read.metadata.frame_number == 41);
  REQUIRE(read.metadata.camera);
  CHECK(read.metadata.camera->projection == "equirect");
  CHECK(read.metadata.camera->fov_deg == 360);
  CHECK(read.metadata.camera->look_ra_deg == 266.4);
  CHECK(read.metadata.camera->look_dec_deg == -28.9);
  CHECK(read.metadata.camera->roll_deg == 12.5);
  CHECK(read.metadata.camera->width == 24);
  CHECK(read.metadata.camera->height == 12);
  REQUIRE(read.metadata.scene);
  CHECK(read.metadata.scene->spacetime == "kerr");
  CHECK(read.metadata.scene->r_obs == 30);
  CHECK(read.metadata.scene->spin == 0.9);
  CHECK(read.metadata.scene->observer == "velocity");
  CHECK(read.metadata.scene->observer_velocity == std::array<double, 3>{0.1, -0.2, 0.3});
  // The exact part stays physical whatever the exposure.
  for (std::size_t k = 0; k < frame.rgb.size(); ++k)
    CHECK(std::bit_cast<std::uint64_t>(read.frame.rgb[k]) ==
          std::bit_cast<std::uint64_t>(frame.rgb[k]));

  Imf::MultiPartInputFile file(path.c_str());
  REQUIRE(Imf::hasEnvmap(file.header(0)));
  CHECK(Imf::envmap(file.header(0)) == Imf::ENVMAP_LATLONG);

  FrameMetadata pinhole = equirect_metadata(24, 12);
  pinhole.camera->projection = "pinhole";
  write_frame_exr(frame, folder / "pinhole.exr", false, pinhole);
  Imf::MultiPartInputFile flat((folder / "pinhole.exr").c_str());
  CHECK_FALSE(Imf::hasEnvmap(flat.header(0)));
  // Without metadata: exposure 1, nothing else.
  write_frame_exr(frame, folder / "bare.exr", false, "x");
  const FrameFile bare = read_frame_exr(folder / "bare.exr");
  CHECK(bare.metadata.exposure == 1);
  CHECK_FALSE(bare.metadata.frame_number);
  CHECK_FALSE(bare.metadata.camera);
  CHECK_FALSE(bare.metadata.scene);
  fs::remove_all(folder);
}

TEST_CASE("a bad exposure or a camera of another size is refused before anything is written") {
  const auto folder = fresh_folder("exr_bad_metadata");
  const Frame frame = field_frame(8, 4, 1);
  for (double exposure : {0.0, -1.0, std::nan(""), HUGE_VAL}) {
    FrameMetadata metadata;
    metadata.exposure = exposure;
    CHECK_THROWS_WITH_AS(write_frame_exr(frame, folder / "f.exr", false, metadata),
                         doctest::Contains("f.exr: exposure"), InputError);
  }
  CHECK_THROWS_WITH_AS(write_frame_exr(frame, folder / "f.exr", false, equirect_metadata(9, 4)),
                       doctest::Contains("lens map of 9 x 4 px for a frame of 8 x 4"), InputError);
  CHECK(fs::is_empty(folder));
  fs::remove_all(folder);
}

TEST_CASE("format version 1 (one part, words R.f64hi ...) is still read exactly") {
  const auto folder = fresh_folder("exr_version1");
  const Frame frame = extreme_frame(19, 7, 3);
  Imf::Header header(19, 7);
  header.compression() = Imf::ZIP_COMPRESSION;
  header.insert("starlensFormatVersion", Imf::IntAttribute(1));
  header.insert("starlensRunDigest", Imf::StringAttribute("old"));
  std::vector<float> floats(frame.rgb.size(), 0.0f);
  Imf::FrameBuffer buffer;
  const char* colours[] = {"R", "G", "B"};
  const auto* bytes = reinterpret_cast<const char*>(frame.rgb.data());
  for (int c = 0; c < 3; ++c) {
    const std::string colour = colours[c];
    header.channels().insert(colour, Imf::Channel(Imf::FLOAT));
    header.channels().insert(colour + ".f64hi", Imf::Channel(Imf::UINT));
    header.channels().insert(colour + ".f64lo", Imf::Channel(Imf::UINT));
    buffer.insert(colour, Imf::Slice::Make(Imf::FLOAT, floats.data() + c, header.dataWindow(),
                                           3 * sizeof(float), 3 * sizeof(float) * 19));
    buffer.insert(colour + ".f64hi",
                  Imf::Slice::Make(Imf::UINT, bytes + 8 * c + 4, header.dataWindow(), 24, 24 * 19));
    buffer.insert(colour + ".f64lo",
                  Imf::Slice::Make(Imf::UINT, bytes + 8 * c, header.dataWindow(), 24, 24 * 19));
  }
  {
    Imf::OutputFile file((folder / "v1.exr").c_str(), header);
    file.setFrameBuffer(buffer);
    file.writePixels(7);
  }
  const FrameFile read = read_frame_exr(folder / "v1.exr");
  CHECK(read.exact);
  CHECK(read.format_version == 1);
  CHECK(read.run_digest == "old");
  for (std::size_t k = 0; k < frame.rgb.size(); ++k)
    CHECK(std::bit_cast<std::uint64_t>(read.frame.rgb[k]) ==
          std::bit_cast<std::uint64_t>(frame.rgb[k]));
  fs::remove_all(folder);
}

// A one-part FLOAT R, G, B file of 4 x 3 with the attributes `add` inserts (a fresh header each
// time: OpenEXR 3.1's Header::erase does not free the attribute it removes).
template <typename AddAttributes>
void write_single_part(const fs::path& path, AddAttributes add) {
  Imf::Header header(4, 3);
  for (const char* name : {"R", "G", "B"}) header.channels().insert(name, Imf::Channel(Imf::FLOAT));
  add(header);
  std::vector<float> values(12, 1.0f);
  Imf::FrameBuffer buffer;
  for (const char* name : {"R", "G", "B"})
    buffer.insert(name, Imf::Slice::Make(Imf::FLOAT, values.data(), header.dataWindow()));
  Imf::OutputFile file(path.c_str(), header);
  file.setFrameBuffer(buffer);
  file.writePixels(3);
}

TEST_CASE("a version 2 file without its exact part, or a wrongly typed attribute, is refused") {
  const auto folder = fresh_folder("exr_no_exact");
  write_single_part(folder / "single.exr", [](Imf::Header& header) {
    header.insert("starlensFormatVersion", Imf::IntAttribute(2));
  });
  CHECK_THROWS_WITH_AS(read_frame_exr(folder / "single.exr"),
                       doctest::Contains("single.exr: part exact: missing"), InputError);
  write_single_part(folder / "typed.exr", [](Imf::Header& header) {
    header.insert("starlensFormatVersion", Imf::IntAttribute(1));
    header.insert("starlensExposure", Imf::StringAttribute("bright"));
  });
  CHECK_THROWS_WITH_AS(read_frame_exr(folder / "typed.exr"),
                       doctest::Contains("typed.exr: starlensExposure: is not a double"),
                       InputError);
  write_single_part(folder / "negative.exr", [](Imf::Header& header) {
    header.insert("starlensExposure", Imf::DoubleAttribute(-2));
  });
  CHECK_THROWS_WITH_AS(read_frame_exr(folder / "negative.exr"),
                       doctest::Contains("starlensExposure: -2"), InputError);
  // A foreign file with an exposure: its floats are scaled back to physical values.
  write_single_part(folder / "scaled.exr", [](Imf::Header& header) {
    header.insert("starlensExposure", Imf::DoubleAttribute(0.5));
  });
  const FrameFile scaled = read_frame_exr(folder / "scaled.exr");
  CHECK_FALSE(scaled.exact);
  CHECK(scaled.frame.pixel(3, 2)[2] == 0.5);
  fs::remove_all(folder);
}
