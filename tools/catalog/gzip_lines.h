#pragma once
// Lines of a gzip file, streamed through zlib's inflate a block at a time (never the whole
// file in memory), with the SHA-256 of the compressed bytes computed on the way for the
// manifest. Concatenated gzip members are read as one stream. A corrupt or truncated
// stream is an InputError naming the file and the line reached.
#include <zlib.h>

#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

#include "manifest/block_tree_sha256.h"

namespace starlens::catalog {

class GzipLines {
 public:
  explicit GzipLines(const std::filesystem::path& path);
  ~GzipLines();
  GzipLines(const GzipLines&) = delete;
  GzipLines& operator=(const GzipLines&) = delete;

  // The next line without its '\n' (and '\r'); false at the end of the stream. The view is
  // valid until the next call.
  bool next(std::string_view& line);
  std::uint64_t line_number() const { return line_number_; }
  std::uint64_t compressed_bytes_read() const { return compressed_bytes_; }
  std::uint64_t file_size() const { return file_size_; }
  // Tree hash of the whole compressed file (block_tree_sha256.h); call after next() returned
  // false.
  std::string tree_sha256();

 private:
  bool fill();  // inflates more text into the buffer; false at the end
  [[noreturn]] void corrupt(const std::string& why) const;

  std::string path_;
  std::FILE* file_ = nullptr;
  z_stream stream_{};
  bool stream_open_ = false;
  bool stream_ended_ = false;  // the last member ended and no input followed
  std::vector<unsigned char> input_;
  std::vector<char> text_;
  std::size_t text_begin_ = 0;
  std::size_t text_end_ = 0;
  std::uint64_t line_number_ = 0;
  std::uint64_t compressed_bytes_ = 0;
  std::uint64_t file_size_ = 0;
  BlockTreeSha256Stream hash_;
  std::string tree_sha256_;
};

}  // namespace starlens::catalog
