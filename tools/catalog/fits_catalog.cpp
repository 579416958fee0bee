#include "fits_catalog.h"

#include <fitsio.h>

#include <cmath>
#include <limits>
#include <map>
#include <vector>

#include "core/errors.h"

namespace starlens::catalog {
namespace {

constexpr long kRowsPerRead = 1 << 16;

class FitsTable {
 public:
  explicit FitsTable(const std::string& path) : path_(path) {
    // A disk file, not cfitsio's extended file-name syntax ("name[1]" would be parsed).
    if (fits_open_diskfile(&file_, path.c_str(), READONLY, &status_)) fail("", "not a FITS file");
    int type = 0;
    if (fits_movabs_hdu(file_, 2, &type, &status_)) fail("HDU 2", "no table extension");
    if (type != BINARY_TBL) fail("HDU 2", "not a binary table");
    if (fits_get_num_rows(file_, &rows_, &status_)) fail("HDU 2", "unreadable row count");
  }
  ~FitsTable() { close(); }
  FitsTable(const FitsTable&) = delete;
  FitsTable& operator=(const FitsTable&) = delete;

  long rows() const { return rows_; }

  // The column's number; its unit must suit `key`.
  int column(const std::string& key, const std::string& name) {
    int number = 0;
    if (fits_get_colnum(file_, CASESEN, const_cast<char*>(name.c_str()), &number, &status_)) {
      status_ = 0;
      throw_input_error(path_, "column " + name,
                        "not in the table (--columns " + key + "=" + name + ")");
    }
    char unit[FLEN_VALUE] = "";
    const std::string keyword = "TUNIT" + std::to_string(number);
    if (fits_read_key(file_, TSTRING, keyword.c_str(), unit, nullptr, &status_)) {
      if (status_ != KEY_NO_EXIST) fail("column " + name, "unreadable " + keyword);
      status_ = 0;
      unit[0] = '\0';
    }
    const std::string problem = mapped_unit_problem(key, unit);
    if (!problem.empty()) throw_input_error(path_, "column " + name, problem);
    return number;
  }

  // Rows [first, first + count) of a column (1-based first), nulls as NaN.
  void read(int column, const std::string& name, long first, long count, std::vector<double>& out) {
    out.resize(static_cast<std::size_t>(count));
    double null = std::numeric_limits<double>::quiet_NaN();
    int any_null = 0;
    if (fits_read_col(file_, TDOUBLE, column, first, 1, count, &null, out.data(), &any_null,
                      &status_))
      fail("column " + name, "rows " + std::to_string(first) + "+" + std::to_string(count) +
                                 " unreadable (truncated or corrupt file?)");
  }
  // The same as integers; `nulls` counts the nulls (read as 0).
  void read(int column, const std::string& name, long first, long count,
            std::vector<long long>& out, int& nulls) {
    out.resize(static_cast<std::size_t>(count));
    long long null = 0;
    if (fits_read_col(file_, TLONGLONG, column, first, 1, count, &null, out.data(), &nulls,
                      &status_))
      fail("column " + name, "rows " + std::to_string(first) + "+" + std::to_string(count) +
                                 " unreadable (truncated or corrupt file?)");
  }

 private:
  // Closes the file first: a throw from the constructor runs no destructor.
  [[noreturn]] void fail(const std::string& object, const std::string& why) {
    char text[FLEN_STATUS] = "";
    fits_get_errstatus(status_, text);
    close();
    throw_input_error(path_, object, why + " (cfitsio: " + text + ")");
  }
  void close() {
    int ignored = 0;
    if (file_ != nullptr) fits_close_file(file_, &ignored);
    file_ = nullptr;
  }

  std::string path_;
  fitsfile* file_ = nullptr;
  int status_ = 0;
  long rows_ = 0;
};

}  // namespace

CsvColour read_fits_catalogue(const std::filesystem::path& path, const CsvColumns& columns,
                              const std::function<void(const CsvStar&)>& visit) {
  const std::string name = path.string();
  FitsTable table(name);
  struct Range {
    double low, high;
    bool high_open;
  };
  const std::map<std::string, Range> ranges = {{"ra", {0, 360, true}},
                                               {"dec", {-90, 90, false}},
                                               {"mag", {-30, 40, false}},
                                               {"teff", {kCsvTeffMin, kCsvTeffMax, false}},
                                               {"bv", {kCsvColourMin, kCsvColourMax, false}},
                                               {"bp_rp", {kCsvColourMin, kCsvColourMax, false}}};
  std::map<std::string, int> numbers;
  for (const auto& [key, column] : columns) numbers[key] = table.column(key, column);
  const CsvColour colour = mapped_colour(columns);
  const std::string colour_name = colour_key(colour);
  std::map<std::string, std::vector<double>> values;
  std::vector<long long> ids;
  for (long first = 1; first <= table.rows(); first += kRowsPerRead) {
    const long count = std::min(kRowsPerRead, table.rows() - first + 1);
    for (const auto& [key, range] : ranges) {
      if (!numbers.contains(key)) continue;
      table.read(numbers.at(key), columns.at(key), first, count, values[key]);
      for (long i = 0; i < count; ++i) {
        const double value = values[key][static_cast<std::size_t>(i)];
        if (!(value >= range.low && (range.high_open ? value < range.high : value <= range.high)))
          throw_input_error(
              name, "row " + std::to_string(first + i) + ": column " + columns.at(key),
              std::to_string(value) + " is null or outside [" + std::to_string(range.low) + ", " +
                  std::to_string(range.high) + (range.high_open ? ")" : "]"));
      }
    }
    if (numbers.contains("id")) {
      int nulls = 0;
      table.read(numbers.at("id"), columns.at("id"), first, count, ids, nulls);
      if (nulls) throw_input_error(name, "column " + columns.at("id"), "holds null ids");
    }
    for (long i = 0; i < count; ++i) {
      const auto at = static_cast<std::size_t>(i);
      CsvStar star;
      star.ra_deg = values["ra"][at];
      star.dec_deg = values["dec"][at];
      star.mag = values["mag"][at];
      star.colour = colour;
      star.teff_or_bv = values[colour_name][at];
      star.has_id = numbers.contains("id");
      if (star.has_id) star.id = ids[at];
      visit(star);
    }
  }
  return colour;
}

}  // namespace starlens::catalog
