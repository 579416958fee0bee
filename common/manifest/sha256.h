#pragma once
// SHA-256 through OpenSSL's libcrypto, as lowercase hex.
#include <cstddef>
#include <filesystem>
#include <memory>
#include <string>

namespace starlens {

std::string sha256_hex(const void* data, std::size_t size);
// Hashes a whole file, streaming; throws InputError if it cannot be read.
std::string sha256_file(const std::filesystem::path& path);

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
