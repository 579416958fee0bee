#include "twomass_psc.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstring>
#include <limits>

#include "core/utf8.h"

namespace starlens::catalog {
namespace {

// 0-based columns (CATALOG_FORMATS.md gives them 1-based).
constexpr int kRa = 0, kDec = 1, kJ = 6, kH = 10, kKs = 14, kPhQual = 18, kPtsKey = 28;
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

bool is_null(std::string_view field) {
  return field == "\\N";
}

bool parse_number(std::string_view field, double& value) {
  if (field.empty()) return false;
  const char* begin = field.data();
  if (*begin == '+') ++begin;
  const auto [end, error] = std::from_chars(begin, field.data() + field.size(), value);
  return error == std::errc() && end == field.data() + field.size() && std::isfinite(value);
}

// 'field' (at most 40 characters), built by appends (GCC 12 warns falsely on "'" + string).
std::string quote(std::string_view field) {
  std::string quoted(1, '\'');
  quoted.append(field.substr(0, 40));
  quoted.push_back('\'');
  return quoted;
}

}  // namespace

bool PscRow::usable(int band) const {
  const char q = quality[static_cast<std::size_t>(band)];
  return q >= 'A' && q <= 'E' && !std::isnan(mag[static_cast<std::size_t>(band)]);
}

int psc_band_index(const std::string& band_name) {
  if (band_name == "J") return 0;
  if (band_name == "H") return 1;
  if (band_name == "Ks") return 2;
  return -1;
}

std::string parse_psc_row(std::string_view line, PscRow& row, std::string& detail) {
  // A damaged byte anywhere marks a damaged row; the details below quote fields (to manifests,
  // JSON), so only printable ASCII gets that far.
  if (const auto bad = first_non_printable_ascii(line)) {
    detail = "byte " + hex_byte(static_cast<unsigned char>(line[*bad])) + " at column " +
             std::to_string(*bad + 1) + " (2MASS rows are printable ASCII)";
    return "not_ascii";
  }
  // Split the fields used (the first kUsedFields) without copying, then only count the
  // separators of the rest (a vectorised count: most of the row is fields we skip).
  constexpr int kUsedFields = kPtsKey + 1;
  std::array<std::string_view, kUsedFields> fields;
  int count = 0;
  std::size_t start = 0;
  for (std::size_t i = 0; i < line.size() && count < kUsedFields - 1; ++i) {
    if (line[i] != '|') continue;
    fields[static_cast<std::size_t>(count++)] = line.substr(start, i - start);
    start = i + 1;
  }
  if (count == kUsedFields - 1) {
    const std::size_t bar = line.find('|', start);
    fields[static_cast<std::size_t>(count++)] = line.substr(start, bar - start);
    if (bar != std::string_view::npos)
      count += 1 + static_cast<int>(std::count(line.begin() + static_cast<std::ptrdiff_t>(bar) + 1,
                                               line.end(), '|'));
  } else {
    ++count;  // the last (partial) field
  }
  if (count != kPscFieldCount) {
    detail = std::to_string(count) + " fields, expected " + std::to_string(kPscFieldCount);
    return "field_count";
  }
  if (!parse_number(fields[kRa], row.ra_deg) || row.ra_deg < 0 || row.ra_deg >= 360) {
    detail = "ra " + quote(fields[kRa]) + " is not a number in [0, 360)";
    return "bad_ra";
  }
  if (!parse_number(fields[kDec], row.dec_deg) || row.dec_deg < -90 || row.dec_deg > 90) {
    detail = "dec " + quote(fields[kDec]) + " is not a number in [-90, 90]";
    return "bad_dec";
  }
  const std::string_view quality = fields[kPhQual];
  if (quality.size() != 3 || quality.find_first_not_of("ABCDEFUX") != std::string_view::npos) {
    detail = "ph_qual " + quote(quality) + " is not three letters of A-F, U, X";
    return "bad_ph_qual";
  }
  constexpr int kMagColumns[3] = {kJ, kH, kKs};
  constexpr const char* kNames[3] = {"j_m", "h_m", "k_m"};
  for (std::size_t band = 0; band < 3; ++band) {
    row.quality[band] = quality[band];
    const std::string_view field = fields[static_cast<std::size_t>(kMagColumns[band])];
    row.mag[band] = kNaN;
    if (is_null(field)) {
      if (quality[band] >= 'A' && quality[band] <= 'E') {
        detail = kNames[band];
        detail.append(" is null but ph_qual is ").push_back(quality[band]);
        return "bad_magnitude";
      }
      continue;
    }
    double value = 0;
    if (!parse_number(field, value) || value < -10 || value > 40) {
      detail = std::string(kNames[band]) + " " + quote(field) + " is not a magnitude";
      return "bad_magnitude";
    }
    row.mag[band] = value;
  }
  const std::string_view key = fields[kPtsKey];
  const auto [end, error] = std::from_chars(key.data(), key.data() + key.size(), row.pts_key);
  if (key.empty() || error != std::errc() || end != key.data() + key.size() || row.pts_key < 1) {
    detail = "pts_key " + quote(key) + " is not a positive integer";
    return "bad_pts_key";
  }
  return {};
}

}  // namespace starlens::catalog
