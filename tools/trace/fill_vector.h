#pragma once
// A std::vector whose resize leaves trivial new elements uninitialised, for arrays that a
// parallel loop then writes in full: their memory is first touched (page faults, zeroing by
// the kernel) by the threads that fill it, instead of being zeroed by one thread first. For
// the refinement's large lists that serial zeroing was most of collect's time.
#include <memory>
#include <new>
#include <type_traits>
#include <utility>
#include <vector>

namespace starlens {

template <typename T>
struct FillAllocator : std::allocator<T> {
  using value_type = T;
  template <typename U>
  struct rebind {
    using other = FillAllocator<U>;
  };
  FillAllocator() = default;
  template <typename U>
  FillAllocator(const FillAllocator<U>&) noexcept {}

  // Value-initialisation (what resize asks for) becomes default-initialisation.
  template <typename U>
  void construct(U* place) noexcept(std::is_nothrow_default_constructible_v<U>) {
    ::new (static_cast<void*>(place)) U;
  }
  template <typename U, typename... Arguments>
  void construct(U* place, Arguments&&... arguments) {
    ::new (static_cast<void*>(place)) U(std::forward<Arguments>(arguments)...);
  }
};

template <typename T>
using FillVector = std::vector<T, FillAllocator<T>>;

}  // namespace starlens
