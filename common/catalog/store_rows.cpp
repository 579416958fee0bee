#include "catalog/store_rows.h"

#include <cstddef>
#include <initializer_list>

namespace starlens::catalog {
namespace {

struct Photometry {
  float teff_k;
  float flux_jy;
};

struct Field {
  const char* name;
  std::size_t offset;
  hid_t type;
};

h5::Handle compound(std::size_t size, std::initializer_list<Field> fields) {
  h5::Handle type(H5Tcreate(H5T_COMPOUND, size));
  for (const Field& field : fields) H5Tinsert(type.get(), field.name, field.offset, field.type);
  return type;
}

}  // namespace

h5::Handle star_table_file_type() {
  return compound(24, {{"ra", 0, H5T_IEEE_F64LE},
                       {"dec", 8, H5T_IEEE_F64LE},
                       {"teff", 16, H5T_IEEE_F32LE},
                       {"flux", 20, H5T_IEEE_F32LE}});
}

h5::Handle star_table_memory_type() {
  return compound(sizeof(StoredStar), {{"ra", offsetof(StoredStar, ra_deg), H5T_NATIVE_DOUBLE},
                                       {"dec", offsetof(StoredStar, dec_deg), H5T_NATIVE_DOUBLE},
                                       {"teff", offsetof(StoredStar, teff_k), H5T_NATIVE_FLOAT},
                                       {"flux", offsetof(StoredStar, flux_jy), H5T_NATIVE_FLOAT}});
}

h5::Handle star_photometry_memory_type() {
  return compound(sizeof(Photometry), {{"teff", offsetof(Photometry, teff_k), H5T_NATIVE_FLOAT},
                                       {"flux", offsetof(Photometry, flux_jy), H5T_NATIVE_FLOAT}});
}

h5::Handle star_source_file_type() {
  return compound(12, {{"id", 0, H5T_STD_I64LE}, {"mag", 8, H5T_IEEE_F32LE}});
}

h5::Handle star_source_memory_type() {
  return compound(sizeof(StoredSource), {{"id", offsetof(StoredSource, id), H5T_NATIVE_INT64},
                                         {"mag", offsetof(StoredSource, mag), H5T_NATIVE_FLOAT}});
}

std::vector<h5::TableColumn> star_table_columns(const std::string& band) {
  return {{"ra", "deg", "float64", "ICRS right ascension"},
          {"dec", "deg", "float64", "ICRS declination"},
          {"teff", "K", "float32", "effective temperature"},
          {"flux", "Jy", "float32", "flux density in the " + band + " band"}};
}

std::vector<h5::TableColumn> star_source_columns(const std::string& band,
                                                 const std::string& id_scheme) {
  return {{"id", "", "int64", "catalogue identifier: " + id_scheme},
          {"mag", "mag", "float32", "catalogue magnitude in the " + band + " band"}};
}

}  // namespace starlens::catalog
