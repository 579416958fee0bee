#pragma once
// UTF-8 checks for text that reaches JSON (manifests, reports, store attributes): JSON strings
// are UTF-8, so text read from an input is checked where it is read, naming the file and field.
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

namespace starlens {

// The offset of the first byte of the first sequence that is not UTF-8 (RFC 3629: overlong
// forms, surrogates, code points past U+10FFFF and a sequence cut at the end included), as
// glibc's iconv decodes it; std::nullopt when all of `text` is UTF-8.
std::optional<std::size_t> first_invalid_utf8(std::string_view text);

// Throws InputError("<file>: <field>: byte 0xFF at offset N is not UTF-8[ (<why>)]").
void require_utf8(std::string_view text, const std::string& file, const std::string& field,
                  const std::string& why = "");

// The offset of the first byte outside 0x20..0x7e (printable ASCII); std::nullopt when none.
std::optional<std::size_t> first_non_printable_ascii(std::string_view text);

// "0xFF": a byte in hexadecimal, for messages.
std::string hex_byte(unsigned char byte);

}  // namespace starlens
