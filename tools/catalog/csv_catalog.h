#pragma once
// CSV catalogues: a header "ra,dec,mag,teff" or "ra,dec,mag,bv", then one star a line: ICRS
// degrees, the magnitude in the band named on the command line, and either the effective
// temperature (K) or B-V. With a column mapping (--columns ra=RA_ICRS,dec=DE_ICRS,...) the
// header names the columns, in any order and among others, and the mapping says which are
// used. Blank lines and lines starting with '#' are skipped. Any bad line is an InputError
// naming the file, the line number and the field (or column).
#include <cstdint>
#include <filesystem>
#include <functional>
#include <map>
#include <string>

namespace starlens::catalog {

enum class CsvColour { teff, bv, bp_rp };

struct CsvStar {
  double ra_deg = 0;
  double dec_deg = 0;
  double mag = 0;
  CsvColour colour = CsvColour::teff;  // what the colour column holds
  double teff_or_bv = 0;               // the temperature (K), B-V or BP-RP
  bool has_id = false;                 // an id column is mapped
  std::int64_t id = 0;
};

// --columns: key -> the header's column name. Keys: ra, dec, mag (required), teff, bv or bp_rp
// (one of them), id (optional). Empty: the strict four-column format.
using CsvColumns = std::map<std::string, std::string>;
// Parses "key=NAME,key=NAME,..."; InputError naming --columns and the key otherwise (an unknown
// or repeated key, a missing required one, not exactly one of teff, bv and bp_rp, an empty name).
CsvColumns parse_csv_columns(const std::string& text);

// "" when a column mapped to `key` may have `unit` (a table's own unit: ECSV, FITS TUNITn):
// deg for ra and dec, K for teff, mag or none for mag, bv and bp_rp, none for id; otherwise the
// problem ("unit 'rad' is not deg (--columns ra)"): another unit would be read as the wrong
// quantity.
std::string mapped_unit_problem(const std::string& key, const std::string& unit);

// Streams the file line by line; returns the colour column kind (teff when the file is
// empty: an empty catalogue). Calls `visit` for every star.
CsvColour read_csv_catalogue(const std::filesystem::path& path, const CsvColumns& columns,
                             const std::function<void(const CsvStar&)>& visit);

// Accepted temperature range of a CSV teff column, K.
constexpr double kCsvTeffMin = 1000.0;
constexpr double kCsvTeffMax = 100000.0;
// Accepted range of a colour column (bv, bp_rp), mag: wider than any relation's (they clamp).
constexpr double kCsvColourMin = -2.0;
constexpr double kCsvColourMax = 10.0;
// The key of a colour kind ("teff", "bv", "bp_rp") and the kind a mapping names.
const char* colour_key(CsvColour colour);
CsvColour mapped_colour(const CsvColumns& columns);

}  // namespace starlens::catalog
