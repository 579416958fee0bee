#pragma once
// The refinement's loops over lists of triangle slots are bound by memory latency, not by
// arithmetic: the slots lie scattered through the triangle array, and each triangle points to
// vertices (rays, positions) and neighbours elsewhere again. A two-stage software prefetch
// hides most of it: each iteration asks for the slot of the item kSlotLead ahead, and for what
// the slot of the item kLinkLead ahead points to (that slot has arrived by then).
#include <cstdint>

namespace starlens {

// Leads of 32 / 16 / 8 items: against 16 / 8 / 4, eval 0.36 -> 0.34 s, midpoint creation 0.16
// -> 0.14 s, splits 0.24 -> 0.22 s on 2 threads; 48 and 64 no better within the noise.
inline constexpr std::int64_t kSlotLead = 32;
inline constexpr std::int64_t kLinkLead = 16;

// GCC counts a prefetch as free of side effects, so a small function holding only prefetches
// is deemed const and its calls deleted as dead before they are inlined (observed with gcc 12:
// the prefetches vanished from the binary). The empty volatile asm, which emits nothing, keeps
// them.
// An object may straddle two cache lines (a 40-byte triangle does every other time): both
// its first and its last byte are asked for.
template <typename T>
void prefetch(const T& object) {
  const char* first = reinterpret_cast<const char*>(&object);
  __builtin_prefetch(first);
  if constexpr (sizeof(T) > 1) __builtin_prefetch(first + sizeof(T) - 1);
  asm volatile("" : : "r"(first));
}

template <typename T>
void prefetch_for_write(const T& object) {
  const char* first = reinterpret_cast<const char*>(&object);
  __builtin_prefetch(first, 1);
  if constexpr (sizeof(T) > 1) __builtin_prefetch(first + sizeof(T) - 1, 1);
  asm volatile("" : : "r"(first));
}

// For item i of a loop over `count` items: slot(j) prefetches item j's triangle, links(j) what
// item j's triangle points to.
template <typename Slot, typename Links>
void prefetch_ahead(std::int64_t i, std::int64_t count, const Slot& slot, const Links& links) {
  if (i + kSlotLead < count) slot(i + kSlotLead);
  if (i + kLinkLead < count) links(i + kLinkLead);
}

// The same with a third stage for chains one link longer: second_links(j) prefetches what the
// triangles that links(j) asked for point to, kSecondLinkLead items ahead.
inline constexpr std::int64_t kSecondLinkLead = 8;
template <typename Slot, typename Links, typename SecondLinks>
void prefetch_ahead(std::int64_t i, std::int64_t count, const Slot& slot, const Links& links,
                    const SecondLinks& second_links) {
  prefetch_ahead(i, count, slot, links);
  if (i + kSecondLinkLead < count) second_links(i + kSecondLinkLead);
}

}  // namespace starlens
