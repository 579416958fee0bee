#include "core/cli_validators.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <filesystem>
#include <map>

namespace starlens {
namespace {

// Extensions of the formats a user may mistake one output for another with.
const std::map<std::string, std::string>& known_formats() {
  static const std::map<std::string, std::string> formats = {
      {".exr", "OpenEXR"}, {".png", "PNG"},       {".jpg", "JPEG"},         {".jpeg", "JPEG"},
      {".tif", "TIFF"},    {".tiff", "TIFF"},     {".fits", "FITS"},        {".fit", "FITS"},
      {".h5", "HDF5"},     {".hdf5", "HDF5"},     {".sle", "event stream"}, {".json", "JSON"},
      {".csv", "CSV"},     {".mp4", "MP4 video"}, {".txt", "text"}};
  return formats;
}

std::string lower(std::string text) {
  std::transform(text.begin(), text.end(), text.begin(),
                 [](unsigned char c) { return char(std::tolower(c)); });
  return text;
}

std::string joined(const std::vector<std::string>& items) {
  std::string text;
  for (std::size_t k = 0; k < items.size(); ++k) text += (k ? " or " : "") + items[k];
  return text;
}

}  // namespace

CLI::Validator output_name(const std::string& format, const std::vector<std::string>& extensions,
                           bool standard_output) {
  return CLI::Validator(
      [=](std::string& value) -> std::string {
        if (value == "-") {
          if (standard_output) return "";
          return "standard output ('-') is not supported for this output: give a file name";
        }
        const std::string extension = lower(std::filesystem::path(value).extension().string());
        if (std::find(extensions.begin(), extensions.end(), extension) != extensions.end())
          return "";
        const auto known = known_formats().find(extension);
        if (known == known_formats().end()) return "";
        const bool vowel = std::string("AEIOUaeiou").find(known->second[0]) != std::string::npos;
        return "'" + value + "' names " + (vowel ? "an " : "a ") + known->second +
               " file, but this output is " + format + ": name it " + joined(extensions);
      },
      format + " file", "output_name");
}

CLI::Validator thread_count() {
  return CLI::Validator(
      [](std::string& value) -> std::string {
        int count = 0;
        const char* end = value.data() + value.size();
        const auto [rest, error] = std::from_chars(value.data(), end, count);
        if (error != std::errc() || rest != end)
          return "'" + value + "' is not a whole number of threads (0 for all cores)";
        if (count < 0)
          return std::to_string(count) + " is negative: give a number of threads, 0 for all cores";
        return "";
      },
      "COUNT", "thread_count");
}

}  // namespace starlens
