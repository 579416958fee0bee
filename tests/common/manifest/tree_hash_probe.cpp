// Prints the tree hash of a file through one of the three APIs, for tree_hash_hashlib.py:
//   tree_hash_probe file|buffer|stream THREADS PATH
// "stream" feeds the file in pieces of changing sizes (1 byte to a few blocks, so pieces end
// on, before and after block boundaries) with at most two blocks in memory, and its sink
// writes the blocks to PATH.sunk, which the script compares with the file.
#include <cstdio>
#include <fstream>
#include <iostream>
#include <iterator>
#include <string>
#include <vector>

#include "manifest/block_tree_sha256.h"
#include "manifest/hash_pool.h"

int main(int argc, char** argv) {
  using namespace starlens;
  if (argc != 4) {
    std::cerr << "usage: tree_hash_probe file|buffer|stream THREADS PATH\n";
    return 2;
  }
  const std::string mode = argv[1], path = argv[3];
  set_hash_threads(std::stoi(argv[2]));
  try {
    if (mode == "file") {
      std::cout << block_tree_sha256_file(path) << '\n';
      return 0;
    }
    std::ifstream in(path, std::ios::binary);
    const std::vector<char> bytes((std::istreambuf_iterator<char>(in)), {});
    if (mode == "buffer") {
      std::cout << block_tree_sha256_hex(bytes.data(), bytes.size()) << '\n';
      return 0;
    }
    std::ofstream sunk(path + ".sunk", std::ios::binary);
    std::uint64_t expected_offset = 0;
    BlockTreeSha256Stream stream(
        [&](const unsigned char* data, std::size_t size, std::uint64_t offset) {
          if (offset != expected_offset) throw std::runtime_error("block out of order");
          expected_offset += size;
          sunk.write(reinterpret_cast<const char*>(data), std::streamsize(size));
        },
        2);
    const std::size_t pieces[] = {
        1, 7, kTreeBlockBytes - 8, 3, kTreeBlockBytes, 65536, 2 * kTreeBlockBytes + 11};
    std::size_t offset = 0;
    for (std::size_t k = 0; offset < bytes.size(); ++k) {
      const std::size_t take = std::min(pieces[k % std::size(pieces)], bytes.size() - offset);
      stream.update(bytes.data() + offset, take);
      offset += take;
    }
    std::cout << stream.finish_hex() << '\n';
    return 0;
  } catch (const std::exception& error) {
    std::cerr << error.what() << '\n';
    return 1;
  }
}
