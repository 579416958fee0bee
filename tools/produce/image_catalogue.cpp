#include "image_catalogue.h"

#include <fitsio.h>

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <vector>

#include "core/errors.h"

namespace starlens::produce {
namespace {

std::string lower_extension(const std::string& path) {
  std::string extension = std::filesystem::path(path).extension().string();
  std::transform(extension.begin(), extension.end(), extension.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return extension;
}

}  // namespace

ImageFormat image_format_of(const std::string& path, const std::string& flag) {
  if (path == "-")
    throw_input_error(flag, "-",
                      "standard output is not supported for the image catalogue: "
                      "give a .csv or .fits file name");
  const std::string extension = lower_extension(path);
  if (extension == ".csv") return ImageFormat::csv;
  if (extension == ".fits" || extension == ".fit") return ImageFormat::fits;
  throw_input_error(
      flag, path,
      "the image catalogue is CSV or FITS: name it .csv or .fits (not '" + extension + "')");
}

// One file format's writing.
class ImageCatalogueWriter::Backend {
 public:
  virtual ~Backend() = default;
  virtual void write(std::span<const StarEvent> events, std::span<const ImageRecord> images,
                     std::uint64_t first_row) = 0;
  virtual void finish() = 0;
};

namespace {

// The columns, in order: name, cfitsio form, unit.
struct Column {
  const char* name;
  const char* form;
  const char* unit;
};
constexpr Column kColumns[] = {
    {"star_id", "1K", ""},  {"image_order", "1J", ""},   {"x", "1D", "pix"},
    {"y", "1D", "pix"},     {"magnification", "1D", ""}, {"parity", "1I", ""},
    {"g", "1D", ""},        {"flux", "1D", ""},          {"colour_r", "1D", ""},
    {"colour_g", "1D", ""}, {"colour_b", "1D", ""},
};
constexpr int kColumnCount = sizeof(kColumns) / sizeof(kColumns[0]);

class CsvBackend final : public ImageCatalogueWriter::Backend {
 public:
  CsvBackend(const std::filesystem::path& temp, std::string name)
      : name_(std::move(name)), file_(std::fopen(temp.c_str(), "wb")) {
    if (file_ == nullptr) throw_run_failure(name_, "cannot create the image catalogue");
    std::string header;
    for (const Column& column : kColumns) {
      if (!header.empty()) header.push_back(',');
      header.append(column.name);
    }
    header.push_back('\n');
    put(header.data(), header.size());
  }
  ~CsvBackend() override {
    if (file_ != nullptr) std::fclose(file_);
  }
  void write(std::span<const StarEvent> events, std::span<const ImageRecord> images,
             std::uint64_t) override {
    std::string text;
    char line[512];
    for (std::size_t i = 0; i < events.size(); ++i) {
      const StarEvent& e = events[i];
      const ImageRecord& m = images[i];
      // %.17g: every double read back exactly.
      const int length = std::snprintf(
          line, sizeof line, "%lld,%d,%.17g,%.17g,%.17g,%d,%.17g,%.17g,%.17g,%.17g,%.17g\n",
          static_cast<long long>(m.star_id), static_cast<int>(m.order), e.x, e.y, m.magnification,
          static_cast<int>(m.parity), m.g, e.flux, e.r, e.g, e.b);
      text.append(line, static_cast<std::size_t>(length));
    }
    put(text.data(), text.size());
  }
  void finish() override {
    std::FILE* file = file_;
    file_ = nullptr;
    if (std::fflush(file) != 0 || std::ferror(file) != 0) {
      std::fclose(file);
      throw_run_failure(name_, "cannot write the image catalogue (disk full?)");
    }
    if (std::fclose(file) != 0)
      throw_run_failure(name_, "cannot write the image catalogue (disk full?)");
  }

 private:
  void put(const char* data, std::size_t size) {
    if (std::fwrite(data, 1, size, file_) != size)
      throw_run_failure(name_, "cannot write the image catalogue (disk full?)");
  }
  std::string name_;
  std::FILE* file_;
};

class FitsBackend final : public ImageCatalogueWriter::Backend {
 public:
  FitsBackend(const std::filesystem::path& temp, std::string name) : name_(std::move(name)) {
    std::error_code ignored;
    std::filesystem::remove(temp, ignored);  // cfitsio creates only new files
    // A disk file, not cfitsio's extended file-name syntax.
    if (fits_create_diskfile(&file_, temp.c_str(), &status_)) fail("cannot create");
    char* names[kColumnCount];
    char* forms[kColumnCount];
    char* units[kColumnCount];
    for (int i = 0; i < kColumnCount; ++i) {
      names[i] = const_cast<char*>(kColumns[i].name);
      forms[i] = const_cast<char*>(kColumns[i].form);
      units[i] = const_cast<char*>(kColumns[i].unit);
    }
    if (fits_create_tbl(file_, BINARY_TBL, 0, kColumnCount, names, forms, units, "IMAGES",
                        &status_))
      fail("cannot create the table");
    // The empty units are not written as TUNITn; the columns' meaning is in TCOMMn.
    const char* comments[kColumnCount] = {
        "catalogue star id (catalog.h5 /stars/source)",
        "image order (0 primary)",
        "image position, px (x to the right; pixel i covers [i, i+1))",
        "image position, px (y downwards)",
        "signed magnification: parity * |mu|",
        "+1, or -1 where lensing mirrors the image",
        "frequency ratio g (observed / emitted)",
        "luminance Y in Vega units (1 = a V = 0 star)",
        "linear sRGB red at Y = 1",
        "linear sRGB green at Y = 1",
        "linear sRGB blue at Y = 1",
    };
    for (int i = 0; i < kColumnCount; ++i) {
      const std::string keyword = "TCOMM" + std::to_string(i + 1);
      if (fits_write_key(file_, TSTRING, keyword.c_str(), const_cast<char*>(comments[i]), nullptr,
                         &status_))
        fail("cannot write " + keyword);
    }
  }
  ~FitsBackend() override {
    int ignored = 0;
    if (file_ != nullptr) fits_close_file(file_, &ignored);
  }
  void write(std::span<const StarEvent> events, std::span<const ImageRecord> images,
             std::uint64_t first_row) override {
    const std::size_t n = events.size();
    if (n == 0) return;
    std::vector<long long> ids(n);
    std::vector<int> orders(n);
    std::vector<short> parities(n);
    std::vector<double> values[8];
    for (auto& column : values) column.resize(n);
    for (std::size_t i = 0; i < n; ++i) {
      const StarEvent& e = events[i];
      const ImageRecord& m = images[i];
      ids[i] = m.star_id;
      orders[i] = m.order;
      parities[i] = m.parity;
      const double row[8] = {e.x, e.y, m.magnification, m.g, e.flux, e.r, e.g, e.b};
      for (int c = 0; c < 8; ++c) values[c][i] = row[c];
    }
    const auto first = static_cast<LONGLONG>(first_row + 1);
    const auto count = static_cast<LONGLONG>(n);
    fits_write_col(file_, TLONGLONG, 1, first, 1, count, ids.data(), &status_);
    fits_write_col(file_, TINT, 2, first, 1, count, orders.data(), &status_);
    fits_write_col(file_, TSHORT, 6, first, 1, count, parities.data(), &status_);
    const int double_columns[8] = {3, 4, 5, 7, 8, 9, 10, 11};
    for (int c = 0; c < 8; ++c)
      fits_write_col(file_, TDOUBLE, double_columns[c], first, 1, count, values[c].data(),
                     &status_);
    if (status_) fail("cannot write rows (disk full?)");
  }
  void finish() override {
    fitsfile* file = file_;
    file_ = nullptr;
    if (fits_close_file(file, &status_)) fail("cannot complete the file (disk full?)");
  }

 private:
  [[noreturn]] void fail(const std::string& what) {
    char text[FLEN_STATUS] = "";
    fits_get_errstatus(status_, text);
    throw_run_failure(name_, what + " (cfitsio: " + text + ")");
  }
  std::string name_;
  fitsfile* file_ = nullptr;
  int status_ = 0;
};

}  // namespace

ImageCatalogueWriter::ImageCatalogueWriter(const OutputSet& outputs,
                                           const std::filesystem::path& path, ImageFormat format) {
  const std::filesystem::path& temp = outputs.temp_path(path);
  if (format == ImageFormat::csv)
    backend_ = std::make_unique<CsvBackend>(temp, path.string());
  else
    backend_ = std::make_unique<FitsBackend>(temp, path.string());
}

ImageCatalogueWriter::~ImageCatalogueWriter() = default;

void ImageCatalogueWriter::write(std::span<const StarEvent> events,
                                 std::span<const ImageRecord> images) {
  if (images.size() != events.size())
    throw std::logic_error("image catalogue: a chunk's image records do not match its events");
  backend_->write(events, images, rows_);
  rows_ += events.size();
}

void ImageCatalogueWriter::finish() {
  backend_->finish();
}

}  // namespace starlens::produce
