#pragma once
// What says that an open file is still the file it was: size, modification time, inode and
// device. A hash or a read that takes a while compares the identity at its start with the one
// at its end; a file written or replaced in between is not the file that was hashed or read.
#include <cstdint>
#include <string>

namespace starlens {

struct FileIdentity {
  std::uint64_t size = 0, inode = 0, device = 0;
  std::int64_t modified_s = 0, modified_ns = 0;
  bool operator==(const FileIdentity&) const = default;
};

// fstat of an open descriptor; RunFailure naming `name` if it fails.
FileIdentity file_identity(int descriptor, const std::string& name);

}  // namespace starlens
