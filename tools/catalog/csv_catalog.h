#pragma once
// CSV catalogues (issue 4): a header "ra,dec,mag,teff" or "ra,dec,mag,bv", then one star a
// line: ICRS degrees, the magnitude in the band named on the command line, and either the
// effective temperature (K) or B-V. Blank lines and lines starting with '#' are skipped.
// Any bad line is an InputError naming the file, the line number and the field.
#include <filesystem>
#include <functional>
#include <string>

namespace starlens::catalog {

enum class CsvColour { teff, bv };

struct CsvStar {
  double ra_deg = 0;
  double dec_deg = 0;
  double mag = 0;
  CsvColour colour = CsvColour::teff;  // what the fourth column holds
  double teff_or_bv = 0;
};

// Streams the file line by line; returns the colour column kind (teff when the file is
// empty: an empty catalogue). Calls `visit` for every star.
CsvColour read_csv_catalogue(const std::filesystem::path& path,
                             const std::function<void(const CsvStar&)>& visit);

// Accepted temperature range of a CSV teff column, K.
constexpr double kCsvTeffMin = 1000.0;
constexpr double kCsvTeffMax = 100000.0;

}  // namespace starlens::catalog
