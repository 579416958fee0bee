#include "animation/path_file.h"

#include <cmath>
#include <string>

#include "core/checked_json.h"
#include "core/errors.h"
#include "core/text_input.h"
#include "spacetime/kerr_observers.h"
#include "spacetime/kerr_zamo.h"

namespace starlens::animation {
namespace {

// The text is kept whole as a lens-map attribute, and HDF5 keeps an attribute within 64 KiB.
constexpr std::uint64_t kMaxPathBytes = 32 << 10;

double finite_number(const JsonField& f) {
  const double v = f.as_number();
  if (!std::isfinite(v)) f.fail("must be a finite number");
  return v;
}

double number_or(const JsonField& parent, const std::string& key, double fallback) {
  const auto f = parent.find(key);
  return f ? finite_number(*f) : fallback;
}

double positive(const JsonField& f) {
  const double v = finite_number(f);
  if (!(v > 0)) f.fail("must be positive");
  return v;
}

// Schwarzschild, or Kerr of spin a: the spacetime the path's worldlines are geodesics of.
struct Hole {
  std::optional<double> spin;
};

double radius(const JsonField& f, const Hole& hole) {
  const double r = finite_number(f);
  if (hole.spin) {
    const double r_plus = kerr::outer_horizon(*hole.spin);
    if (!(r > r_plus))
      f.fail("r = " + std::to_string(r) +
             " is not outside the outer horizon r_+ = " + std::to_string(r_plus) + " M");
  } else if (!(r > kInnermostRadius)) {
    f.fail("r = " + std::to_string(r) +
           " is not outside r = 3 M (the photon orbit; the horizon is at 2 M)");
  }
  return r;
}

double colatitude(const JsonField& f) {
  const double deg = finite_number(f);
  if (!(deg >= 0 && deg <= 180)) f.fail("theta must be within [0, 180] degrees");
  return deg * kDegree;
}

Orientation read_orientation(const JsonField& parent) {
  Orientation o;
  const auto look = parent.find("look");
  if (!look) return o;
  look->require_object();
  for (const auto& [key, value] : look->members())
    if (key != "dlon" && key != "dlat" && key != "at" && key != "roll")
      value.fail("unknown field (dlon, dlat, at, roll)");
  o.look_dlon = number_or(*look, "dlon", 0);
  o.look_dlat = number_or(*look, "dlat", 0);
  o.roll = number_or(*look, "roll", 0);
  if (const auto at = look->find("at")) {
    const auto e = at->require_array().elements();
    if (e.size() != 2) at->fail("expected [longitude, latitude] in degrees");
    const double lat = finite_number(e[1]);
    if (!(std::abs(lat) <= 90)) e[1].fail("latitude must be within [-90, 90] degrees");
    o.look_at = std::array<double, 2>{finite_number(e[0]), lat};
    if (look->contains("dlon") || look->contains("dlat")) at->fail("give either at or dlon/dlat");
  }
  return o;
}

Vec3 speed_checked(const JsonField& f, const Vec3& v) {
  const double speed = std::sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
  if (!(speed < 1)) f.fail("speed " + std::to_string(speed) + " c is not below the speed of light");
  return v;
}

Keyframe read_keyframe(const JsonField& k, const Hole& hole) {
  k.require_object();
  Keyframe f;
  f.time = finite_number(k["time"]);
  f.r = radius(k["r"], hole);
  f.theta = colatitude(k["theta"]);
  f.phi = finite_number(k["phi"]) * kDegree;
  const bool has_velocity = k.contains("velocity"), has_motion = k.contains("motion");
  if (has_velocity && has_motion) k["motion"].fail("give either velocity or motion");
  if (has_velocity) {
    const auto e = k["velocity"].require_array().elements();
    if (e.size() != 3) k["velocity"].fail("expected [v_r, v_theta, v_phi] in units of c");
    f.velocity = speed_checked(k["velocity"],
                               {finite_number(e[0]), finite_number(e[1]), finite_number(e[2])});
  } else if (has_motion) {
    if (hole.spin)
      k["motion"].fail(
          "names Schwarzschild motions: give velocity (relative to the ZAMO) for kerr");
    const std::string m = k["motion"].as_string();
    if (m == "static") {
    } else if (m == "infall") {
      f.velocity = {-infall_speed(f.r, 1), 0, 0};
    } else if (m == "orbit" || m == "orbit_retrograde") {
      f.velocity = {0, 0, (m == "orbit" ? 1 : -1) * std::sqrt(1 / (f.r - 2))};
    } else {
      k["motion"].fail("'" + m + "' is not static, infall, orbit or orbit_retrograde");
    }
  }
  f.orientation = read_orientation(k);
  return f;
}

// +1 prograde (the default), -1 retrograde.
int orbit_direction(const JsonField& w) {
  const std::string dir = w.string_or("direction", "prograde");
  if (dir != "prograde" && dir != "retrograde")
    w["direction"].fail("'" + dir + "' is not prograde or retrograde");
  return dir == "prograde" ? 1 : -1;
}

void read_worldline(const JsonField& w, const Hole& hole, CameraPath& p) {
  w.require_object();
  const std::string type = w["type"].as_string();
  if (type == "keyframes") {
    p.kind = WorldlineKind::keyframes;
    const auto list = w["keyframes"].require_array().elements();
    if (list.empty()) w["keyframes"].fail("needs at least one keyframe");
    for (const auto& k : list) {
      p.keyframes.push_back(read_keyframe(k, hole));
      if (p.keyframes.size() > 1 &&
          !(p.keyframes.back().time > p.keyframes[p.keyframes.size() - 2].time))
        k["time"].fail("keyframe times must increase");
    }
  } else if (type == "orbit") {
    p.kind = WorldlineKind::orbit;
    p.r = radius(w["r"], hole);
    const bool unstable_ok = w.find("allow_unstable") && w["allow_unstable"].as_bool();
    p.direction = orbit_direction(w);
    double isco = kIscoRadius;
    if (hole.spin) {
      const double a = *hole.spin;
      p.direction = kerr::orbit_phi_sign(
          a, p.direction > 0 ? kerr::OrbitSense::prograde : kerr::OrbitSense::retrograde);
      const double r_ph = kerr::circular_photon_orbit(a, p.direction);
      if (!(std::abs(kerr::orbit_zamo_velocity(a, p.r, p.direction)) < 1))
        w["r"].fail("r = " + std::to_string(p.r) +
                    " is at or inside this direction's circular photon orbit r_ph = " +
                    std::to_string(r_ph) + " M: no timelike circular orbit");
      isco = kerr::isco_radius(a, p.direction);
    }
    if (p.r < isco && !unstable_ok)
      w["r"].fail("r = " + std::to_string(p.r) + " is below the ISCO (" + std::to_string(isco) +
                  " M), where circular orbits are unstable (allow_unstable: true to render one)");
    p.phi = number_or(w, "phi", 0) * kDegree;
    p.theta = 90 * kDegree;
  } else if (type == "infall") {
    p.kind = WorldlineKind::infall;
    p.r = radius(w["r0"], hole);
    p.theta = w.find("theta") ? colatitude(w["theta"]) : 90 * kDegree;
    p.phi = number_or(w, "phi", 0) * kDegree;
    const std::string from = w.string_or("from", "rest");
    if (from != "rest" && from != "infinity")
      w["from"].fail("'" + from + "' is not rest or infinity");
    p.from_infinity = from == "infinity";
    if (hole.spin && !p.from_infinity)
      (w.contains("from") ? w["from"] : w)
          .fail(
              "kerr falls start from rest at infinity (E = 1, L = 0, Q = 0): give "
              "from: infinity");
  } else if (type == "flyby") {
    if (hole.spin) w["type"].fail("flyby is a Schwarzschild worldline (kerr: orbit, infall)");
    p.kind = WorldlineKind::flyby;
    p.r = radius(w["periapsis"], hole);
    const double speed = finite_number(w["speed"]);
    if (!(speed > 0 && speed < 1)) w["speed"].fail("the speed at infinity must be in (0, 1) c");
    p.flyby = flyby_orbit(p.r, speed);
    if (!flyby_turns(p.flyby))
      w["periapsis"].fail("no fly-by turns at r = " + std::to_string(p.r) +
                          " with this speed (it would be captured): raise periapsis or speed");
    p.phi = number_or(w, "phi", 0) * kDegree;
    p.direction = orbit_direction(w);
    p.theta = 90 * kDegree;
  } else {
    w["type"].fail("'" + type + "' is not keyframes, orbit, infall or flyby");
  }
}

std::string innermost_name(const CameraPath& path) {
  return path.spin ? "the outer horizon r_+ = " + std::to_string(innermost_radius(path)) + " M"
                   : "r = 3 M";
}

}  // namespace

CameraPath parse_camera_path(const std::string& text, const std::string& file,
                             std::optional<double> spin) {
  if (text.find_first_not_of(" \t\r\n") == std::string::npos)
    throw_input_error(file, "", "is empty, not a camera path");
  nlohmann::json json;
  try {
    json = nlohmann::json::parse(text);
  } catch (const nlohmann::json::exception& e) {
    throw_input_error(file, "", std::string("not valid JSON: ") + e.what());
  }
  const JsonField root(json, file);
  root.require_object();
  CameraPath p;
  p.spin = spin;
  p.frame = root.string_or("frame", "galactic");
  if (p.frame != "galactic" && p.frame != "icrs")
    root["frame"].fail("'" + p.frame + "' is not galactic or icrs");
  p.fps = positive(root["fps"]);
  p.time_per_second = positive(root["time_per_second"]);
  p.start_time = number_or(root, "start_time", 0);
  const bool has_frames = root.contains("frames"), has_duration = root.contains("duration");
  if (has_frames == has_duration) root.fail("give exactly one of frames and duration");
  if (has_frames) {
    const std::uint64_t n = root["frames"].as_count();
    if (n < 1 || n > 10'000'000) root["frames"].fail("must be 1..10000000");
    p.frames = static_cast<std::int64_t>(n);
  } else {
    const double seconds = positive(root["duration"]);
    const double n = std::round(seconds * p.fps);
    if (!(n >= 1 && n <= 1e7)) root["duration"].fail("must give 1..10000000 frames at fps");
    p.frames = static_cast<std::int64_t>(n);
  }
  p.orientation = read_orientation(root);
  read_worldline(root["worldline"], Hole{spin}, p);
  if (p.kind == WorldlineKind::keyframes && root.contains("look"))
    root["look"].fail("keyframe paths give look in each keyframe");
  // A fall ends at the singularity (Kerr: its outer horizon): its last frame must still be
  // outside the innermost radius (r decreases monotonically, so the last frame is the innermost).
  if (p.kind == WorldlineKind::infall) {
    if ((spin || !p.from_infinity) && p.start_time < 0)
      root["start_time"].fail("this fall starts at r0 at tau = 0: must be >= 0");
    const double t_end = frame_time(p, p.frames - 1);
    const double duration =
        spin              ? kerr_infall_proper_time(*spin, p.r, p.theta, kerr::outer_horizon(*spin))
        : p.from_infinity ? infall_from_infinity_duration(p.r)
                          : infall_from_rest_duration(p.r);
    if (!(t_end < duration && sample(p, p.frames - 1).point.r > innermost_radius(p)))
      root["frames"].fail("the fall reaches " + innermost_name(p) +
                          " before the last frame (proper time " + std::to_string(t_end) + " M)");
  }
  return p;
}

double innermost_radius(const CameraPath& path) {
  return path.spin ? kerr::outer_horizon(*path.spin) : kInnermostRadius;
}

CameraPath read_camera_path(const std::filesystem::path& path, std::string* text,
                            std::optional<double> spin) {
  const std::string content = read_text_input(path, "camera path", kMaxPathBytes);
  CameraPath p = parse_camera_path(content, path.string(), spin);
  if (text) *text = content;
  return p;
}

CameraState checked_sample(const CameraPath& path, std::int64_t frame, const std::string& file) {
  if (frame < 0 || frame >= path.frames)
    throw_input_error(
        file, "frames",
        "frame " + std::to_string(frame) + " is outside 0.." + std::to_string(path.frames - 1));
  CameraState s = sample(path, frame);
  if (!(s.point.r > innermost_radius(path)))
    throw_input_error(file, "worldline",
                      "frame " + std::to_string(frame) + " is at r = " + std::to_string(s.point.r) +
                          ", not outside " + innermost_name(path));
  return s;
}

}  // namespace starlens::animation
