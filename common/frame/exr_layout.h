#pragma once
// How a frame's channels are laid out in the EXR file (docs/design.md section 6), shared by the
// writer and the reader: FLOAT R, G, B for viewers and each float64 as two UINT channels holding
// the high and low 32 bits of its IEEE binary64 bit pattern.
#include <array>
#include <bit>
#include <cstdint>

namespace starlens::exr_layout {

// The UINT slices point straight into the interleaved doubles of a Frame, which needs the low
// word of each double at its lower address.
static_assert(std::endian::native == std::endian::little,
              "frame EXR I/O addresses the 32-bit halves of doubles in place");

constexpr std::array<const char*, 3> kColourChannels = {"R", "G", "B"};
constexpr std::array<const char*, 3> kHighWordChannels = {"R.f64hi", "G.f64hi", "B.f64hi"};
constexpr std::array<const char*, 3> kLowWordChannels = {"R.f64lo", "G.f64lo", "B.f64lo"};

constexpr const char* kFormatVersionAttribute = "starlensFormatVersion";
constexpr const char* kRunDigestAttribute = "starlensRunDigest";

// Byte offsets of the two words of a double in memory.
constexpr std::size_t kLowWordOffset = 0;
constexpr std::size_t kHighWordOffset = 4;

}  // namespace starlens::exr_layout
