#pragma once
// Reading a camera path file (JSON, docs/usage/animation.md) into a CameraPath, every value
// checked: a missing field, a wrong type or a value out of range (a radius at or inside
// r = 3M, where starlens-trace has no static observer to aberrate from (Kerr: at or inside
// the outer horizon), a circular orbit below the ISCO unless allowed or (Kerr) at or inside its
// circular photon orbit, a speed of c or more) is an InputError naming the file and the
// field's key path. With a spin the path's worldlines are Kerr's (kerr_worldlines.h): orbit and
// infall (from infinity) only, keyframe velocities relative to the ZAMO.
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>

#include "animation/camera_path.h"

namespace starlens::animation {

// The innermost radius a camera may reach: the trace's Schwarzschild observer needs r > 3M.
constexpr double kInnermostRadius = 3;
// That radius for the path: kInnermostRadius, or Kerr's outer horizon r_+.
double innermost_radius(const CameraPath& path);

// `text`, when given, receives the file's content (recorded in the lens map); `spin` makes the
// path a Kerr one.
CameraPath read_camera_path(const std::filesystem::path& path, std::string* text = nullptr,
                            std::optional<double> spin = std::nullopt);
// The same from the file's text (`file` names it in messages).
CameraPath parse_camera_path(const std::string& text, const std::string& file,
                             std::optional<double> spin = std::nullopt);

// The camera at `frame`, refusing (InputError naming `file` and "frames") a frame outside
// 0..frames-1 or one whose radius is at or inside innermost_radius(path).
CameraState checked_sample(const CameraPath& path, std::int64_t frame, const std::string& file);

}  // namespace starlens::animation
