#include "manifest/sha256.h"

#include <openssl/evp.h>

#include <array>
#include <cstdio>
#include <vector>

#include "core/errors.h"

namespace starlens {

struct Sha256Stream::State {
  EVP_MD_CTX* context = nullptr;
};

Sha256Stream::Sha256Stream() : state_(std::make_unique<State>()) {
  state_->context = EVP_MD_CTX_new();
  if (state_->context == nullptr || EVP_DigestInit_ex(state_->context, EVP_sha256(), nullptr) != 1)
    throw_run_failure("sha256", "OpenSSL could not start a digest");
}

Sha256Stream::~Sha256Stream() {
  EVP_MD_CTX_free(state_->context);
}

void Sha256Stream::update(const void* data, std::size_t size) {
  if (EVP_DigestUpdate(state_->context, data, size) != 1)
    throw_run_failure("sha256", "OpenSSL digest update failed");
}

std::string Sha256Stream::finish_hex() {
  std::array<unsigned char, EVP_MAX_MD_SIZE> digest{};
  unsigned int length = 0;
  if (EVP_DigestFinal_ex(state_->context, digest.data(), &length) != 1)
    throw_run_failure("sha256", "OpenSSL digest final failed");
  static constexpr char kHex[] = "0123456789abcdef";
  std::string hex;
  for (unsigned int i = 0; i < length; ++i) {
    hex += kHex[digest[i] >> 4];
    hex += kHex[digest[i] & 15];
  }
  return hex;
}

std::string sha256_hex(const void* data, std::size_t size) {
  Sha256Stream stream;
  stream.update(data, size);
  return stream.finish_hex();
}

std::string sha256_file(const std::filesystem::path& path) {
  std::FILE* file = std::fopen(path.c_str(), "rb");
  if (file == nullptr) throw_input_error(path.string(), "", "cannot be opened for reading");
  std::unique_ptr<std::FILE, int (*)(std::FILE*)> owner(file, &std::fclose);
  return sha256_open_file(file, path.string());
}

std::string sha256_open_file(std::FILE* file, const std::string& name) {
  Sha256Stream stream;
  std::vector<char> buffer(1 << 20);
  std::size_t got = 0;
  while ((got = std::fread(buffer.data(), 1, buffer.size(), file)) > 0)
    stream.update(buffer.data(), got);
  if (std::ferror(file) != 0) throw_run_failure(name, "read error while hashing");
  return stream.finish_hex();
}

}  // namespace starlens
