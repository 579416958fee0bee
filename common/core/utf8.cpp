#include "core/utf8.h"

#include <iconv.h>

#include <cerrno>
#include <cstdio>

#include "core/errors.h"

namespace starlens {
namespace {

// An iconv descriptor from UTF-8 to UTF-32, closed on scope exit.
class Utf8Decoder {
 public:
  Utf8Decoder() : descriptor_(iconv_open("UTF-32LE", "UTF-8")) {
    if (descriptor_ == reinterpret_cast<iconv_t>(-1))
      throw_run_failure("iconv", "cannot decode UTF-8 (glibc's gconv modules missing?)");
  }
  ~Utf8Decoder() { iconv_close(descriptor_); }
  Utf8Decoder(const Utf8Decoder&) = delete;
  Utf8Decoder& operator=(const Utf8Decoder&) = delete;
  iconv_t get() const { return descriptor_; }

 private:
  iconv_t descriptor_;
};

}  // namespace

std::optional<std::size_t> first_invalid_utf8(std::string_view text) {
  std::size_t ascii = 0;  // the common case, without iconv
  while (ascii < text.size() && static_cast<unsigned char>(text[ascii]) < 0x80) ++ascii;
  if (ascii == text.size()) return std::nullopt;
  const Utf8Decoder decoder;
  char* in = const_cast<char*>(text.data());  // iconv's signature; it does not write the input
  std::size_t in_left = text.size();
  char decoded[1024];
  while (in_left > 0) {
    char* out = decoded;
    std::size_t out_left = sizeof decoded;
    if (iconv(decoder.get(), &in, &in_left, &out, &out_left) != static_cast<std::size_t>(-1))
      continue;
    if (errno == E2BIG) continue;                       // the output buffer is full: decode on
    return static_cast<std::size_t>(in - text.data());  // EILSEQ, or EINVAL: cut at the end
  }
  return std::nullopt;
}

std::string hex_byte(unsigned char byte) {
  char text[8];
  std::snprintf(text, sizeof text, "0x%02X", byte);
  return text;
}

void require_utf8(std::string_view text, const std::string& file, const std::string& field,
                  const std::string& why) {
  const auto bad = first_invalid_utf8(text);
  if (!bad) return;
  throw_input_error(file, field,
                    "byte " + hex_byte(static_cast<unsigned char>(text[*bad])) + " at offset " +
                        std::to_string(*bad) + " is not UTF-8" +
                        (why.empty() ? "" : " (" + why + ")"));
}

std::optional<std::size_t> first_non_printable_ascii(std::string_view text) {
  // The smallest and largest byte first, in a branch-free pass the compiler vectorises (byte
  // min/max): almost every text is clean.
  unsigned char lowest = 0xff, highest = 0;
  for (const char c : text) {
    const auto byte = static_cast<unsigned char>(c);
    lowest = byte < lowest ? byte : lowest;
    highest = byte > highest ? byte : highest;
  }
  if (lowest >= 0x20 && highest <= 0x7e) return std::nullopt;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const auto byte = static_cast<unsigned char>(text[i]);
    if (byte < 0x20 || byte > 0x7e) return i;
  }
  return std::nullopt;
}

}  // namespace starlens
