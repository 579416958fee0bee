#include "trace_options.h"

#include <algorithm>
#include <cmath>

#include "animation/path_file.h"
#include "core/cli_validators.h"
#include "core/errors.h"
#include "spacetime/kerr_observers.h"
#include "spacetime/kerr_zamo.h"
#include "spacetime/vector_ops.h"

namespace starlens {
namespace {

[[noreturn]] void bad_flag(const std::string& flag, const std::string& reason) {
  throw_input_error("(arguments)", flag, reason);
}

void require_finite(double value, const std::string& flag) {
  if (!std::isfinite(value)) bad_flag(flag, "must be a finite number");
}

void require_latitude(double degrees, const std::string& flag) {
  if (!(std::abs(degrees) <= 90)) bad_flag(flag, "latitude must be within [-90, 90] degrees");
}

// The frame the hole is placed in: its pole is the camera's "up", its x axis the fallback.
struct PlacementFrame {
  std::string name;
  double lon, lat;
  Vec3 (*to_icrs)(const Vec3&);
};

Vec3 identity(const Vec3& v) {
  return v;
}

PlacementFrame placement_frame(const TraceOptions& o) {
  const bool galactic = o.bh_l || o.bh_b;
  const bool icrs = o.bh_ra || o.bh_dec;
  if (galactic && icrs) bad_flag("--bh-l/--bh-b", "give either --bh-l/--bh-b or --bh-ra/--bh-dec");
  if (icrs) {
    if (!o.bh_ra || !o.bh_dec) bad_flag("--bh-ra/--bh-dec", "give both");
    return {"icrs", *o.bh_ra, *o.bh_dec, identity};
  }
  return {"galactic", o.bh_l.value_or(0), o.bh_b.value_or(0), galactic_to_icrs};
}

// For Kerr (kerr.h) the camera's velocity relative to the ZAMO, whose e_phi = p x (-h) is the
// direction of increasing Boyer-Lindquist phi (kerr_observers.h for orbit and infall).
ObserverMotion resolve_kerr_motion(const TraceOptions& o, ObserverKind kind, const Observer& obs,
                                   const HoleFrame& frame) {
  if (o.orbit_pa && kind == ObserverKind::orbit)
    bad_flag("--orbit-pa",
             "kerr orbits lie in the equatorial plane, along e_phi: give --orbit-direction");
  const double c = std::cos(obs.inclination), s = std::sin(obs.inclination);
  const Vec3 e_phi = vec::cross(obs.spin_sky, vec::scaled(-1, obs.hole_direction));
  switch (kind) {
    case ObserverKind::zamo:
      return ObserverMotion();
    case ObserverKind::at_rest: {
      const double r_e = kerr::ergosphere_radius(obs.spin, c);
      if (!(obs.r_obs > r_e))
        bad_flag("--observer", "no static observer at or inside the ergosphere (--r-obs " +
                                   std::to_string(obs.r_obs) + " <= r_E " + std::to_string(r_e) +
                                   "): use --observer zamo");
      const double v = kerr::static_velocity(kerr::zamo_at(obs.spin, obs.r_obs, c, s));
      return ObserverMotion(vec::scaled(v, e_phi), "--observer");
    }
    case ObserverKind::orbit: {
      if (o.inclination.value_or(90) != 90)
        bad_flag("--inclination",
                 "--observer orbit: kerr circular orbits are equatorial "
                 "(--inclination 90)");
      const std::string sense_name = o.orbit_direction.value_or("prograde");
      if (sense_name != "prograde" && sense_name != "retrograde")
        bad_flag("--orbit-direction", "'" + sense_name + "' is not prograde or retrograde");
      const int sign =
          kerr::orbit_phi_sign(obs.spin, sense_name == "prograde" ? kerr::OrbitSense::prograde
                                                                  : kerr::OrbitSense::retrograde);
      const double r_ph = kerr::circular_photon_orbit(obs.spin, sign);
      const double v = kerr::orbit_zamo_velocity(obs.spin, obs.r_obs, sign);
      if (!(std::abs(v) < 1))
        bad_flag("--r-obs", "--observer orbit: no timelike " + sense_name +
                                " circular orbit at or inside the circular photon orbit r_ph = " +
                                std::to_string(r_ph) + " (got " + std::to_string(obs.r_obs) + ")");
      return ObserverMotion(vec::scaled(v, e_phi), "--observer");
    }
    case ObserverKind::infall:
      return ObserverMotion(
          vec::scaled(kerr::infall_zamo_speed(obs.spin, obs.r_obs, c, s), obs.hole_direction),
          "--observer");
    case ObserverKind::velocity:
      if (o.velocity.size() != 3) bad_flag("--velocity", "give three components VH,VN,VE");
      return ObserverMotion(local_velocity({o.velocity[0], o.velocity[1], o.velocity[2]}, frame),
                            "--velocity");
  }
  bad_flag("--observer", std::string(observer_kind_name(kind)) + " is not built for kerr");
}

// The camera's velocity for --observer, --orbit-pa and --velocity (observer_motion.h).
ObserverMotion resolve_motion(const TraceOptions& o, const Observer& obs, const HoleFrame& frame) {
  const ObserverKind kind = parse_observer_kind(o.observer);
  if (o.orbit_pa && kind != ObserverKind::orbit) bad_flag("--orbit-pa", "needs --observer orbit");
  if (!o.velocity.empty() && kind != ObserverKind::velocity)
    bad_flag("--velocity", "needs --observer velocity");
  if (o.orbit_direction && (kind != ObserverKind::orbit || o.spacetime != "kerr"))
    bad_flag("--orbit-direction", "needs --spacetime kerr --observer orbit");
  if (o.spacetime == "kerr") return resolve_kerr_motion(o, kind, obs, frame);
  const bool hole = o.spacetime == "schwarzschild";
  switch (kind) {
    case ObserverKind::zamo:
      bad_flag("--observer", "zamo needs --spacetime kerr");
    case ObserverKind::infall:
      if (!hole) bad_flag("--observer", "infall needs a hole (--spacetime schwarzschild)");
      return ObserverMotion(infall_velocity(o.r_obs, frame), "--observer");
    case ObserverKind::orbit: {
      if (!hole) bad_flag("--observer", "orbit needs a hole (--spacetime schwarzschild)");
      if (!(o.r_obs > 3))
        bad_flag("--observer", "no circular orbit at or inside the photon orbit (--r-obs <= 3)");
      const double pa = o.orbit_pa.value_or(90);
      require_finite(pa, "--orbit-pa");
      return ObserverMotion(orbit_velocity(o.r_obs, pa * kDegree, frame), "--observer");
    }
    case ObserverKind::velocity:
      if (o.velocity.size() != 3) bad_flag("--velocity", "give three components VH,VN,VE");
      return ObserverMotion(local_velocity({o.velocity[0], o.velocity[1], o.velocity[2]}, frame),
                            "--velocity");
    default:
      return ObserverMotion();
  }
}

}  // namespace

const std::vector<std::string>& path_set_flags() {
  static const std::vector<std::string> flags = {
      "--r-obs",     "--bh-l",        "--bh-b",    "--bh-ra",          "--bh-dec",
      "--look-dlon", "--look-dlat",   "--roll",    "--observer",       "--orbit-pa",
      "--velocity",  "--inclination", "--spin-pa", "--orbit-direction"};
  return flags;
}

PathFrame apply_camera_path(TraceOptions& o) {
  if (!o.frame) bad_flag("--frame", "required with --path");
  const bool kerr = o.spacetime == "kerr";
  if (o.spacetime != "schwarzschild" && !kerr)
    bad_flag("--path",
             "camera paths are Schwarzschild or Kerr worldlines (--spacetime "
             "schwarzschild or kerr)");
  if (kerr && !(o.spin && std::abs(*o.spin) < 1))
    bad_flag("--spin", "required with --spacetime kerr, |A| < 1");
  PathFrame out;
  const animation::CameraPath path =
      animation::read_camera_path(o.path, &out.text, kerr ? o.spin : std::nullopt);
  const animation::CameraState s = animation::checked_sample(path, *o.frame, o.path);
  out.frame = s.frame;
  out.time = s.time;
  out.phi = s.point.phi;
  out.rigid_orbit = path.kind == animation::WorldlineKind::orbit && !s.orientation.look_at;
  out.sky_frame = path.frame;
  // The hole seen from (r, theta, phi): the direction -e_r, at longitude phi + 180 and latitude
  // theta - 90 of the path's frame. There the trace's sky frame has toward = -e_r,
  // north = -e_theta and east = -e_phi (observer_motion.h's hole_frame).
  const double lon = std::fmod(s.point.phi / kDegree + 180, 360);
  const double hole_lon = lon < 0 ? lon + 360 : lon;
  const double hole_lat = std::clamp(s.point.theta / kDegree - 90, -90.0, 90.0);
  if (path.frame == "icrs") {
    o.bh_ra = hole_lon;
    o.bh_dec = hole_lat;
  } else {
    o.bh_l = hole_lon;
    o.bh_b = hole_lat;
  }
  o.r_obs = s.point.r;
  if (kerr) {
    // The path's pole is the spin axis: the observer's inclination is its colatitude and the
    // axis projects on the sky along the hole frame's north (--spin-pa 0). Circular orbits lie
    // in the equatorial plane exactly.
    o.inclination = path.kind == animation::WorldlineKind::orbit
                        ? 90.0
                        : std::clamp(s.point.theta / kDegree, 0.0, 180.0);
    o.spin_pa = 0;
  }
  const Vec3& v = s.point.velocity;
  if (v[0] != 0 || v[1] != 0 || v[2] != 0) {
    o.observer = "velocity";
    o.velocity = {-v[0], -v[1], -v[2]};
  } else if (kerr) {
    o.observer = "zamo";  // a Kerr path's velocities are relative to the ZAMO
  }
  const animation::Orientation& look = s.orientation;
  if (look.look_at) {
    o.look_dlon = (*look.look_at)[0] - hole_lon;
    o.look_dlat = (*look.look_at)[1] - hole_lat;
  } else {
    o.look_dlon = look.look_dlon;
    o.look_dlat = look.look_dlat;
  }
  o.roll = std::remainder(look.roll, 360.0);
  if (!(std::abs(hole_lat + o.look_dlat) <= 90))
    throw_input_error(o.path, "look.dlat",
                      "frame " + std::to_string(s.frame) + " looks past the pole");
  return out;
}

void add_trace_flags(CLI::App& app, TraceOptions& o) {
  app.add_option("--spacetime", o.spacetime, "minkowski | schwarzschild | kerr")
      ->capture_default_str();
  app.add_option("--spin", o.spin, "kerr: spin A in units of M, |A| < 1 (required)");
  app.add_option("--inclination", o.inclination,
                 "kerr: the observer's angle from the spin axis, degrees in [0, 180] (default 90)");
  app.add_option("--spin-pa", o.spin_pa,
                 "kerr: position angle of the spin axis's projection on the sky, degrees from "
                 "north through east (default 0)");
  app.add_option("--r-obs", o.r_obs, "Observer radius in units of M (> 3 for schwarzschild)")
      ->capture_default_str();
  app.add_option("--bh-l", o.bh_l, "Galactic longitude of the hole, degrees (default 0)");
  app.add_option("--bh-b", o.bh_b, "Galactic latitude of the hole, degrees (default 0)");
  app.add_option("--bh-ra", o.bh_ra, "ICRS right ascension of the hole, degrees");
  app.add_option("--bh-dec", o.bh_dec, "ICRS declination of the hole, degrees");
  app.add_option("--look-dlon", o.look_dlon,
                 "Look direction: longitude offset from the hole in its frame, degrees")
      ->capture_default_str();
  app.add_option("--look-dlat", o.look_dlat,
                 "Look direction: latitude offset from the hole in its frame, degrees")
      ->capture_default_str();
  app.add_option("--roll", o.roll, "Camera roll, degrees counter-clockwise on screen")
      ->capture_default_str();
  app.add_option("--fov", o.fov,
                 "Horizontal field of view, degrees (pinhole 60, fisheye 180, equirect 360)");
  app.add_option("--width", o.width, "Image width, pixels")->capture_default_str();
  app.add_option("--height", o.height, "Image height, pixels")->capture_default_str();
  app.add_option("--projection", o.projection, "pinhole | equirect | fisheye")
      ->capture_default_str();
  app.add_option(
         "--ray-azimuth", o.ray_azimuth,
         "series (Chebyshev series of the closed form, within 1e-12 rad) | closed-form (per ray)")
      ->capture_default_str();
  app.add_option("--observer", o.observer,
                 "static | zamo (kerr) | infall (free fall from rest at infinity) | orbit "
                 "(circular geodesic) | velocity (--velocity)")
      ->capture_default_str();
  app.add_option("--orbit-pa", o.orbit_pa,
                 "orbit (schwarzschild): direction of motion on the sky around the hole, "
                 "degrees from north through east (default 90)");
  app.add_option("--orbit-direction", o.orbit_direction,
                 "orbit (kerr, equatorial): prograde (co-rotating with the hole, the default) | "
                 "retrograde");
  app.add_option("--velocity", o.velocity,
                 "velocity: VH,VN,VE in units of c toward the hole, north and east, as the "
                 "static observer (kerr: the ZAMO) measures them")
      ->expected(3)
      ->delimiter(',');
  app.add_option("--mesh-step", o.mesh_step, "Base grid step, pixels")->capture_default_str();
  app.add_option("--mesh-tol", o.mesh_tol, "Linear inverse mapping tolerance, pixels")
      ->capture_default_str();
  app.add_option("--mesh-max-source", o.mesh_max_source, "Largest source triangle edge, degrees")
      ->capture_default_str();
  app.add_option("--mesh-max-depth", o.mesh_max_depth, "Bisections below the base grid")
      ->capture_default_str();
  app.add_option("-o,--output", o.output, "Output lensmap.h5")
      ->check(output_name("HDF5", {".h5", ".hdf5"}));
  app.add_option("--path", o.path,
                 "Camera path file (JSON, docs/usage/animation.md): sets the observer, its motion "
                 "and the look direction of --frame");
  app.add_option("--frame", o.frame, "--path: the frame to trace, 0..frames-1");
  app.add_option("--orbit-map", o.orbit_map,
                 "--path of a circular orbit: this frame's map made from MAP, the map of another "
                 "frame of the same path and flags, turned about the orbit's axis instead of "
                 "traced (exact by the orbit's symmetry)");
}

TraceSetup resolve_trace_options(const TraceOptions& o) {
  const std::pair<double, const char*> numbers[] = {{o.r_obs, "--r-obs"},
                                                    {o.look_dlon, "--look-dlon"},
                                                    {o.look_dlat, "--look-dlat"},
                                                    {o.roll, "--roll"},
                                                    {o.mesh_step, "--mesh-step"},
                                                    {o.mesh_tol, "--mesh-tol"},
                                                    {o.mesh_max_source, "--mesh-max-source"}};
  for (const auto& [value, flag] : numbers) require_finite(value, flag);
  if (o.spacetime != "minkowski" && o.spacetime != "schwarzschild" && o.spacetime != "kerr")
    bad_flag("--spacetime",
             "unknown spacetime '" + o.spacetime + "' (minkowski, schwarzschild or kerr)");
  if (!(o.r_obs > 0)) bad_flag("--r-obs", "must be positive");
  const bool kerr = o.spacetime == "kerr";
  const std::pair<const std::optional<double>*, const char*> kerr_flags[] = {
      {&o.spin, "--spin"}, {&o.inclination, "--inclination"}, {&o.spin_pa, "--spin-pa"}};
  for (const auto& [value, flag] : kerr_flags) {
    if (value->has_value() && !kerr) bad_flag(flag, "needs --spacetime kerr");
    if (value->has_value()) require_finite(**value, flag);
  }
  if (kerr) {
    if (!o.spin) bad_flag("--spin", "required with --spacetime kerr");
    if (!(std::abs(*o.spin) < 1)) bad_flag("--spin", "must satisfy |A| < 1");
    if (!(o.inclination.value_or(90) >= 0 && o.inclination.value_or(90) <= 180))
      bad_flag("--inclination", "must be within [0, 180] degrees");
    const double r_plus = kerr::outer_horizon(*o.spin);
    if (!(o.r_obs > r_plus))
      bad_flag("--r-obs", "must be outside the outer horizon r_+ = " + std::to_string(r_plus));
  }
  if (!(o.mesh_step > 0 && o.mesh_step <= 4096)) bad_flag("--mesh-step", "must be in (0, 4096] px");
  if (!(o.mesh_tol > 0)) bad_flag("--mesh-tol", "must be positive");
  if (!(o.mesh_max_source > 0 && o.mesh_max_source <= 180))
    bad_flag("--mesh-max-source", "must be in (0, 180] degrees");
  if (o.mesh_max_depth < 0 || o.mesh_max_depth > 40) bad_flag("--mesh-max-depth", "must be 0..40");

  const PlacementFrame frame = placement_frame(o);
  require_finite(frame.lon, frame.name == "icrs" ? "--bh-ra" : "--bh-l");
  require_finite(frame.lat, frame.name == "icrs" ? "--bh-dec" : "--bh-b");
  require_latitude(frame.lat, frame.name == "icrs" ? "--bh-dec" : "--bh-b");
  require_latitude(frame.lat + o.look_dlat, "--look-dlat");

  TraceSetup setup;
  setup.projection = parse_projection(o.projection);
  setup.fov_degrees = o.fov.value_or(default_fov_degrees(setup.projection));
  require_finite(setup.fov_degrees, "--fov");
  const Vec3 hole =
      frame.to_icrs(unit_vector_from_angles(frame.lon * kDegree, frame.lat * kDegree));
  const Vec3 look = frame.to_icrs(unit_vector_from_angles((frame.lon + o.look_dlon) * kDegree,
                                                          (frame.lat + o.look_dlat) * kDegree));
  setup.observer = {o.r_obs, hole, {}};
  setup.observer_kind = parse_observer_kind(o.observer);
  const HoleFrame sky = hole_frame(hole, frame.to_icrs({0, 0, 1}), frame.to_icrs({1, 0, 0}));
  if (kerr) {
    setup.observer.spin = *o.spin;
    setup.observer.inclination = inclination_radians(o.inclination.value_or(90));
    setup.observer.spin_sky =
        vec::normalized(position_angle_direction(sky, o.spin_pa.value_or(0) * kDegree));
  }
  setup.observer.motion = resolve_motion(o, setup.observer, sky);
  setup.ray_azimuth = parse_ray_azimuth(o.ray_azimuth);
  setup.axes =
      camera_axes(look, frame.to_icrs({0, 0, 1}), frame.to_icrs({1, 0, 0}), o.roll * kDegree);
  setup.mesh = {o.mesh_step, o.mesh_tol, o.mesh_max_source * kDegree, o.mesh_max_depth};

  LensmapAttributes& a = setup.attributes;
  a.spacetime = o.spacetime;
  a.r_obs = o.r_obs;
  // Minkowski rays go straight: no azimuth is evaluated.
  a.ray_azimuth = o.spacetime == "minkowski" ? "none"
                  : kerr                     ? "closed-form"  // Kerr rays: always closed form
                                             : ray_azimuth_name(setup.ray_azimuth);
  a.bh_frame = frame.name;
  a.bh_lon_deg = frame.lon;
  a.bh_lat_deg = frame.lat;
  const auto hole_angles = angles_from_vector(hole);
  a.bh_ra_deg = hole_angles[0] / kDegree;
  a.bh_dec_deg = hole_angles[1] / kDegree;
  const auto look_angles = angles_from_vector(look);
  a.look_dlon_deg = o.look_dlon;
  a.look_dlat_deg = o.look_dlat;
  a.look_ra_deg = look_angles[0] / kDegree;
  a.look_dec_deg = look_angles[1] / kDegree;
  a.roll_deg = o.roll;
  a.observer = observer_kind_name(setup.observer_kind);
  a.observer_velocity = setup.observer.motion.velocity();
  if (kerr) {
    a.spin = *o.spin;
    a.inclination_deg = o.inclination.value_or(90);
    a.spin_pa_deg = o.spin_pa.value_or(0);
  }
  a.projection = projection_name(setup.projection);
  a.fov_deg = setup.fov_degrees;
  a.width = o.width;
  a.height = o.height;
  a.mesh_step = o.mesh_step;
  a.mesh_tol = o.mesh_tol;
  a.mesh_max_source_deg = o.mesh_max_source;
  a.mesh_max_depth = o.mesh_max_depth;
  return setup;
}

}  // namespace starlens
