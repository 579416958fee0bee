// The camera of docs/design.md section 3: frame conventions (north up, east left, roll
// counter-clockwise, galactic placement, pole fallback), the three projections' formulas checked at
// points where the answer is known in closed form, and pixel <-> direction round trips.
#include <doctest/doctest.h>

#include <cmath>
#include <numbers>
#include <random>

#include "core/errors.h"
#include "lensmap/camera.h"

using namespace starlens;

namespace {

double angle(const Vec3& a, const Vec3& b) {
  return std::atan2(norm(cross(a, b)), dot(a, b));
}

const Vec3 kX{1, 0, 0}, kY{0, 1, 0}, kZ{0, 0, 1};

Camera equatorial_camera(Projection projection, double fov, double roll_degrees = 0,
                         std::uint32_t width = 400, std::uint32_t height = 300) {
  return Camera(camera_axes(kX, kZ, kX, roll_degrees * kDegree), projection, fov, width, height);
}

}  // namespace

TEST_CASE("camera frame: north up, east to the left, roll turns counter-clockwise") {
  const Camera camera = equatorial_camera(Projection::pinhole, 60);
  CHECK(angle(camera.direction(200, 150), kX) < 1e-15);
  CHECK(camera.direction(200, 100)[2] > 0.1);  // above the centre: north
  CHECK(camera.direction(150, 150)[1] > 0.1);  // left of the centre: east (+RA)
  const auto& axes = camera.axes();
  CHECK(angle(axes.up, kZ) < 1e-15);
  CHECK(angle(axes.right, Vec3{0, -1, 0}) < 1e-15);
  // Rolled 90 degrees: the (right, up) arrows turn counter-clockwise on screen, so north
  // points left and west (the old right) points up.
  const Camera rolled = equatorial_camera(Projection::pinhole, 60, 90);
  CHECK(rolled.direction(150, 150)[2] > 0.1);
  CHECK(rolled.direction(200, 100)[1] < -0.1);
}

TEST_CASE("camera frame in galactic placement and at a pole") {
  // Looking at the galactic centre with galactic north up: above the centre is b > 0.
  const Vec3 centre = galactic_to_icrs({1, 0, 0});
  const Camera camera(camera_axes(centre, galactic_to_icrs(kZ), galactic_to_icrs(kX), 0),
                      Projection::pinhole, 60, 400, 300);
  CHECK(icrs_to_galactic(camera.direction(200, 100))[2] > 0.1);
  CHECK(icrs_to_galactic(camera.direction(150, 150))[1] > 0.1);  // east: +l
  // Within 1e-6 of the pole, "up" is the frame's x axis projected.
  const CameraAxes pole = camera_axes(kZ, kZ, kX, 0);
  CHECK(angle(pole.up, kX) < 1e-15);
  const CameraAxes near_pole = camera_axes(normalized({1e-8, 0, 1}), kZ, kX, 0);
  CHECK(angle(near_pole.up, kX) < 1e-7);
  CHECK(std::abs(dot(near_pole.up, near_pole.forward)) < 1e-15);
}

TEST_CASE("projection formulas at closed-form points") {
  // Pinhole: the middle of the right edge is fov/2 from forward; vertical pixels use the same
  // focal length (square pixels).
  const Camera pinhole = equatorial_camera(Projection::pinhole, 90);
  CHECK(std::abs(angle(pinhole.direction(400, 150), kX) - 45 * kDegree) < 1e-14);
  CHECK(std::abs(angle(pinhole.direction(200, 0), kX) - std::atan(150.0 / 200.0)) < 1e-14);
  // Equirect: a quarter width right is the right vector, the top row the up vector, and the
  // left and right edges meet behind the camera.
  const Camera equirect = equatorial_camera(Projection::equirect, 360);
  CHECK(angle(equirect.direction(300, 150), equirect.axes().right) < 1e-15);
  CHECK(angle(equirect.direction(123, 0), kZ) < 1e-15);
  CHECK(angle(equirect.direction(0, 150), Vec3{-1, 0, 0}) < 1e-15);
  CHECK(angle(equirect.direction(400, 150), Vec3{-1, 0, 0}) < 1e-15);
  // Fisheye (equidistant): angle from forward grows linearly with radius, fov/2 at W/2.
  const Camera fisheye = equatorial_camera(Projection::fisheye, 180);
  CHECK(std::abs(angle(fisheye.direction(400, 150), kX) - std::numbers::pi / 2) < 1e-15);
  CHECK(std::abs(angle(fisheye.direction(200 + 60, 150 + 80), kX) -
                 (100.0 / 200.0) * std::numbers::pi / 2) < 1e-15);
}

TEST_CASE("pixel <-> direction round trips for all three projections") {
  std::mt19937_64 random(5);
  struct Case {
    Projection projection;
    double fov;
  };
  for (const Case& c : {Case{Projection::pinhole, 60}, Case{Projection::pinhole, 170},
                        Case{Projection::equirect, 360}, Case{Projection::fisheye, 180},
                        Case{Projection::fisheye, 360}}) {
    const Camera camera(camera_axes(normalized({0.3, -0.5, 0.8}), kZ, kX, 0.7), c.projection, c.fov,
                        640, 480);
    std::uniform_real_distribution<double> x(0, 640), y(1e-3, 480 - 1e-3);
    double worst = 0;
    for (int i = 0; i < 20000; ++i) {
      const double px = x(random), py = y(random);
      // Fisheye is one-to-one only within pi of forward (radius W/2 * 360/fov).
      if (c.projection == Projection::fisheye &&
          std::hypot(px - 320, py - 240) >= 320 * 360 / c.fov)
        continue;
      const Vec3 d = camera.direction(px, py);
      CHECK(std::abs(norm(d) - 1) < 1e-15);
      const auto back = camera.pixel(d);
      REQUIRE(back.has_value());
      worst = std::max(worst, std::hypot((*back)[0] - px, (*back)[1] - py));
    }
    MESSAGE(projection_name(c.projection)
            << " fov " << c.fov << ": worst round trip " << worst << " px");
    CHECK(worst < 1e-9);
  }
  const Camera pinhole = equatorial_camera(Projection::pinhole, 60);
  CHECK_FALSE(pinhole.pixel(Vec3{-1, 0, 0}).has_value());  // behind a pinhole camera
}

TEST_CASE("cameras refuse sizes and fields of view out of range") {
  const CameraAxes axes = camera_axes(kX, kZ, kX, 0);
  CHECK_THROWS_AS(Camera(axes, Projection::pinhole, 60, 0, 100), InputError);
  CHECK_THROWS_AS(Camera(axes, Projection::pinhole, 60, 100, 0), InputError);
  CHECK_THROWS_AS(Camera(axes, Projection::pinhole, 180, 100, 100), InputError);
  CHECK_THROWS_AS(Camera(axes, Projection::pinhole, 0, 100, 100), InputError);
  CHECK_THROWS_AS(Camera(axes, Projection::pinhole, NAN, 100, 100), InputError);
  CHECK_THROWS_AS(Camera(axes, Projection::fisheye, 361, 100, 100), InputError);
  CHECK_THROWS_AS(Camera(axes, Projection::equirect, 180, 100, 100), InputError);
  CHECK_NOTHROW(Camera(axes, Projection::fisheye, 360, 100, 100));
  CHECK_THROWS_AS(parse_projection("mercator"), InputError);
  CHECK(parse_projection("equirect") == Projection::equirect);
}
