#pragma once
// An array that grows in fixed blocks of 2^16 elements and never moves what it holds: the
// mesh's large arrays grow pass by pass, and a std::vector's reallocation would need the old
// and the new copy at once (the peak memory of the run). Indexing costs a shift and a mask.
// The block table is reserved for 2^32 elements up front, so it never moves either: one
// thread may read elements already there while another appends.
#include <cstddef>
#include <memory>
#include <new>
#include <stdexcept>
#include <type_traits>
#include <vector>

namespace starlens {

template <typename T>
class BlockVector {
  static_assert(std::is_trivially_destructible_v<T>, "blocks are freed without destructors");

 public:
  static constexpr int kShift = 16;
  static constexpr std::size_t kBlock = std::size_t{1} << kShift;

  BlockVector() { blocks_.reserve(kMaxBlocks); }
  BlockVector(BlockVector&&) noexcept = default;
  BlockVector& operator=(BlockVector&&) noexcept = default;

  std::size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }
  T& operator[](std::size_t i) { return blocks_[i >> kShift][i & (kBlock - 1)]; }
  const T& operator[](std::size_t i) const { return blocks_[i >> kShift][i & (kBlock - 1)]; }

  // New elements are value-initialised; existing ones stay where they are. Large growth is
  // initialised by all threads: that first touch of the memory (page faults, zeroing) would
  // otherwise be serial work in the middle of the parallel passes.
  void resize(std::size_t size) {
    allocate_up_to(size);
    const auto first = static_cast<std::ptrdiff_t>(size_), end = static_cast<std::ptrdiff_t>(size);
    size_ = size;
    if (end - first < static_cast<std::ptrdiff_t>(kBlock)) {
      for (std::ptrdiff_t i = first; i < end; ++i) new (&(*this)[i]) T();
      return;
    }
    construct_in_parallel(first, end);
  }
  // Grows to `size` leaving the new elements for the caller to write, every one, before any is
  // read: their memory is then first touched where they are written (the parallel loops that
  // fill them), not in a zeroing pass of its own.
  void resize_for_overwrite(std::size_t size) {
    static_assert(std::is_trivially_copyable_v<T>, "elements are made by assignment");
    allocate_up_to(size);
    size_ = size;
  }
  // Allocates and first-touches (on all threads) the memory of elements up to `capacity`
  // without adding them: growth one element at a time in serial code (the mesh's splits)
  // then finds its pages already mapped instead of faulting on each.
  void reserve(std::size_t capacity) {
    allocate_up_to(capacity);
    const auto first = static_cast<std::ptrdiff_t>(size_),
               end = static_cast<std::ptrdiff_t>(capacity);
    if (end - first < static_cast<std::ptrdiff_t>(kBlock)) return;
    construct_in_parallel(first, end);
  }
  void push_back(const T& value) {
    resize(size_ + 1);
    (*this)[size_ - 1] = value;
  }

 private:
  // Blocks start on a cache line (operator new gives 16 bytes): a 32-byte ray then never
  // straddles two lines, and a 40-byte triangle straddles no more of them than it must.
  static constexpr std::align_val_t kAlignment{64};
  // Value-initialises the elements [first, end) on all threads: their memory's first touch.
  void construct_in_parallel(std::ptrdiff_t first, std::ptrdiff_t end) {
#pragma omp parallel for schedule(static)
    for (std::ptrdiff_t i = first; i < end; ++i) new (&(*this)[i]) T();
  }
  // Blocks for the elements below `size` (none freed, none moved).
  void allocate_up_to(std::size_t size) {
    while (blocks_.size() * kBlock < size)
      blocks_.emplace_back(static_cast<T*>(::operator new(kBlock * sizeof(T), kAlignment)));
  }
  struct FreeBlock {
    void operator()(T* block) const { ::operator delete(block, kAlignment); }
  };
  static constexpr std::size_t kMaxBlocks = (std::size_t{1} << 32) / kBlock;
  std::vector<std::unique_ptr<T[], FreeBlock>> blocks_;
  std::size_t size_ = 0;
};

}  // namespace starlens
