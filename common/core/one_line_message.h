#pragma once
// A message made of text that came from an input (a quoted header line, a field's value) kept to
// one line: the tools' contract is one stderr line per failure, and a terminal should not act on
// control bytes read from a file.
#include <string>
#include <string_view>

namespace starlens {

// `text` with every control byte (0x00-0x1f, 0x7f), every byte that does not begin or continue
// a UTF-8 sequence and the line-breaking code points U+0085, U+2028 and U+2029 written as
// \xHH (each byte); everything else, UTF-8 included, unchanged.
std::string one_line_message(std::string_view text);

}  // namespace starlens
