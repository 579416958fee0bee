#pragma once
// Inline 3-vector arithmetic for the per-ray and per-triangle hot paths (sky/frames.h's
// functions are out of line); the same definitions, so results are identical.
#include <cmath>

#include "sky/frames.h"

namespace starlens::vec {

inline double dot(const Vec3& a, const Vec3& b) {
  return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}
inline Vec3 cross(const Vec3& a, const Vec3& b) {
  return {a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]};
}
inline double norm(const Vec3& v) {
  return std::sqrt(dot(v, v));
}
inline Vec3 minus(const Vec3& a, const Vec3& b) {
  return {a[0] - b[0], a[1] - b[1], a[2] - b[2]};
}
inline Vec3 plus(const Vec3& a, const Vec3& b) {
  return {a[0] + b[0], a[1] + b[1], a[2] + b[2]};
}
inline Vec3 scaled(double s, const Vec3& v) {
  return {s * v[0], s * v[1], s * v[2]};
}
inline Vec3 normalized(const Vec3& v) {
  const double length = norm(v);
  return {v[0] / length, v[1] / length, v[2] / length};
}
// Angle between two unit vectors, accurate for tiny and near-pi angles.
inline double angle_between(const Vec3& a, const Vec3& b) {
  return std::atan2(norm(cross(a, b)), dot(a, b));
}

}  // namespace starlens::vec
