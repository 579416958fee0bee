// Test helper: writes a seeded frame as EXR (through the library, or as plain FLOAT R, G, B
// like another program would), optionally with chosen pixels changed and its exact doubles
// in a raw file, for the command-line tests of the frame format and of starlens-compare.
#include <ImfChannelList.h>
#include <ImfFrameBuffer.h>
#include <ImfHeader.h>
#include <ImfOutputFile.h>

#include <CLI/CLI.hpp>
#include <fstream>
#include <sstream>

#include "core/errors.h"
#include "core/tool_main.h"
#include "frame/frame_io.h"
#include "frame_fixtures.h"

namespace {

using namespace starlens;

struct PixelEdit {
  std::uint32_t x = 0, y = 0, channel = 0;
  double number = 0;
};

// "x,y,c,number" with c one of R, G, B; number may be nan, inf or negative.
PixelEdit parse_edit(const std::string& text, const std::string& flag) {
  std::istringstream in(text);
  std::string x, y, c, number;
  if (!std::getline(in, x, ',') || !std::getline(in, y, ',') || !std::getline(in, c, ',') ||
      !std::getline(in, number) || (c != "R" && c != "G" && c != "B"))
    throw_input_error(flag, "", "expected x,y,R|G|B,number, got '" + text + "'");
  PixelEdit edit;
  edit.x = std::uint32_t(std::stoul(x));
  edit.y = std::uint32_t(std::stoul(y));
  edit.channel = c == "R" ? 0 : c == "G" ? 1 : 2;
  edit.number = std::stod(number);
  return edit;
}

double& value_at(Frame& frame, const PixelEdit& edit) {
  if (edit.x >= frame.width || edit.y >= frame.height)
    throw_input_error("edit", "", "pixel outside the frame");
  return frame.pixel(edit.x, edit.y)[edit.channel];
}

// Plain FLOAT R, G, B with no starlens attributes: any value, NaN included, goes through.
void write_viewer_only(const Frame& frame, const std::string& path) {
  Imf::Header header(int(frame.width), int(frame.height));
  std::vector<float> values(frame.rgb.begin(), frame.rgb.end());
  Imf::FrameBuffer buffer;
  const char* names[] = {"R", "G", "B"};
  for (int c = 0; c < 3; ++c) {
    header.channels().insert(names[c], Imf::Channel(Imf::FLOAT));
    buffer.insert(names[c], Imf::Slice::Make(Imf::FLOAT, values.data() + c, header.dataWindow(),
                                             3 * sizeof(float), 3 * sizeof(float) * frame.width));
  }
  Imf::OutputFile file(path.c_str(), header);
  file.setFrameBuffer(buffer);
  file.writePixels(int(frame.height));
}

}  // namespace

int main(int argc, char** argv) {
  return starlens::run_tool("make_test_frame", [&] {
    CLI::App app("Writes a seeded test frame");
    std::uint32_t width = 16, height = 16;
    std::uint64_t seed = 1;
    std::string kind = "field", output, raw, digest = "test", scale, set;
    bool viewer_only = false, force = false;
    app.add_option("--width", width)->check(CLI::PositiveNumber);
    app.add_option("--height", height)->check(CLI::PositiveNumber);
    app.add_option("--seed", seed);
    app.add_option("--kind", kind)->check(CLI::IsMember({"field", "extreme", "zero"}));
    app.add_option("-o,--output", output)->required();
    app.add_option("--raw", raw, "Also write the doubles, little-endian, RGB interleaved");
    app.add_option("--digest", digest);
    app.add_option("--scale-pixel", scale, "x,y,c,factor: multiply one value");
    app.add_option("--set-pixel", set, "x,y,c,value: replace one value");
    app.add_flag("--viewer-only", viewer_only, "Only FLOAT R, G, B, written by OpenEXR directly");
    app.add_flag("--force", force);
    if (const int status = parse_command_line(app, argc, argv, "make_test_frame"); status >= 0)
      return status;

    Frame frame = kind == "extreme" ? testing::extreme_frame(width, height, seed)
                  : kind == "zero"  ? Frame(width, height)
                                    : testing::field_frame(width, height, seed);
    if (!scale.empty()) {
      const PixelEdit edit = parse_edit(scale, "--scale-pixel");
      value_at(frame, edit) *= edit.number;
    }
    if (!set.empty()) {
      const PixelEdit edit = parse_edit(set, "--set-pixel");
      value_at(frame, edit) = edit.number;
    }
    if (viewer_only)
      write_viewer_only(frame, output);
    else
      write_frame_exr(frame, output, force, digest);
    if (!raw.empty()) {
      std::ofstream file(raw, std::ios::binary);
      file.write(reinterpret_cast<const char*>(frame.rgb.data()),
                 std::streamsize(frame.rgb.size() * sizeof(double)));
      if (!file) throw_run_failure(raw, "cannot write");
    }
    return 0;
  });
}
