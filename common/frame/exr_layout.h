#pragma once
// How a frame is laid out in the EXR file (docs/formats/frame.md), shared by the writer and the
// reader. Format version 2: a two-part file, part 0 "rgba" with FLOAT R, G, B for viewers
// (the exact value divided by the exposure), part 1 "exact" with each float64 as two UINT
// channels holding the high and low 32 bits of its IEEE binary64 bit pattern. Version 1 (read
// only): one part holding R, G, B and the word channels R.f64hi, R.f64lo, ...
#include <array>
#include <bit>
#include <cstdint>

namespace starlens::exr_layout {

// The UINT slices point straight into the interleaved doubles of a Frame, which needs the low
// word of each double at its lower address.
static_assert(std::endian::native == std::endian::little,
              "frame EXR I/O addresses the 32-bit halves of doubles in place");

constexpr std::array<const char*, 3> kColourChannels = {"R", "G", "B"};

// Version 2.
constexpr const char* kViewerPart = "rgba";
constexpr const char* kExactPart = "exact";
constexpr std::array<const char*, 3> kHighWordChannels = {"f64hi.R", "f64hi.G", "f64hi.B"};
constexpr std::array<const char*, 3> kLowWordChannels = {"f64lo.R", "f64lo.G", "f64lo.B"};

// Version 1, single part.
constexpr std::array<const char*, 3> kVersion1HighWordChannels = {"R.f64hi", "G.f64hi", "B.f64hi"};
constexpr std::array<const char*, 3> kVersion1LowWordChannels = {"R.f64lo", "G.f64lo", "B.f64lo"};

// Attributes of part 0.
constexpr const char* kFormatVersionAttribute = "starlensFormatVersion";
constexpr const char* kRunDigestAttribute = "starlensRunDigest";
constexpr const char* kExposureAttribute = "starlensExposure";
constexpr const char* kFrameNumberAttribute = "starlensFrameNumber";
constexpr const char* kProjectionAttribute = "starlensProjection";
constexpr const char* kFovAttribute = "starlensFovDeg";
constexpr const char* kLookRaAttribute = "starlensLookRaDeg";
constexpr const char* kLookDecAttribute = "starlensLookDecDeg";
constexpr const char* kRollAttribute = "starlensRollDeg";
constexpr const char* kCameraSizeAttribute = "starlensCameraSize";
constexpr const char* kSpacetimeAttribute = "starlensSpacetime";
constexpr const char* kRObsAttribute = "starlensRObs";
constexpr const char* kSpinAttribute = "starlensSpin";
constexpr const char* kObserverAttribute = "starlensObserver";
constexpr const char* kObserverVelocityAttribute = "starlensObserverVelocity";

// Byte offsets of the two words of a double in memory.
constexpr std::size_t kLowWordOffset = 0;
constexpr std::size_t kHighWordOffset = 4;

}  // namespace starlens::exr_layout
