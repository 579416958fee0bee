#include "frame/exr_header_check.h"

#include <algorithm>
#include <cerrno>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <string>
#include <vector>

#include "core/errors.h"

namespace starlens {
namespace {

// OpenEXR reads every header attribute into memory of the size the attribute declares, before
// it judges the value: an unknown attribute declaring 1.75 GB in a small file was allocated
// whole. So the headers are walked here first (the file layout of OpenEXR's documentation: magic,
// version and flags, then per part `name\0 type\0 int32 size, value` until an empty name, the
// parts' list ended by an empty header when the multi-part flag is set). An attribute larger
// than what is left of the file, or than kMaxExrAttributeBytes, is refused by name.
constexpr std::int64_t kMaxExrAttributeBytes = std::int64_t{16} << 20;
constexpr std::uint32_t kExrLongNamesFlag = 0x400;
constexpr std::uint32_t kExrMultiPartFlag = 0x1000;

// An attribute name as a message may quote it: bytes outside printable ASCII as \xNN.
std::string printable_name(const std::string& name) {
  std::string text;
  for (const char c : name) {
    const auto byte = static_cast<unsigned char>(c);
    if (byte >= 0x20 && byte < 0x7f && byte != '\\') {
      text.push_back(c);
    } else {
      static constexpr char kHex[] = "0123456789abcdef";
      text.append("\\x").push_back(kHex[byte >> 4]);
      text.push_back(kHex[byte & 15]);
    }
  }
  return text;
}

// A NUL-terminated name of at most `longest` characters, or throws naming `what`.
std::string read_exr_name(std::ifstream& in, const std::string& path, const std::string& what,
                          std::size_t longest) {
  std::string name;
  for (char c; in.get(c);) {
    if (c == '\0') return name;
    if (name.size() == longest)
      throw_input_error(path, "header",
                        what + " longer than " + std::to_string(longest) + " characters");
    name.push_back(c);
  }
  throw_input_error(path, "header", "truncated in " + what);
}

// OpenEXR reads a value of a known type as that type lays it out, not by the size the header
// declares: a box2i declared as 4 bytes is read as 16, a channel list is read up to its empty
// name wherever that lies, a string vector's strings by their own sizes. A declared size that
// disagrees with the value would leave OpenEXR reading the rest of the header out of step (a
// string's bytes then taken as an attribute's size: 876 MB allocated from a 1 KB file). So the
// value must take exactly the declared bytes, as OpenEXR reads it. Consumes the value.
void check_attribute_value(std::ifstream& in, const std::string& path, const std::string& field,
                           const std::string& type, std::int32_t size) {
  static const std::map<std::string, std::int32_t> kFixedSizes = {{"box2i", 16},
                                                                  {"box2f", 16},
                                                                  {"chromaticities", 32},
                                                                  {"compression", 1},
                                                                  {"deepImageState", 1},
                                                                  {"double", 8},
                                                                  {"envmap", 1},
                                                                  {"float", 4},
                                                                  {"int", 4},
                                                                  {"keycode", 28},
                                                                  {"lineOrder", 1},
                                                                  {"m33f", 36},
                                                                  {"m33d", 72},
                                                                  {"m44f", 64},
                                                                  {"m44d", 128},
                                                                  {"rational", 8},
                                                                  {"tiledesc", 9},
                                                                  {"timecode", 8},
                                                                  {"v2i", 8},
                                                                  {"v2f", 8},
                                                                  {"v2d", 16},
                                                                  {"v3i", 12},
                                                                  {"v3f", 12},
                                                                  {"v3d", 24}};
  const auto refuse = [&](const std::string& why) {
    throw_input_error(path, field, "of type " + type + ": " + why);
  };
  if (const auto fixed = kFixedSizes.find(type); fixed != kFixedSizes.end()) {
    if (size != fixed->second)
      refuse("declares " + std::to_string(size) + " bytes, the type holds " +
             std::to_string(fixed->second));
    in.seekg(size, std::ios::cur);
    return;
  }
  if (type == "floatvector" && size % 4 != 0)
    refuse("declares " + std::to_string(size) + " bytes, not a whole number of floats");
  if (type == "idmanifest" && size < 4)
    refuse("declares " + std::to_string(size) + " bytes, fewer than its 4-byte length");
  if (type != "chlist" && type != "preview" && type != "stringvector") {
    in.seekg(size, std::ios::cur);  // read by the declared size
    return;
  }
  std::vector<unsigned char> value(static_cast<std::size_t>(size));
  in.read(reinterpret_cast<char*>(value.data()), size);
  if (in.gcount() < size) refuse("truncated value");
  const auto word = [&](std::size_t at) {
    return static_cast<std::int32_t>(std::uint32_t{value[at]} | value[at + 1] << 8 |
                                     value[at + 2] << 16 | std::uint32_t{value[at + 3]} << 24);
  };
  const auto length = static_cast<std::size_t>(size);
  if (type == "preview") {
    if (length < 8) refuse("shorter than its width and height");
    const std::uint64_t pixels = std::uint64_t(std::uint32_t(word(0))) * std::uint32_t(word(4));
    if (pixels * 4 + 8 != length)
      refuse("a preview of " + std::to_string(std::uint32_t(word(0))) + " x " +
             std::to_string(std::uint32_t(word(4))) + " px does not take its " +
             std::to_string(size) + " bytes");
  } else if (type == "stringvector") {
    for (std::size_t at = 0; at < length;) {
      if (length - at < 4) refuse("a string's size cut at the end");
      const std::int32_t string_size = word(at);
      at += 4;
      if (string_size < 0 || std::size_t(string_size) > length - at)
        refuse("a string of " + std::to_string(string_size) + " bytes beyond the value's end");
      at += std::size_t(string_size);
    }
  } else {  // chlist: name\0, 16 bytes of type, sampling and flags; an empty name ends it
    std::size_t at = 0;
    for (;;) {
      const auto end = std::find(value.begin() + std::ptrdiff_t(at), value.end(), 0);
      if (end == value.end()) refuse("no end of the channel list within its size");
      const std::size_t name_end = std::size_t(end - value.begin());
      if (name_end == at) break;
      at = name_end + 1 + 16;
      if (at > length) refuse("a channel cut at the end of the value");
    }
    if (at + 1 != length) refuse("the channel list ends before its declared size");
  }
}

void require_bounded_attributes(std::ifstream& in, const std::string& path) {
  std::error_code error;
  const auto file_size = static_cast<std::int64_t>(std::filesystem::file_size(path, error));
  if (error) throw_input_error(path, "", "cannot be sized: " + error.message());
  unsigned char version_bytes[4] = {};
  in.read(reinterpret_cast<char*>(version_bytes), 4);
  if (in.gcount() < 4) throw_input_error(path, "header", "truncated in the version field");
  const std::uint32_t version = std::uint32_t{version_bytes[0]} | version_bytes[1] << 8 |
                                version_bytes[2] << 16 | std::uint32_t{version_bytes[3]} << 24;
  const std::size_t longest = (version & kExrLongNamesFlag) ? 255 : 31;
  const bool multi_part = (version & kExrMultiPartFlag) != 0;
  for (int part = 0;; ++part) {
    const std::string prefix = multi_part ? "part " + std::to_string(part) + " " : "";
    for (int index = 0;; ++index) {
      const std::string name = read_exr_name(in, path, prefix + "attribute name", longest);
      if (name.empty()) {
        if (index == 0 && multi_part && part > 0) return;  // the empty header ending the list
        break;
      }
      const std::string field = prefix + "attribute " + printable_name(name);
      const std::string type = read_exr_name(in, path, field + " type name", longest);
      unsigned char size_bytes[4] = {};
      in.read(reinterpret_cast<char*>(size_bytes), 4);
      if (in.gcount() < 4) throw_input_error(path, field, "truncated in its size");
      const auto size =
          static_cast<std::int32_t>(std::uint32_t{size_bytes[0]} | size_bytes[1] << 8 |
                                    size_bytes[2] << 16 | std::uint32_t{size_bytes[3]} << 24);
      const std::int64_t left = file_size - static_cast<std::int64_t>(in.tellg());
      if (size < 0) throw_input_error(path, field, "negative size " + std::to_string(size));
      if (size > left)
        throw_input_error(path, field,
                          "declares " + std::to_string(size) + " bytes, " + std::to_string(left) +
                              " are left in the file");
      if (size > kMaxExrAttributeBytes)
        throw_input_error(path, field,
                          "declares " + std::to_string(size) + " bytes, more than an attribute " +
                              "may have (" + std::to_string(kMaxExrAttributeBytes) + ")");
      check_attribute_value(in, path, field, type, size);
    }
    if (!multi_part) return;
  }
}

}  // namespace

// Opening errors as one clear reason each, before OpenEXR's own messages.
void require_openable_exr(const std::string& path) {
  std::error_code error;
  if (std::filesystem::is_directory(path, error))
    throw_input_error(path, "", "is a folder, not an OpenEXR file");
  std::ifstream probe(path, std::ios::binary);
  if (!probe) throw_input_error(path, "", std::string("cannot be opened: ") + std::strerror(errno));
  char magic[4] = {};
  probe.read(magic, 4);
  const unsigned char exr_magic[4] = {0x76, 0x2f, 0x31, 0x01};
  if (probe.gcount() < 4 || std::memcmp(magic, exr_magic, 4) != 0)
    throw_input_error(path, "", "not an OpenEXR file (wrong magic number)");
  require_bounded_attributes(probe, path);
}

}  // namespace starlens
