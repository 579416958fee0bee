#pragma once
// Neumaier's compensated summation: the running rounding error is kept in a second double,
// so a total over millions of pixels is accurate to about one rounding of the result instead
// of growing with the number of terms.
#include <cmath>

namespace starlens::compare {

class CompensatedSum {
 public:
  void add(double term) {
    const double next = sum_ + term;
    if (std::fabs(sum_) >= std::fabs(term))
      compensation_ += (sum_ - next) + term;
    else
      compensation_ += (term - next) + sum_;
    sum_ = next;
  }
  double value() const { return sum_ + compensation_; }

 private:
  double sum_ = 0.0;
  double compensation_ = 0.0;
};

}  // namespace starlens::compare
