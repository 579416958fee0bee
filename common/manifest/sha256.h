#pragma once
// SHA-256 through OpenSSL's libcrypto, as lowercase hex.
#include <cstddef>
#include <cstdio>
#include <filesystem>
#include <memory>
#include <string>

namespace starlens {

std::string sha256_hex(const void* data, std::size_t size);
// Hashes a whole file, streaming; throws InputError if it cannot be opened, RunFailure if a
// read fails.
std::string sha256_file(const std::filesystem::path& path);
// Hashes an open file from its position to its end (the caller closes it): a file opened before
// it is renamed is hashed whatever its name by then. RunFailure naming `name` if a read fails.
std::string sha256_open_file(std::FILE* file, const std::string& name);

// Incremental hashing, for streams hashed while they are read or written.
class Sha256Stream {
 public:
  Sha256Stream();
  ~Sha256Stream();
  Sha256Stream(const Sha256Stream&) = delete;
  Sha256Stream& operator=(const Sha256Stream&) = delete;
  void update(const void* data, std::size_t size);
  std::string finish_hex();  // the stream cannot be updated afterwards

 private:
  struct State;
  std::unique_ptr<State> state_;
};

}  // namespace starlens
