// The pinhole shortcut for an image triangle's solid angle against the general formula on the
// triangle's unit camera directions, for tiny and large triangles and a rolled camera.
#include <doctest/doctest.h>

#include <cmath>
#include <random>

#include "lensmap/camera.h"
#include "spacetime/vector_ops.h"
#include "triangle_measures.h"

using namespace starlens;

TEST_CASE("pinhole solid angle from pixel offsets equals the unit-direction formula") {
  std::mt19937_64 random(7);
  for (double roll : {0.0, 0.7}) {
    const CameraAxes axes = camera_axes({0.3, -0.5, 0.8}, {0, 0, 1}, {1, 0, 0}, roll);
    const Camera camera(axes, Projection::pinhole, 100, 1920, 1080);
    const double handedness = vec::dot(axes.forward, vec::cross(axes.right, axes.up));
    std::uniform_real_distribution<double> px(0, 1920), py(0, 1080), unit(-1, 1);
    double worst = 0;
    for (int i = 0; i < 20000; ++i) {
      const double size = std::pow(10.0, -3 + (i % 7));  // 1e-3 to 1e3 px
      std::array<std::array<double, 2>, 3> corners{};
      const double x = px(random), y = py(random);
      for (auto& c : corners) c = {x + size * unit(random), y + size * unit(random)};
      const double general = signed_solid_angle(camera.direction(corners[0][0], corners[0][1]),
                                                camera.direction(corners[1][0], corners[1][1]),
                                                camera.direction(corners[2][0], corners[2][1]));
      std::array<std::array<double, 2>, 3> offsets{};
      for (int k = 0; k < 3; ++k) offsets[k] = {corners[k][0] - 960, corners[k][1] - 540};
      const double fast = pinhole_solid_angle(camera.focal_length(), handedness, offsets);
      // Relative to the solid angle of the corners' bounding square: thin random triangles
      // lose digits in the general formula's differences of unit vectors, not in the shortcut.
      const double scale = std::pow(size / camera.focal_length(), 2);
      worst = std::max(worst, std::abs(fast - general) / scale);
    }
    MESSAGE("roll " << roll << ": worst difference " << worst << " x (size / F)^2");
    CHECK(worst < 1e-9);
  }
}
