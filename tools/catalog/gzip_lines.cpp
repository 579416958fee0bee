#include "gzip_lines.h"

#include <algorithm>
#include <cerrno>
#include <cstring>

#include "core/errors.h"

namespace starlens::catalog {
namespace {

constexpr std::size_t kInputBlock = 1 << 20;
constexpr std::size_t kTextBlock = 4 << 20;
// A small file gets small buffers (the text buffer grows for a long line as always): a
// catalogue of a few rows should not fault in 5 MiB of zeroed pages per file.
constexpr std::size_t kSmallTextBlock = 64 << 10;
constexpr std::size_t kMaxLine = 64 << 20;

}  // namespace

// Three hash blocks (12 MiB) per file: files are read one per thread, side by side.
GzipLines::GzipLines(const std::filesystem::path& path)
    : path_(path.string()), hash_(BlockTreeSha256Stream::Sink{}, 3) {
  std::error_code error;
  file_size_ = std::filesystem::file_size(path, error);
  if (error) throw_input_error(path_, "", "cannot open: " + error.message());
  file_ = std::fopen(path_.c_str(), "rb");
  if (!file_) throw_input_error(path_, "", std::string("cannot open: ") + std::strerror(errno));
  if (inflateInit2(&stream_, 15 + 16) != Z_OK) throw_run_failure(path_, "zlib inflateInit2 failed");
  stream_open_ = true;
  input_.resize(std::clamp<std::uintmax_t>(file_size_, 1, kInputBlock));
  text_.resize(file_size_ < kInputBlock ? kSmallTextBlock : kTextBlock);
}

GzipLines::~GzipLines() {
  if (stream_open_) inflateEnd(&stream_);
  if (file_) std::fclose(file_);
}

void GzipLines::corrupt(const std::string& why) const {
  throw_input_error(path_, "gzip stream",
                    why + " (after line " + std::to_string(line_number_) + ")");
}

bool GzipLines::fill() {
  // Keep the unfinished line at the front of the buffer; grow it for a long line.
  const std::size_t pending = text_end_ - text_begin_;
  if (pending > 0 && text_begin_ > 0)
    std::memmove(text_.data(), text_.data() + text_begin_, pending);
  text_begin_ = 0;
  text_end_ = pending;
  if (text_end_ == text_.size()) {
    if (text_.size() >= kMaxLine) corrupt("a line longer than 64 MiB (not text?)");
    text_.resize(2 * text_.size());
  }
  while (!stream_ended_) {
    if (stream_.avail_in == 0) {
      const std::size_t got = std::fread(input_.data(), 1, input_.size(), file_);
      if (got == 0) {
        if (std::ferror(file_))
          throw_run_failure(path_, std::string("read failed: ") + std::strerror(errno));
        if (compressed_bytes_ == 0) corrupt("empty file, not gzip");
        if (stream_.total_in > 0) corrupt("truncated: the file ends inside a gzip member");
        stream_ended_ = true;  // ended exactly after a member
        return false;
      }
      hash_.update(input_.data(), got);
      compressed_bytes_ += got;
      stream_.next_in = input_.data();
      stream_.avail_in = static_cast<uInt>(got);
    }
    stream_.next_out = reinterpret_cast<Bytef*>(text_.data() + text_end_);
    stream_.avail_out = static_cast<uInt>(text_.size() - text_end_);
    const int status = inflate(&stream_, Z_NO_FLUSH);
    const std::size_t produced = text_.size() - text_end_ - stream_.avail_out;
    text_end_ += produced;
    if (status == Z_STREAM_END) {
      inflateReset(&stream_);  // a further member may follow (concatenated gzip)
    } else if (status == Z_DATA_ERROR || status == Z_NEED_DICT || status == Z_STREAM_ERROR) {
      corrupt(std::string("corrupt: ") + (stream_.msg ? stream_.msg : "invalid data"));
    } else if (status == Z_MEM_ERROR) {
      throw_run_failure(path_, "zlib: out of memory");
    }
    if (produced > 0) return true;
  }
  return false;
}

bool GzipLines::next(std::string_view& line) {
  while (true) {
    const char* begin = text_.data() + text_begin_;
    const void* newline = std::memchr(begin, '\n', text_end_ - text_begin_);
    if (newline) {
      std::size_t length = static_cast<std::size_t>(static_cast<const char*>(newline) - begin);
      text_begin_ += length + 1;
      if (length > 0 && begin[length - 1] == '\r') --length;
      line = std::string_view(begin, length);
      ++line_number_;
      return true;
    }
    if (!fill()) {
      if (text_end_ == text_begin_) return false;
      // The last line has no '\n'.
      line = std::string_view(text_.data() + text_begin_, text_end_ - text_begin_);
      if (line.back() == '\r') line.remove_suffix(1);
      text_begin_ = text_end_;
      ++line_number_;
      return true;
    }
  }
}

std::string GzipLines::tree_sha256() {
  if (tree_sha256_.empty()) tree_sha256_ = hash_.finish_hex();
  return tree_sha256_;
}

}  // namespace starlens::catalog
