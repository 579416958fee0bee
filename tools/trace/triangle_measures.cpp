#include "triangle_measures.h"

#include <cmath>
#include <limits>

#include "spacetime/vector_ops.h"

namespace starlens {

namespace {

// 2 atan2(triple, denominator), Van Oosterom & Strackee's tan(Omega/2) = triple / denominator.
double solid_angle_from_tangent(double triple, double denominator) {
  // Small triangles (nearly all): atan(t) = t - t^3/3 + t^5/5 - ..., exact to rounding for
  // |t| < 1e-3 when cut after t^5, and much cheaper than atan2.
  if (denominator > 0 && std::abs(triple) < 1e-3 * denominator) {
    const double t = triple / denominator, t2 = t * t;
    return 2 * t * (1 - t2 * (1.0 / 3 - t2 / 5));
  }
  return 2 * std::atan2(triple, denominator);
}

}  // namespace

double signed_solid_angle(const Vec3& a, const Vec3& b, const Vec3& c) {
  // a.(b x c) = a.((b - a) x (c - a)) for any a: the edge form keeps small triangles exact.
  const double triple = vec::dot(a, vec::cross(vec::minus(b, a), vec::minus(c, a)));
  const double denominator = 1 + vec::dot(a, b) + vec::dot(b, c) + vec::dot(c, a);
  return solid_angle_from_tangent(triple, denominator);
}

double pinhole_solid_angle(double focal, double handedness,
                           const std::array<std::array<double, 2>, 3>& offsets) {
  const auto ray = [&](int k) { return Vec3{focal, offsets[k][0], -offsets[k][1]}; };
  const Vec3 a = ray(0), b = ray(1), c = ray(2);
  const double doubled_area = (b[1] - a[1]) * (c[2] - a[2]) - (c[1] - a[1]) * (b[2] - a[2]);
  const double la = vec::norm(a), lb = vec::norm(b), lc = vec::norm(c);
  // tan(Omega/2) for vectors of any length (Van Oosterom & Strackee's general form).
  const double denominator =
      la * lb * lc + vec::dot(a, b) * lc + vec::dot(b, c) * la + vec::dot(c, a) * lb;
  return solid_angle_from_tangent(handedness * focal * doubled_area, denominator);
}

GnomonicFrame::GnomonicFrame(const Vec3& s0, const Vec3& s1, const Vec3& s2)
    : s0_(s0), e1_(vec::minus(s1, s0)), e2_(vec::minus(s2, s0)) {
  normal_ = vec::cross(e1_, e2_);
  area2_ = vec::dot(normal_, normal_);
  plane_ = vec::dot(s0_, normal_);
}

std::array<double, 3> GnomonicFrame::weights(const Vec3& s) const {
  // Central projection of s onto the plane x.n = s0.n, relative to s0.
  const double scale = plane_ / vec::dot(s, normal_);
  const Vec3 q{scale * s[0] - s0_[0], scale * s[1] - s0_[1], scale * s[2] - s0_[2]};
  const double w1 = vec::dot(vec::cross(q, e2_), normal_) / area2_;
  const double w2 = vec::dot(vec::cross(e1_, q), normal_) / area2_;
  return {1 - w1 - w2, w1, w2};
}

std::array<double, 3> gnomonic_barycentric(const Vec3& s, const Vec3& s0, const Vec3& s1,
                                           const Vec3& s2) {
  return GnomonicFrame(s0, s1, s2).weights(s);
}

double edge_midpoint_error(const ImagePoint& a, const ImagePoint& b, const ImagePoint& m) {
  // Chords for angles: the ratio differs from the angles' by less than theta^2/24 (1e-5 for
  // the 1-degree source edges that criterion (c) allows), and saves two atan2 per edge.
  const Vec3 mean = vec::normalized(vec::plus(a.source, b.source));
  const double source_chord = vec::norm(vec::minus(a.source, b.source));
  const double error_chord = vec::norm(vec::minus(m.source, mean));
  if (error_chord == 0) return 0;
  if (source_chord == 0) return std::numeric_limits<double>::infinity();
  const double dx = a.x - b.x, dy = a.y - b.y;
  return error_chord * std::sqrt(dx * dx + dy * dy) / source_chord;
}

double interpolation_error(const ImagePoint& p0, const ImagePoint& p1, const ImagePoint& p2,
                           const ImagePoint& m) {
  return interpolation_error(GnomonicFrame(p0.source, p1.source, p2.source), p0, p1, p2, m);
}

double interpolation_error(const GnomonicFrame& frame, const ImagePoint& p0, const ImagePoint& p1,
                           const ImagePoint& p2, const ImagePoint& m) {
  const auto w = frame.weights(m.source);
  const double x = w[0] * p0.x + w[1] * p1.x + w[2] * p2.x;
  const double y = w[0] * p0.y + w[1] * p1.y + w[2] * p2.y;
  const double error = std::sqrt((x - m.x) * (x - m.x) + (y - m.y) * (y - m.y));
  return std::isfinite(error) ? error : std::numeric_limits<double>::infinity();
}

}  // namespace starlens
