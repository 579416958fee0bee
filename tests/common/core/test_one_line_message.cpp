// one_line_message: what a message quoting an input may hold. Checked byte by byte against the
// rules of the header, and as a whole against the independent UTF-8 checker of core/utf8.h.
#include <doctest/doctest.h>

#include <string>

#include "core/one_line_message.h"
#include "core/utf8.h"

using starlens::one_line_message;

namespace {

// No control byte, valid UTF-8, none of the code points that split lines.
bool single_line(const std::string& text) {
  for (const char c : text)
    if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f) return false;
  return !starlens::first_invalid_utf8(text) && text.find("\xc2\x85") == std::string::npos &&
         text.find("\xe2\x80\xa8") == std::string::npos &&
         text.find("\xe2\x80\xa9") == std::string::npos;
}

}  // namespace

TEST_CASE("printable text and UTF-8 pass unchanged") {
  CHECK(one_line_message("") == "");
  CHECK(one_line_message("line 1: header 'ra,dec' ~") == "line 1: header 'ra,dec' ~");
  CHECK(one_line_message("\xc3\xa9t\xc3\xa9 \xe2\x82\xac \xf0\x9f\x8c\x8c") ==
        "\xc3\xa9t\xc3\xa9 \xe2\x82\xac \xf0\x9f\x8c\x8c");
}

TEST_CASE("control bytes, stray bytes and line separators are written as \\xHH") {
  CHECK(one_line_message("a\nb") == "a\\x0ab");
  CHECK(one_line_message("bv\v100") == "bv\\x0b100");
  CHECK(one_line_message(std::string("\0\x1f\x7f", 3)) == "\\x00\\x1f\\x7f");
  CHECK(one_line_message("\xff") == "\\xff");
  CHECK(one_line_message("\xc3") == "\\xc3");           // a sequence cut at the end
  CHECK(one_line_message("\xc3(") == "\\xc3(");         // a lead byte without its continuation
  CHECK(one_line_message("\x80x") == "\\x80x");         // a continuation byte alone
  CHECK(one_line_message("\xc2\x85") == "\\xc2\\x85");  // U+0085, NEL
  CHECK(one_line_message("\xe2\x80\xa8.\xe2\x80\xa9") == "\\xe2\\x80\\xa8.\\xe2\\x80\\xa9");
}

TEST_CASE("every string of up to two bytes comes out on one line") {
  for (int a = 0; a < 256; ++a) {
    CHECK(single_line(one_line_message(std::string(1, static_cast<char>(a)))));
    for (int b = 0; b < 256; ++b) {
      const std::string text{static_cast<char>(a), static_cast<char>(b)};
      if (!single_line(one_line_message(text))) FAIL_CHECK("bytes " << a << " " << b);
    }
  }
  // Three-byte sequences around the line separators and an overlong form of '\n'.
  for (const char* text : {"\xe2\x80\xa7", "\xe2\x80\xaa", "\xe2\x80\xa8\n", "\xc0\x8a"})
    CHECK(single_line(one_line_message(text)));
}
