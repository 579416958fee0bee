#include "frame/exr_reader.h"

#include <ImfChannelList.h>
#include <ImfFrameBuffer.h>
#include <ImfHeader.h>
#include <ImfInputPart.h>
#include <ImfIntAttribute.h>
#include <ImfMultiPartInputFile.h>
#include <ImfPartType.h>
#include <ImfStringAttribute.h>
#include <ImfTestFile.h>

#include <algorithm>

#include "core/errors.h"
#include "core/frame_limits.h"
#include "core/utf8.h"
#include "frame/exr_chunking.h"
#include "frame/exr_header_check.h"
#include "frame/exr_layout.h"
#include "frame/exr_metadata.h"
#include "frame/frame_io.h"

namespace starlens {
namespace {

// Built with append: GCC 12 warns falsely (-Wrestrict) on "literal" + std::string&&.
std::string describe_window(const Imath::Box2i& window) {
  std::string text = "[";
  text.append(std::to_string(window.min.x)).append(", ").append(std::to_string(window.min.y));
  text.append("] - [").append(std::to_string(window.max.x)).append(", ");
  text.append(std::to_string(window.max.y)).append("]");
  return text;
}

std::string channel_names(const Imf::ChannelList& channels) {
  std::string names;
  for (auto channel = channels.begin(); channel != channels.end(); ++channel) {
    if (!names.empty()) names.append(" ");
    names.append(channel.name());
  }
  return names.empty() ? "none" : names;
}

// A channel is usable when it is full resolution; its type is checked by the caller.
const Imf::Channel* find_channel(const Imf::Header& header, const std::string& path,
                                 const char* name) {
  const Imf::Channel* channel = header.channels().findChannel(name);
  if (channel && (channel->xSampling != 1 || channel->ySampling != 1))
    throw_input_error(path, std::string("channel ") + name, "subsampled channels are not frames");
  return channel;
}

bool has_exact_channels(const Imf::Header& header, const std::string& path,
                        const std::array<const char*, 3>& high_words,
                        const std::array<const char*, 3>& low_words) {
  int present = 0;
  for (std::size_t c = 0; c < 3; ++c) {
    for (const char* name : {high_words[c], low_words[c]}) {
      const Imf::Channel* channel = find_channel(header, path, name);
      if (!channel) continue;
      if (channel->type != Imf::UINT)
        throw_input_error(path, std::string("channel ") + name, "is not of type UINT");
      ++present;
    }
  }
  return present == 6;
}

void require_viewer_channels(const Imf::Header& header, const std::string& path) {
  for (const char* name : exr_layout::kColourChannels) {
    const Imf::Channel* channel = find_channel(header, path, name);
    if (!channel)
      throw_input_error(path, std::string("channel ") + name,
                        "missing (channels present: " + channel_names(header.channels()) + ")");
    if (channel->type != Imf::FLOAT && channel->type != Imf::HALF)
      throw_input_error(path, std::string("channel ") + name, "is not of type FLOAT or HALF");
  }
}

// A frame part holds at most the nine channels of a version 1 file (R, G, B and their two
// words); a few more are tolerated (a compositor's extra layers), thousands are not.
constexpr std::size_t kMaxFrameChannels = 32;

void require_few_channels(const Imf::Header& header, const std::string& path,
                          const std::string& field) {
  std::size_t count = 0;
  for (auto it = header.channels().begin(); it != header.channels().end(); ++it) ++count;
  if (count > kMaxFrameChannels)
    throw_input_error(path, field,
                      std::to_string(count) + " channels, more than a frame part may have (" +
                          std::to_string(kMaxFrameChannels) + ")");
}

}  // namespace

ExrFrameReader::ExrFrameReader(const std::filesystem::path& path) : path_(path.string()) {
  require_openable_exr(path_);
  try {
    file_ = std::make_unique<Imf::MultiPartInputFile>(path_.c_str());
  } catch (const std::bad_alloc&) {
    throw;
  } catch (const std::exception& e) {
    throw_input_error(path_, "header", std::string("unreadable OpenEXR file: ") + e.what());
  }
  const Imf::Header& header = file_->header(0);
  const Imath::Box2i& data_window = header.dataWindow();
  if (data_window != header.displayWindow())
    throw_input_error(path_, "dataWindow",
                      describe_window(data_window) + " differs from the display window " +
                          describe_window(header.displayWindow()));
  const std::int64_t width = std::int64_t(data_window.max.x) - data_window.min.x + 1;
  const std::int64_t height = std::int64_t(data_window.max.y) - data_window.min.y + 1;
  if (width <= 0 || height <= 0)
    throw_input_error(path_, "dataWindow", "empty window " + describe_window(data_window));
  check_frame_size(path_, "dataWindow width", "dataWindow height", width, height);
  // A part's line buffers grow with its width and channels: both are checked before OpenEXR
  // opens the part and allocates them.
  require_few_channels(header, path_, "part 0");
  try {
    viewer_part_ = std::make_unique<Imf::InputPart>(*file_, 0);
  } catch (const std::bad_alloc&) {
    throw;
  } catch (const std::exception& e) {
    throw_input_error(path_, "part 0", std::string("unreadable: ") + e.what());
  }
  width_ = std::uint32_t(width);
  height_ = std::uint32_t(height);
  first_x_ = data_window.min.x;
  first_y_ = data_window.min.y;

  if (header.find(exr_layout::kFormatVersionAttribute) != header.end()) {
    const auto* version =
        header.findTypedAttribute<Imf::IntAttribute>(exr_layout::kFormatVersionAttribute);
    if (!version) throw_input_error(path_, exr_layout::kFormatVersionAttribute, "is not an int");
    format_version_ = version->value();
    if (format_version_ < 1 || format_version_ > kFrameFormatVersion)
      throw_input_error(path_, exr_layout::kFormatVersionAttribute,
                        "version " + std::to_string(format_version_) +
                            " is not supported (this reader knows 1.." +
                            std::to_string(kFrameFormatVersion) + ")");
  }
  if (header.find(exr_layout::kRunDigestAttribute) != header.end()) {
    const auto* digest =
        header.findTypedAttribute<Imf::StringAttribute>(exr_layout::kRunDigestAttribute);
    if (!digest) throw_input_error(path_, exr_layout::kRunDigestAttribute, "is not a string");
    run_digest_ = digest->value();
    // It is copied into reports and manifests (JSON, whose strings are UTF-8).
    require_utf8(run_digest_, path_, exr_layout::kRunDigestAttribute);
  }
  metadata_ = read_frame_metadata(header, path_);
  metadata_.run_digest = run_digest_;

  if (format_version_ >= 2) {
    open_exact_part();
  } else {
    exact_ = has_exact_channels(header, path_, exr_layout::kVersion1HighWordChannels,
                                exr_layout::kVersion1LowWordChannels);
    if (exact_) {
      high_word_channels_ = exr_layout::kVersion1HighWordChannels;
      low_word_channels_ = exr_layout::kVersion1LowWordChannels;
      exact_part_ = std::make_unique<Imf::InputPart>(*file_, 0);
    } else {
      require_viewer_channels(header, path_);
    }
  }
}

// Version 2: the words are in the part named "exact", of the frame's size.
void ExrFrameReader::open_exact_part() {
  const std::string field = std::string("part ") + exr_layout::kExactPart;
  for (int part = 0; part < file_->parts(); ++part) {
    const Imf::Header& header = file_->header(part);
    if (!header.hasName() || header.name() != exr_layout::kExactPart) continue;
    if (!header.hasType() || header.type() != Imf::SCANLINEIMAGE)
      throw_input_error(path_, field, "is not a scanline image");
    if (header.dataWindow() != file_->header(0).dataWindow())
      throw_input_error(path_, field + " dataWindow",
                        describe_window(header.dataWindow()) + " differs from part 0's " +
                            describe_window(file_->header(0).dataWindow()));
    if (!has_exact_channels(header, path_, exr_layout::kHighWordChannels,
                            exr_layout::kLowWordChannels))
      throw_input_error(path_, field,
                        "lacks the six word channels (channels present: " +
                            channel_names(header.channels()) + ")");
    high_word_channels_ = exr_layout::kHighWordChannels;
    low_word_channels_ = exr_layout::kLowWordChannels;
    require_few_channels(header, path_, field);
    try {
      exact_part_ = std::make_unique<Imf::InputPart>(*file_, part);
    } catch (const std::bad_alloc&) {
      throw;
    } catch (const std::exception& e) {
      throw_input_error(path_, field, std::string("unreadable: ") + e.what());
    }
    exact_ = true;
    return;
  }
  throw_input_error(path_, field,
                    "missing (format version " + std::to_string(format_version_) +
                        " keeps the exact values in a part named exact; the file has " +
                        std::to_string(file_->parts()) + " part(s))");
}

ExrFrameReader::~ExrFrameReader() = default;

void ExrFrameReader::read_rows(std::uint32_t first_row, std::uint32_t rows, double* rgb) {
  if (rows == 0) return;
  if (first_row >= height_ || rows > height_ - first_row)
    throw_run_failure(path_, "rows " + std::to_string(first_row) + " + " + std::to_string(rows) +
                                 " outside the frame's " + std::to_string(height_));
  try {
    if (exact_)
      read_exact_rows(first_y_ + int(first_row), rows, rgb);
    else
      read_viewer_rows(first_y_ + int(first_row), rows, rgb);
  } catch (const std::bad_alloc&) {
    throw;
  } catch (const std::exception& e) {
    throw_input_error(path_, "pixel data",
                      "rows " + std::to_string(first_row) + ".." +
                          std::to_string(first_row + rows - 1) +
                          " unreadable (truncated or corrupt file): " + e.what());
  }
}

void ExrFrameReader::read_exact_rows(int first_y, std::uint32_t rows, double* rgb) {
  const Imath::V2i origin(first_x_, first_y);
  auto* bytes = reinterpret_cast<char*>(rgb);
  Imf::FrameBuffer buffer;
  for (std::size_t c = 0; c < 3; ++c) {
    char* value = bytes + c * sizeof(double);
    buffer.insert(high_word_channels_[c],
                  Imf::Slice::Make(Imf::UINT, value + exr_layout::kHighWordOffset, origin, width_,
                                   rows, 3 * sizeof(double), 3 * sizeof(double) * width_));
    buffer.insert(low_word_channels_[c],
                  Imf::Slice::Make(Imf::UINT, value + exr_layout::kLowWordOffset, origin, width_,
                                   rows, 3 * sizeof(double), 3 * sizeof(double) * width_));
  }
  exact_part_->setFrameBuffer(buffer);
  exact_part_->readPixels(first_y, first_y + int(rows) - 1);
}

// FLOAT or HALF channels, converted by OpenEXR to float, a band at a time, then widened.
void ExrFrameReader::read_viewer_rows(int first_y, std::uint32_t rows, double* rgb) {
  const std::uint32_t band = std::min(rows, exr_layout::band_rows(width_));
  viewer_band_.resize(std::size_t(band) * width_ * 3);
  for (std::uint32_t done = 0; done < rows; done += band) {
    const std::uint32_t count = std::min(band, rows - done);
    const Imath::V2i origin(first_x_, first_y + int(done));
    Imf::FrameBuffer buffer;
    for (std::size_t c = 0; c < 3; ++c)
      buffer.insert(exr_layout::kColourChannels[c],
                    Imf::Slice::Make(Imf::FLOAT, viewer_band_.data() + c, origin, width_, count,
                                     3 * sizeof(float), 3 * sizeof(float) * width_));
    viewer_part_->setFrameBuffer(buffer);
    viewer_part_->readPixels(origin.y, origin.y + int(count) - 1);
    // The viewer values are the physical ones divided by the exposure.
    const double exposure = metadata_.exposure;
    double* out = rgb + std::size_t(done) * width_ * 3;
    for (std::size_t k = 0; k < std::size_t(count) * width_ * 3; ++k)
      out[k] = exposure * viewer_band_[k];
  }
}

FrameFile read_frame_exr(const std::filesystem::path& path) {
  ExrFrameReader reader(path);
  FrameFile result;
  result.frame = Frame(reader.width(), reader.height());
  reader.read_rows(0, reader.height(), result.frame.rgb.data());
  result.exact = reader.exact();
  result.run_digest = reader.run_digest();
  result.format_version = reader.format_version();
  result.metadata = reader.metadata();
  return result;
}

}  // namespace starlens
