#include "spacetime/spacetime.h"

#include <cmath>

#include "core/errors.h"
#include "spacetime/minkowski.h"
#include "spacetime/schwarzschild.h"

namespace starlens {

const std::vector<std::string>& spacetime_names() {
  static const std::vector<std::string> names{"minkowski", "schwarzschild"};
  return names;
}

std::unique_ptr<Spacetime> make_spacetime(const std::string& name, const Observer& observer) {
  if (name == "minkowski") return std::make_unique<MinkowskiSpacetime>();
  if (name == "schwarzschild") return std::make_unique<SchwarzschildSpacetime>(observer);
  throw_input_error("(arguments)", "--spacetime",
                    "unknown spacetime '" + name + "' (minkowski or schwarzschild)");
}

}  // namespace starlens
