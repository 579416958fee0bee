#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "colour/cie1931.h"

using namespace starlens;

namespace {
constexpr const char* kColordTable = "/usr/share/colord/cmf/CIE1931-2deg-XYZ.cmf";

// The three data rows of a CGATS file, parsed here without the generator's code.
std::vector<std::vector<double>> read_cgats_rows(const std::string& path) {
  std::ifstream file(path);
  std::string line;
  std::vector<std::vector<double>> rows;
  bool in_data = false;
  while (std::getline(file, line)) {
    if (line.rfind("BEGIN_DATA", 0) == 0 && line.find("FORMAT") == std::string::npos) {
      in_data = true;
    } else if (line.rfind("END_DATA", 0) == 0 && line.find("FORMAT") == std::string::npos) {
      in_data = false;
    } else if (in_data) {
      std::istringstream fields(line);
      rows.emplace_back();
      for (double value; fields >> value;) rows.back().push_back(value);
    }
  }
  return rows;
}
}  // namespace

TEST_CASE("the embedded table is colord's CIE 1931 2-degree file, value for value") {
  if (!std::filesystem::exists(kColordTable)) {
    MESSAGE("colord-data not installed here; embedded table not compared");
    return;
  }
  const auto rows = read_cgats_rows(kColordTable);
  REQUIRE(rows.size() == 3);
  const std::array<const std::array<double, cie1931::kCieCount>*, 3> embedded = {
      &cie1931::kCieXBar, &cie1931::kCieYBar, &cie1931::kCieZBar};
  for (int f = 0; f < 3; ++f) {
    REQUIRE(rows[f].size() == static_cast<std::size_t>(cie1931::kCieCount));
    for (int i = 0; i < cie1931::kCieCount; ++i) CHECK((*embedded[f])[i] == rows[f][i]);
  }
  CHECK(cie_first_nm() == 360.0);
  CHECK(cie_last_nm() == 830.0);
}

TEST_CASE("the CIE table has its defining landmarks") {
  // y-bar is the photopic luminosity function: 1 at 555 nm, its maximum.
  CHECK(colour_match_at(555.0).y_bar == 1.0);
  for (int i = 0; i < cie1931::kCieCount; ++i) CHECK(cie1931::kCieYBar[i] <= 1.0);
  // The three functions have equal areas (equal-energy white E has x = y = 1/3): CIE 15
  // gives 106.865, 106.857 and 106.892 nm on its 1 nm table.
  double area[3] = {0, 0, 0};
  for (int i = 0; i + 1 < cie1931::kCieCount; ++i) {
    area[0] += 2.5 * (cie1931::kCieXBar[i] + cie1931::kCieXBar[i + 1]);
    area[1] += 2.5 * (cie1931::kCieYBar[i] + cie1931::kCieYBar[i + 1]);
    area[2] += 2.5 * (cie1931::kCieZBar[i] + cie1931::kCieZBar[i + 1]);
  }
  CHECK(area[0] == doctest::Approx(106.865).epsilon(2e-3));
  CHECK(area[1] == doctest::Approx(106.857).epsilon(2e-3));
  CHECK(area[2] == doctest::Approx(106.892).epsilon(2e-3));
}

TEST_CASE("the colour-matching functions are linear between entries and zero outside") {
  for (int i = 0; i < cie1931::kCieCount; ++i) {
    const ColourMatch at_knot = colour_match_at(cie_wavelength_nm(i));
    CHECK(at_knot.x_bar == cie1931::kCieXBar[i]);
    CHECK(at_knot.y_bar == cie1931::kCieYBar[i]);
    CHECK(at_knot.z_bar == cie1931::kCieZBar[i]);
  }
  const ColourMatch between = colour_match_at(551.0);  // 1/5 of the way from 550 to 555
  CHECK(between.y_bar == doctest::Approx(0.8 * 0.9949501 + 0.2 * 1.0).epsilon(1e-15));
  for (double outside : {0.0, 359.999, 830.001, 1e6, -5.0}) {
    const ColourMatch m = colour_match_at(outside);
    CHECK(m.x_bar == 0.0);
    CHECK(m.y_bar == 0.0);
    CHECK(m.z_bar == 0.0);
  }
}
