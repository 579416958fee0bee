// Camera path files (animation/path_file.h): the frames' proper times and cameras, and every
// refusal naming the file and the field.
#include <doctest/doctest.h>

#include <cmath>
#include <string>

#include "animation/path_file.h"
#include "core/errors.h"

using namespace starlens;
using namespace starlens::animation;

namespace {

std::string refusal(const std::string& text) {
  try {
    parse_camera_path(text, "p.json");
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

}  // namespace

TEST_CASE("orbit path: frame times in proper time, azimuth from the closed form") {
  const CameraPath p = parse_camera_path(
      R"({"fps": 24, "duration": 10, "time_per_second": 48,
          "worldline": {"type": "orbit", "r": 10, "phi": 30, "direction": "retrograde"},
          "look": {"dlon": 5, "roll": 10}})",
      "p.json");
  CHECK(p.frames == 240);
  CHECK(frame_time(p, 0) == 0);
  CHECK(frame_time(p, 12) == doctest::Approx(24.0));
  const CameraState s = checked_sample(p, 12, "p.json");
  // phi = 30 deg - tau sqrt(1/r^3) / sqrt(1 - 3/r), tau = 12 frames * 2 M.
  const double expected = 30 * kDegree - 24 * std::sqrt(1e-3) / std::sqrt(0.7);
  CHECK(s.point.phi == doctest::Approx(expected).epsilon(1e-14));
  CHECK(s.point.theta == doctest::Approx(std::acos(0.0)));
  CHECK(s.point.velocity[2] == doctest::Approx(-std::sqrt(1 / 8.0)));
  CHECK(s.orientation.look_dlon == 5);
  CHECK(s.orientation.roll == 10);
}

TEST_CASE("keyframes: linear in proper time, held before the first and after the last") {
  const CameraPath p = parse_camera_path(
      R"({"fps": 10, "frames": 30, "time_per_second": 10, "start_time": -1,
          "worldline": {"type": "keyframes", "keyframes": [
            {"time": 0, "r": 20, "theta": 90, "phi": 0, "motion": "static"},
            {"time": 10, "r": 10, "theta": 60, "phi": 40, "velocity": [0.1, 0, 0.2],
             "look": {"dlat": 20}}]}})",
      "p.json");
  const CameraState before = checked_sample(p, 0, "p.json");  // tau = -1
  CHECK(before.point.r == 20);
  const CameraState mid = checked_sample(p, 6, "p.json");  // tau = 5
  CHECK(mid.time == doctest::Approx(5));
  CHECK(mid.point.r == doctest::Approx(15));
  CHECK(mid.point.theta == doctest::Approx(75 * kDegree));
  CHECK(mid.point.phi == doctest::Approx(20 * kDegree));
  CHECK(mid.point.velocity[0] == doctest::Approx(0.05));
  CHECK(mid.point.velocity[2] == doctest::Approx(0.1));
  CHECK(mid.orientation.look_dlat == doctest::Approx(10));
  const CameraState after = checked_sample(p, 29, "p.json");  // tau = 28
  CHECK(after.point.r == 10);
}

TEST_CASE("infall path: the last frame must stay outside r = 3 M") {
  // From rest at 20 M the fall lasts pi sqrt(1000) = 99.3 M.
  const std::string head = R"({"fps": 10, "time_per_second": 10, "worldline":
      {"type": "infall", "r0": 20, "from": "rest"}, "frames": )";
  const CameraPath p = parse_camera_path(head + "90}", "p.json");
  CHECK(checked_sample(p, 89, "p.json").point.r > 3);
  CHECK(refusal(head + "100}").rfind("p.json: frames: the fall reaches r = 3 M", 0) == 0);
  CHECK(refusal(head + R"(90, "start_time": -5})").rfind("p.json: start_time: ", 0) == 0);
  // From infinity a negative start is the fall's earlier part, further out.
  const CameraPath far = parse_camera_path(
      R"({"fps": 10, "time_per_second": 10, "frames": 5, "start_time": -50,
          "worldline": {"type": "infall", "r0": 20, "from": "infinity"}})",
      "p.json");
  CHECK(checked_sample(far, 0, "p.json").point.r > 20);
}

TEST_CASE("fly-by path: periapsis at tau = 0, falling in before it") {
  const CameraPath p = parse_camera_path(
      R"({"fps": 10, "frames": 21, "time_per_second": 100, "start_time": -100,
          "worldline": {"type": "flyby", "periapsis": 10, "speed": 0.2, "phi": 90}})",
      "p.json");
  const CameraState in = checked_sample(p, 0, "p.json"), at = checked_sample(p, 10, "p.json"),
                    out = checked_sample(p, 20, "p.json");
  CHECK(at.time == 0);
  CHECK(at.point.r == 10);
  CHECK(at.point.phi == doctest::Approx(90 * kDegree));
  CHECK(in.point.r == doctest::Approx(out.point.r));
  CHECK(in.point.velocity[0] < 0);
  CHECK(out.point.velocity[0] > 0);
  CHECK(out.point.phi > at.point.phi);
}

TEST_CASE("bad path files name the file and the field") {
  const std::string orbit = R"("worldline": {"type": "orbit", "r": 10})";
  const std::pair<std::string, std::string> cases[] = {
      {R"({"frames": 10, "time_per_second": 1, )" + orbit + "}", "p.json: fps: "},
      {R"({"fps": "24", "frames": 10, "time_per_second": 1, )" + orbit + "}", "p.json: fps: "},
      {R"({"fps": 24, "time_per_second": 1, )" + orbit + "}", "p.json: give exactly one"},
      {R"({"fps": 24, "frames": 0, "time_per_second": 1, )" + orbit + "}", "p.json: frames: "},
      {R"({"fps": 24, "frames": 10, )" + orbit + "}", "p.json: time_per_second: "},
      {R"({"fps": 24, "frames": 10, "time_per_second": 1})", "p.json: worldline: "},
      {R"({"fps": 24, "frames": 10, "time_per_second": 1, "worldline": {"type": "orbit", "r": 2.5}})",
       "p.json: worldline.r: "},
      {R"({"fps": 24, "frames": 10, "time_per_second": 1, "worldline": {"type": "orbit", "r": 5}})",
       "p.json: worldline.r: r = 5.000000 is below the ISCO"},
      {R"({"fps": 24, "frames": 10, "time_per_second": 1, "worldline": {"type": "spiral"}})",
       "p.json: worldline.type: "},
      {R"({"fps": 24, "frames": 10, "time_per_second": 1, "worldline": {"type": "infall"}})",
       "p.json: worldline.r0: "},
      {R"({"fps": 24, "frames": 10, "time_per_second": 1, "worldline": {"type": "keyframes",
         "keyframes": [{"time": 0, "r": 10, "theta": 90, "phi": 0, "velocity": [0.9, 0, 0.9]}]}})",
       "p.json: worldline.keyframes[0].velocity: speed"},
      {R"({"fps": 24, "frames": 10, "time_per_second": 1, "worldline": {"type": "keyframes",
         "keyframes": [{"time": 0, "r": 10, "theta": 190, "phi": 0}]}})",
       "p.json: worldline.keyframes[0].theta: "},
      {R"({"fps": 24, "frames": 10, "time_per_second": 1, "frame": "ecliptic", )" + orbit + "}",
       "p.json: frame: "},
      {R"({"fps": 24, "frames": 10, "time_per_second": 1, "look": {"pan": 3}, )" + orbit + "}",
       "p.json: look.pan: unknown field"},
      {R"({"fps": 24, "frames": 10, "time_per_second": 1, "worldline": {"type": "flyby",
         "periapsis": 3.5, "speed": 0.05}})",
       "p.json: worldline.periapsis: no fly-by turns"},
      {R"({"fps": 24, "frames": 10, "time_per_second": 1, "worldline": {"type": "flyby",
         "periapsis": 10, "speed": 1}})",
       "p.json: worldline.speed: "},
      {"[1, 2]", "p.json: "},
      {"{not json", "p.json: not valid JSON"},
  };
  for (const auto& [text, prefix] : cases) {
    CAPTURE(text);
    const std::string message = refusal(text);
    CHECK(message.rfind(prefix, 0) == 0);
    CHECK(message.find('\n') == std::string::npos);
  }
  // allow_unstable lets an orbit between the photon orbit and the ISCO through.
  CHECK(refusal(R"({"fps": 24, "frames": 10, "time_per_second": 1,
      "worldline": {"type": "orbit", "r": 5, "allow_unstable": true}})") == "");
  const CameraPath p = parse_camera_path(
      R"({"fps": 24, "frames": 10, "time_per_second": 1, )" + orbit + "}", "p.json");
  try {
    checked_sample(p, 10, "p.json");
    FAIL("frame 10 of 10 accepted");
  } catch (const InputError& e) {
    CHECK(std::string(e.what()) == "p.json: frames: frame 10 is outside 0..9");
  }
}
