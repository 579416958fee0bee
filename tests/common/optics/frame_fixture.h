#pragma once
// An RGB interleaved frame of doubles with guard zones before and after it, so that the
// tests see any write outside the frame (AddressSanitizer sees the rest).
#include <cstddef>
#include <cstdint>
#include <vector>

namespace starlens::testing {

class GuardedFrame {
 public:
  static constexpr std::size_t kGuard = 4096;
  static constexpr double kSentinel = -12345.0;

  GuardedFrame(std::uint32_t width, std::uint32_t height)
      : width_(width), height_(height), data_(3 * std::size_t(width) * height + 2 * kGuard, 0.0) {
    for (std::size_t i = 0; i < kGuard; ++i) {
      data_[i] = kSentinel;
      data_[data_.size() - 1 - i] = kSentinel;
    }
  }
  std::uint32_t width() const { return width_; }
  std::uint32_t height() const { return height_; }
  double* rgb() { return data_.data() + kGuard; }
  double at(std::uint32_t x, std::uint32_t y, int channel) const {
    return data_[kGuard + 3 * (std::size_t(y) * width_ + x) + channel];
  }
  double channel_sum(int channel) const {
    double sum = 0;
    for (std::size_t i = 0; i < std::size_t(width_) * height_; ++i) {
      sum += data_[kGuard + 3 * i + channel];
    }
    return sum;
  }
  bool guards_intact() const {
    for (std::size_t i = 0; i < kGuard; ++i) {
      if (data_[i] != kSentinel || data_[data_.size() - 1 - i] != kSentinel) return false;
    }
    return true;
  }
  bool operator==(const GuardedFrame& other) const { return data_ == other.data_; }

 private:
  std::uint32_t width_;
  std::uint32_t height_;
  std::vector<double> data_;
};

}  // namespace starlens::testing
