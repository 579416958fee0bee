#pragma once
// A purely relative comparison: doctest::Approx(v).epsilon(e) also accepts an absolute
// error of e (its default scale is 1), which says nothing about values far below 1.
#include <doctest/doctest.h>

inline doctest::Approx relative(double value, double epsilon) {
  return doctest::Approx(value).epsilon(epsilon).scale(0.0);
}
