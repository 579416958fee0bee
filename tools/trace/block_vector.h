#pragma once
// An array that grows in fixed blocks of 2^16 elements and never moves what it holds: the
// mesh's large arrays grow pass by pass, and a std::vector's reallocation would need the old
// and the new copy at once (the peak memory of the run). Indexing costs a shift and a mask.
#include <cstddef>
#include <memory>
#include <vector>

namespace starlens {

template <typename T>
class BlockVector {
 public:
  static constexpr int kShift = 16;
  static constexpr std::size_t kBlock = std::size_t{1} << kShift;

  std::size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }
  T& operator[](std::size_t i) { return blocks_[i >> kShift][i & (kBlock - 1)]; }
  const T& operator[](std::size_t i) const { return blocks_[i >> kShift][i & (kBlock - 1)]; }

  // New elements are value-initialised; existing ones stay where they are.
  void resize(std::size_t size) {
    while (blocks_.size() * kBlock < size) blocks_.push_back(std::make_unique<T[]>(kBlock));
    size_ = size;
  }
  void push_back(const T& value) {
    resize(size_ + 1);
    (*this)[size_ - 1] = value;
  }

 private:
  std::vector<std::unique_ptr<T[]>> blocks_;
  std::size_t size_ = 0;
};

}  // namespace starlens
