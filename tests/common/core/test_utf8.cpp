// first_invalid_utf8 against RFC 3629's table (section 4) and Markus Kuhn's decoder stress
// cases: the offset of the first byte of the first ill-formed sequence.
#include <doctest/doctest.h>

#include <string>

#include "core/errors.h"
#include "core/utf8.h"

using starlens::first_invalid_utf8;
using starlens::first_non_printable_ascii;

TEST_CASE("well-formed UTF-8 passes, from ASCII to U+10FFFF") {
  CHECK_FALSE(first_invalid_utf8(""));
  CHECK_FALSE(first_invalid_utf8("plain ASCII |\\N|"));
  CHECK_FALSE(first_invalid_utf8("\xc3\xa9"));          // U+00E9
  CHECK_FALSE(first_invalid_utf8("\xe2\x82\xac"));      // U+20AC
  CHECK_FALSE(first_invalid_utf8("\xef\xbf\xbf"));      // U+FFFF
  CHECK_FALSE(first_invalid_utf8("\xf0\x90\x80\x80"));  // U+10000
  CHECK_FALSE(first_invalid_utf8("\xf4\x8f\xbf\xbf"));  // U+10FFFF, the last code point
  CHECK_FALSE(first_invalid_utf8("\xed\x9f\xbf"));      // U+D7FF, just below the surrogates
  CHECK_FALSE(first_invalid_utf8(std::string(3000, 'a') + "\xc3\xa9"));  // past one iconv buffer
}

TEST_CASE("ill-formed sequences are found at their first byte") {
  CHECK(first_invalid_utf8("\xff") == 0u);
  CHECK(first_invalid_utf8("ab\xff") == 2u);
  CHECK(first_invalid_utf8("ab\xfe"
                           "cd") == 2u);
  CHECK(first_invalid_utf8("x\x80") == 1u);              // a lone continuation byte
  CHECK(first_invalid_utf8("x\xc0\x80") == 1u);          // overlong U+0000
  CHECK(first_invalid_utf8("x\xe0\x80\xaf") == 1u);      // overlong '/'
  CHECK(first_invalid_utf8("x\xf0\x82\x82\xac") == 1u);  // overlong U+20AC
  CHECK(first_invalid_utf8("x\xed\xa0\x80") == 1u);      // surrogate U+D800
  CHECK(first_invalid_utf8("x\xed\xbf\xbf") == 1u);      // surrogate U+DFFF
  CHECK(first_invalid_utf8("x\xf4\x90\x80\x80") == 1u);  // U+110000
  CHECK(first_invalid_utf8("\xc3\xa9\xe2\x82") == 2u);   // cut at the end
  CHECK(first_invalid_utf8("\xc2") == 0u);
  CHECK(first_invalid_utf8(std::string(5000, 'a') + "\xc3\xa9" + std::string(2000, 'b') + "\xff") ==
        5000u + 2 + 2000);
}

TEST_CASE("require_utf8 names the file, the field, the byte and its offset") {
  CHECK_NOTHROW(starlens::require_utf8("fine \xc3\xa9", "f.exr", "attr"));
  try {
    starlens::require_utf8("ab\xff", "f.exr", "starlensRunDigest");
    FAIL("no error");
  } catch (const starlens::InputError& e) {
    CHECK(std::string(e.what()) == "f.exr: starlensRunDigest: byte 0xFF at offset 2 is not UTF-8");
  }
}

TEST_CASE("first_non_printable_ascii finds control bytes, DEL and every byte >= 0x80") {
  CHECK_FALSE(first_non_printable_ascii(" ~az09|\\N"));
  CHECK(first_non_printable_ascii("ab\tc") == 2u);
  CHECK(first_non_printable_ascii(std::string("ab\0c", 4)) == 2u);
  CHECK(first_non_printable_ascii("abc\x7f") == 3u);
  CHECK(first_non_printable_ascii("\xc3\xa9") == 0u);
  for (int byte = 0; byte < 256; ++byte) {
    const std::string text = std::string(40, 'x') + char(byte);
    const bool printable = byte >= 0x20 && byte <= 0x7e;
    CHECK(first_non_printable_ascii(text).has_value() == !printable);
  }
}
