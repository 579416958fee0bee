#pragma once
// `starlens-trace inspect lensmap.h5 [--png out.png [--edges]]`: a summary of the map and a
// diagnostic picture of it.
#include <string>

namespace starlens {

struct InspectOptions {
  std::string lensmap;
  std::string png;
  bool edges = false;
  bool force = false;
};

int run_inspect(const InspectOptions& options);

}  // namespace starlens
