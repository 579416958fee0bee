#include "spacetime/spacetime.h"

#include <cmath>

#include "core/errors.h"
#include "spacetime/kerr.h"
#include "spacetime/minkowski.h"
#include "spacetime/moving_observer.h"
#include "spacetime/schwarzschild.h"

namespace starlens {

const std::vector<std::string>& spacetime_names() {
  static const std::vector<std::string> names{"minkowski", "schwarzschild", "kerr"};
  return names;
}

const char* ray_azimuth_name(RayAzimuth azimuth) {
  return azimuth == RayAzimuth::series ? "series" : "closed-form";
}

RayAzimuth parse_ray_azimuth(const std::string& name) {
  if (name == "series") return RayAzimuth::series;
  if (name == "closed-form") return RayAzimuth::closed_form;
  throw_input_error("(arguments)", "--ray-azimuth", "'" + name + "' is not series or closed-form");
}

std::unique_ptr<Spacetime> make_spacetime(const std::string& name, const Observer& observer,
                                          RayAzimuth azimuth) {
  std::unique_ptr<Spacetime> at_rest;
  if (name == "minkowski") {
    at_rest = std::make_unique<MinkowskiSpacetime>();
  } else if (name == "schwarzschild") {
    at_rest = std::make_unique<SchwarzschildSpacetime>(observer, azimuth);
  } else if (name == "kerr") {
    at_rest = std::make_unique<KerrSpacetime>(observer);
  } else {
    throw_input_error("(arguments)", "--spacetime",
                      "unknown spacetime '" + name + "' (minkowski, schwarzschild or kerr)");
  }
  if (!observer.motion.moving()) return at_rest;
  return std::make_unique<MovingObserverSpacetime>(std::move(at_rest), observer.motion);
}

}  // namespace starlens
