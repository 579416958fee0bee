#include "core/one_line_message.h"

#include <cstdint>

namespace starlens {
namespace {

void escape_bytes(std::string& out, std::string_view bytes) {
  static const char kHex[] = "0123456789abcdef";
  for (const char c : bytes) {
    const auto byte = static_cast<std::uint8_t>(c);
    out += "\\x";
    out += kHex[byte >> 4];
    out += kHex[byte & 15];
  }
}

// The length of the UTF-8 sequence that a lead byte begins, 0 for a byte that cannot lead.
std::size_t sequence_length(std::uint8_t lead) {
  if (lead >= 0xc2 && lead <= 0xdf) return 2;
  if (lead >= 0xe0 && lead <= 0xef) return 3;
  if (lead >= 0xf0 && lead <= 0xf4) return 4;
  return 0;
}

}  // namespace

std::string one_line_message(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  std::size_t i = 0;
  while (i < text.size()) {
    const auto byte = static_cast<std::uint8_t>(text[i]);
    if (byte < 0x80) {
      if (byte < 0x20 || byte == 0x7f)
        escape_bytes(out, text.substr(i, 1));
      else
        out += text[i];
      ++i;
      continue;
    }
    std::size_t length = sequence_length(byte);
    for (std::size_t k = 1; length > 0 && k < length; ++k)
      if (i + k >= text.size() || (static_cast<std::uint8_t>(text[i + k]) & 0xc0) != 0x80)
        length = 0;
    if (length == 0) {
      escape_bytes(out, text.substr(i, 1));
      ++i;
      continue;
    }
    const std::string_view sequence = text.substr(i, length);
    if (sequence == "\xc2\x85" || sequence == "\xe2\x80\xa8" || sequence == "\xe2\x80\xa9")
      escape_bytes(out, sequence);
    else
      out += sequence;
    i += length;
  }
  return out;
}

}  // namespace starlens
