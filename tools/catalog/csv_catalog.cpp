#include "csv_catalog.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <fstream>
#include <vector>

#include "core/errors.h"
#include "ecsv_header.h"

namespace starlens::catalog {
namespace {

std::string_view trim(std::string_view text) {
  while (!text.empty() && std::isspace(static_cast<unsigned char>(text.front())))
    text.remove_prefix(1);
  while (!text.empty() && std::isspace(static_cast<unsigned char>(text.back())))
    text.remove_suffix(1);
  return text;
}

// Fields separated by `delimiter`; a space delimiter (ECSV's default) separates by runs of
// spaces.
std::vector<std::string_view> split(std::string_view line, char delimiter = ',') {
  std::vector<std::string_view> fields;
  std::size_t start = 0;
  while (true) {
    const std::size_t end = line.find(delimiter, start);
    fields.push_back(trim(line.substr(start, end - start)));
    if (end == std::string_view::npos) break;
    start = end + 1;
    if (delimiter == ' ')
      while (start < line.size() && line[start] == ' ') ++start;
  }
  return fields;
}

std::string lower(std::string_view text) {
  std::string out(text);
  std::transform(out.begin(), out.end(), out.begin(),
                 [](unsigned char c) { return std::tolower(c); });
  return out;
}

// 'text' (at most `limit` characters), built by appends (GCC 12 warns falsely on "'" + string).
std::string quote(std::string_view text, std::size_t limit) {
  std::string quoted(1, '\'');
  quoted.append(text.substr(0, limit));
  quoted.push_back('\'');
  return quoted;
}

class LineContext {
 public:
  LineContext(std::string file) : file_(std::move(file)) {}
  void set_line(std::uint64_t line) { line_ = line; }
  [[noreturn]] void fail(const std::string& field, const std::string& why) const {
    throw_input_error(file_, "line " + std::to_string(line_) + ": " + field, why);
  }
  std::int64_t integer(std::string_view text, const std::string& field) const {
    std::int64_t value = 0;
    const char* begin = text.data() + (!text.empty() && text.front() == '+' ? 1 : 0);
    const auto [end, error] = std::from_chars(begin, text.data() + text.size(), value);
    if (text.empty() || error != std::errc() || end != text.data() + text.size())
      fail(field, quote(text, 40) + " is not an integer id");
    return value;
  }
  double number(std::string_view text, const std::string& field, double low, double high,
                bool high_inclusive = true) const {
    double value = 0;
    const char* begin = text.data() + (!text.empty() && text.front() == '+' ? 1 : 0);
    const auto [end, error] = std::from_chars(begin, text.data() + text.size(), value);
    if (text.empty() || error != std::errc() || end != text.data() + text.size() ||
        !std::isfinite(value))
      fail(field, quote(text, 40) + " is not a number");
    if (value < low || value > high || (!high_inclusive && value == high))
      fail(field, std::to_string(value) + " outside [" + std::to_string(low) + ", " +
                      std::to_string(high) + (high_inclusive ? "]" : ")"));
    return value;
  }

 private:
  std::string file_;
  std::uint64_t line_ = 0;
};

}  // namespace

std::string mapped_unit_problem(const std::string& key, const std::string& unit) {
  const bool angle = key == "ra" || key == "dec";
  const bool magnitude = key == "mag" || key == "bv" || key == "bp_rp";
  const std::string expected = angle ? "deg" : key == "teff" ? "K" : magnitude ? "mag" : "";
  if (unit == expected || (magnitude && unit.empty())) return {};
  return "unit " + quote(unit, 40) + " is not " +
         (expected.empty() ? std::string("none") : expected) + " (--columns " + key + ")";
}

const char* colour_key(CsvColour colour) {
  return colour == CsvColour::bv ? "bv" : colour == CsvColour::bp_rp ? "bp_rp" : "teff";
}

CsvColour mapped_colour(const CsvColumns& columns) {
  return columns.contains("bv")      ? CsvColour::bv
         : columns.contains("bp_rp") ? CsvColour::bp_rp
                                     : CsvColour::teff;
}

CsvColumns parse_csv_columns(const std::string& text) {
  static const char* const kKeys[] = {"ra", "dec", "mag", "teff", "bv", "bp_rp", "id"};
  CsvColumns columns;
  for (const std::string_view item : split(text)) {
    const std::size_t equals = item.find('=');
    const std::string key(trim(item.substr(0, equals)));
    if (std::find(std::begin(kKeys), std::end(kKeys), key) == std::end(kKeys))
      throw_input_error("--columns", key.empty() ? std::string(item) : key,
                        "unknown key (keys: ra, dec, mag, teff or bv or bp_rp, id)");
    if (equals == std::string_view::npos || trim(item.substr(equals + 1)).empty())
      throw_input_error("--columns", key, "no column name (key=NAME)");
    if (!columns.emplace(key, std::string(trim(item.substr(equals + 1)))).second)
      throw_input_error("--columns", key, "given twice");
  }
  for (const char* key : {"ra", "dec", "mag"})
    if (!columns.contains(key)) throw_input_error("--columns", key, "missing (required)");
  const int colours = static_cast<int>(columns.contains("teff")) +
                      static_cast<int>(columns.contains("bv")) +
                      static_cast<int>(columns.contains("bp_rp"));
  if (colours != 1)
    throw_input_error("--columns", "teff/bv/bp_rp",
                      "exactly one of teff, bv and bp_rp is required");
  return columns;
}

namespace {

// The header's position of every mapped column.
std::map<std::string, std::size_t> mapped_positions(const CsvColumns& columns,
                                                    const std::vector<std::string_view>& header,
                                                    const LineContext& context) {
  std::map<std::string, std::size_t> positions;
  for (const auto& [key, name] : columns) {
    const auto found = std::find(header.begin(), header.end(), name);
    if (found == header.end())
      context.fail("header",
                   "no column " + quote(name, 60) + " (--columns " + key + "=" + name + ")");
    positions[key] = static_cast<std::size_t>(found - header.begin());
  }
  return positions;
}

// Every mapped ECSV column is listed in the header with the unit its key means.
void check_ecsv_units(const std::string& file, const EcsvHeader& header,
                      const CsvColumns& columns) {
  for (const auto& entry : columns) {
    // Named references, not a structured binding: clang 14 lambdas cannot capture bindings.
    const std::string& key = entry.first;
    const std::string& name = entry.second;
    const auto column = std::find_if(header.columns.begin(), header.columns.end(),
                                     [&](const EcsvColumn& c) { return c.name == name; });
    if (column == header.columns.end())
      throw_input_error(file, "ECSV header",
                        "no column " + quote(name, 60) + " (--columns " + key + "=" + name + ")");
    const std::string problem = mapped_unit_problem(key, column->unit);
    if (!problem.empty()) throw_input_error(file, "ECSV column " + name, problem);
  }
}

}  // namespace

CsvColour read_csv_catalogue(const std::filesystem::path& path, const CsvColumns& columns,
                             const std::function<void(const CsvStar&)>& visit) {
  const std::string name = path.string();
  std::ifstream in(path);
  if (!in) throw_input_error(name, "", "cannot open");
  LineContext context(name);
  std::string line;
  std::uint64_t line_number = 0;
  bool have_header = false;
  CsvColour colour = CsvColour::teff;
  std::map<std::string, std::size_t> positions;  // with a mapping: key -> field index
  std::vector<std::string> header_names;
  char delimiter = ',';
  // ECSV: "# %ECSV" on the first line, then the YAML header on '#' lines.
  bool ecsv = false;
  std::string yaml;
  while (std::getline(in, line)) {
    ++line_number;
    context.set_line(line_number);
    if (line_number == 1 && line.starts_with("# %ECSV")) {
      if (columns.empty())
        throw_input_error(name, "ECSV", "--columns is required to name the columns to read");
      ecsv = true;
      continue;
    }
    if (ecsv && !have_header && line.starts_with("#")) {
      const std::string_view body = std::string_view(line).substr(line.starts_with("# ") ? 2 : 1);
      if (body != "---") yaml.append(body).push_back('\n');
      continue;
    }
    if (ecsv && !have_header && !yaml.empty()) {
      const EcsvHeader header = parse_ecsv_header(name, yaml);
      check_ecsv_units(name, header, columns);
      delimiter = header.delimiter;
      yaml.clear();
    }
    const std::string_view text = trim(line);
    if (text.empty() || text.front() == '#') continue;
    const auto fields = split(text, delimiter);
    if (!columns.empty()) {
      if (!have_header) {
        positions = mapped_positions(columns, fields, context);
        header_names.assign(fields.begin(), fields.end());
        colour = mapped_colour(columns);
        have_header = true;
        continue;
      }
      if (fields.size() != header_names.size())
        context.fail("columns", std::to_string(fields.size()) + " fields, the header has " +
                                    std::to_string(header_names.size()));
      const auto field = [&](const char* key) { return fields[positions.at(key)]; };
      const auto column = [&](const char* key) { return "column " + columns.at(key); };
      CsvStar star;
      star.ra_deg = context.number(field("ra"), column("ra"), 0, 360, false);
      star.dec_deg = context.number(field("dec"), column("dec"), -90, 90);
      star.mag = context.number(field("mag"), column("mag"), -30, 40);
      star.colour = colour;
      const char* key = colour_key(colour);
      star.teff_or_bv = colour == CsvColour::teff
                            ? context.number(field(key), column(key), kCsvTeffMin, kCsvTeffMax)
                            : context.number(field(key), column(key), kCsvColourMin, kCsvColourMax);
      if (columns.contains("id")) {
        star.has_id = true;
        star.id = context.integer(field("id"), column("id"));
      }
      visit(star);
      continue;
    }
    if (!have_header) {
      std::string header;
      for (const auto& field : fields) {
        if (!header.empty()) header.push_back(',');
        header.append(lower(field));
      }
      if (header == "ra,dec,mag,teff")
        colour = CsvColour::teff;
      else if (header == "ra,dec,mag,bv")
        colour = CsvColour::bv;
      else
        context.fail("header", quote(text, 60) + " is not 'ra,dec,mag,teff' or 'ra,dec,mag,bv'");
      have_header = true;
      continue;
    }
    if (fields.size() != 4)
      context.fail("columns", std::to_string(fields.size()) + " fields, expected 4");
    CsvStar star;
    star.ra_deg = context.number(fields[0], "ra", 0, 360, false);
    star.dec_deg = context.number(fields[1], "dec", -90, 90);
    star.mag = context.number(fields[2], "mag", -30, 40);
    star.colour = colour;
    star.teff_or_bv = colour == CsvColour::teff
                          ? context.number(fields[3], "teff", kCsvTeffMin, kCsvTeffMax)
                          : context.number(fields[3], "bv", kCsvColourMin, kCsvColourMax);
    visit(star);
  }
  if (in.bad()) throw_input_error(name, "", "read failed");
  if (!columns.empty() && !have_header)
    throw_input_error(name, "header", "missing (required with --columns)");
  return colour;
}

}  // namespace starlens::catalog
