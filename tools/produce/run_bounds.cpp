#include "run_bounds.h"

#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <vector>

#include "core/errors.h"

namespace starlens::produce {
namespace {

std::uint64_t parse_count(const std::string& text, const std::string& option,
                          const std::string& whole) {
  if (text.empty() || text.find_first_not_of("0123456789") != std::string::npos)
    throw_input_error(option, "", "'" + whole + "' is not A:B with non-negative integers A < B");
  errno = 0;
  const unsigned long long value = std::strtoull(text.c_str(), nullptr, 10);
  if (errno == ERANGE) throw_input_error(option, "", "'" + text + "' is too large");
  return value;
}

double parse_number(const std::string& text, const std::string& option, const std::string& what) {
  char* end = nullptr;
  errno = 0;
  const double value = std::strtod(text.c_str(), &end);
  if (text.empty() || end != text.c_str() + text.size() || errno == ERANGE || !std::isfinite(value))
    throw_input_error(option, what, "'" + text + "' is not a finite number");
  return value;
}

}  // namespace

Vec3 SkyRegion::centre() const {
  return unit_vector_from_angles(ra_deg * kDegree, dec_deg * kDegree);
}

nlohmann::json RunBounds::to_json() const {
  nlohmann::json json = nlohmann::json::object();
  json["cells"] = cells ? nlohmann::json{cells->first, cells->end} : nlohmann::json();
  json["triangles"] =
      triangles ? nlohmann::json{triangles->first, triangles->end} : nlohmann::json();
  json["sky_region"] = sky_region ? nlohmann::json{{"ra_deg", sky_region->ra_deg},
                                                   {"dec_deg", sky_region->dec_deg},
                                                   {"radius_deg", sky_region->radius_deg}}
                                  : nlohmann::json();
  json["max_events"] = max_events > 0 ? nlohmann::json(max_events) : nlohmann::json();
  return json;
}

IndexRange parse_index_range(const std::string& text, const std::string& option,
                             std::uint64_t limit) {
  const auto colon = text.find(':');
  if (colon == std::string::npos)
    throw_input_error(option, "", "'" + text + "' is not A:B with non-negative integers A < B");
  IndexRange range;
  range.first = parse_count(text.substr(0, colon), option, text);
  const std::string end = text.substr(colon + 1);
  range.end = end.empty() ? limit : parse_count(end, option, text);
  if (range.first >= range.end)
    throw_input_error(option, "", "'" + text + "' is empty: A must be less than B");
  if (range.end > limit)
    throw_input_error(
        option, "",
        "'" + text + "' goes beyond " + std::to_string(limit) + " (the end of the range)");
  return range;
}

SkyRegion parse_sky_region(const std::string& text, const std::string& option) {
  std::vector<std::string> parts;
  std::size_t start = 0;
  for (;;) {
    const auto comma = text.find(',', start);
    parts.push_back(text.substr(start, comma - start));
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  if (parts.size() != 3)
    throw_input_error(option, "", "'" + text + "' is not ra,dec,radius (degrees)");
  SkyRegion region{parse_number(parts[0], option, "ra"), parse_number(parts[1], option, "dec"),
                   parse_number(parts[2], option, "radius")};
  if (region.ra_deg < 0 || region.ra_deg > 360)
    throw_input_error(option, "ra", "must be in [0, 360] degrees (got " + parts[0] + ")");
  if (region.dec_deg < -90 || region.dec_deg > 90)
    throw_input_error(option, "dec", "must be in [-90, 90] degrees (got " + parts[1] + ")");
  if (!(region.radius_deg > 0) || region.radius_deg > 180)
    throw_input_error(option, "radius", "must be in (0, 180] degrees (got " + parts[2] + ")");
  return region;
}

}  // namespace starlens::produce
