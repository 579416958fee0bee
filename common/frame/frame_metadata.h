#pragma once
// What a frame file says about the picture besides its pixels (docs/formats/frame.md): the run
// that made it, the exposure baked into the viewer values, the frame number of a sequence and,
// when the lens map is known, the camera and the scene it was traced for. Plain data.
#include <array>
#include <cstdint>
#include <optional>
#include <string>

namespace starlens {

// The camera of the lens map (docs/design.md section 3): its projection, field of view, where
// it looks and how it is rolled, and its axes as ICRS unit vectors (for the FITS WCS).
struct FrameCamera {
  std::string projection;  // "pinhole" | "equirect" | "fisheye"
  double fov_deg = 0;
  double look_ra_deg = 0, look_dec_deg = 0;  // the forward direction, ICRS
  double roll_deg = 0;
  std::uint32_t width = 0, height = 0;
  std::array<double, 3> forward{}, right{}, up{};
  // Pixels per unit of tan(angle) (pinhole), per radian (fisheye, equirect).
  double focal_px = 0;
};

// The spacetime and the observer of the lens map.
struct FrameScene {
  std::string spacetime;                      // "minkowski" | "schwarzschild" | "kerr"
  double r_obs = 0;                           // units of M
  double spin = 0;                            // kerr only
  std::string observer;                       // "static" | "zamo" | "infall" | "orbit" | "velocity"
  std::array<double, 3> observer_velocity{};  // units of c, ICRS axes
};

struct FrameMetadata {
  std::string run_digest;  // the manifest's run_digest of the run that wrote the frame
  // The luminance Y that the viewer values map to 1: viewer value = exact value / exposure.
  double exposure = 1;
  std::optional<std::int64_t> frame_number;
  std::optional<FrameCamera> camera;
  std::optional<FrameScene> scene;
};

}  // namespace starlens
