// Cost of one fast colour lookup over star-like temperatures and scales, in ns.
#include <chrono>
#include <cstdio>
#include <vector>

#include "colour/colour_table.h"

int main() {
  using namespace starlens;
  const ColourTable& table = ColourTable::shared();
  // Temperatures spread over 2000..40000 K in a scrambled order (no cache-friendly sweep).
  std::vector<double> temperatures(1 << 16);
  for (std::size_t i = 0; i < temperatures.size(); ++i) {
    const double u = static_cast<double>((i * 2654435761u) % temperatures.size()) /
                     static_cast<double>(temperatures.size());
    temperatures[i] = 2000.0 * std::pow(20.0, u);
  }
  const int lookups = 20'000'000;
  double checksum = 0;
  const auto start = std::chrono::steady_clock::now();
  for (int i = 0; i < lookups; ++i) {
    const StarColour c = table.lookup(temperatures[i & (temperatures.size() - 1)], 1.0 + 1e-9 * i);
    checksum += c.r + c.g + c.b + c.flux;
  }
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  const double nanoseconds = 1e9 * seconds / lookups;
  std::printf("colour table lookup: %.2f ns (%d lookups, checksum %.6e)\n", nanoseconds, lookups,
              checksum);
  return nanoseconds < 100.0 ? 0 : 1;
}
