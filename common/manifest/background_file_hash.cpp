#include "manifest/background_file_hash.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "core/errors.h"

namespace starlens {

BackgroundFileHash::BackgroundFileHash(const std::string& path) : path_(path) {
  descriptor_ = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (descriptor_ < 0)
    throw_input_error(path, "",
                      std::string("cannot be opened for reading: ") + std::strerror(errno));
  try {
    opened_ = file_identity(descriptor_, path_);
    tree_ = std::make_unique<BlockTreeSha256>(HashPriority::background);
    add_file_blocks(*tree_, descriptor_, opened_.size, path_);
  } catch (...) {
    tree_.reset();
    ::close(descriptor_);
    throw;
  }
}

BackgroundFileHash::~BackgroundFileHash() {
  tree_.reset();  // waits for the blocks that read through the descriptor
  ::close(descriptor_);
}

BackgroundFileHash::Result BackgroundFileHash::result() {
  if (!result_) {
    const std::string hex = tree_->finish_hex();
    if (!(file_identity(descriptor_, path_) == opened_))
      throw_run_failure(path_,
                        "changed while being read: its hash would not be the hash of "
                        "what was used");
    result_ = std::make_unique<Result>(Result{opened_.size, hex});
  }
  return *result_;
}

}  // namespace starlens
