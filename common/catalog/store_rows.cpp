#include "catalog/store_rows.h"

#include <cstddef>

namespace starlens::catalog {
namespace {

struct Photometry {
  float teff_k;
  float flux_jy;
};

h5::Handle compound(std::size_t size) {
  return h5::Handle(H5Tcreate(H5T_COMPOUND, size));
}

}  // namespace

h5::Handle star_table_file_type() {
  h5::Handle type = compound(24);
  H5Tinsert(type.get(), "ra", 0, H5T_IEEE_F64LE);
  H5Tinsert(type.get(), "dec", 8, H5T_IEEE_F64LE);
  H5Tinsert(type.get(), "teff", 16, H5T_IEEE_F32LE);
  H5Tinsert(type.get(), "flux", 20, H5T_IEEE_F32LE);
  return type;
}

h5::Handle star_table_memory_type() {
  h5::Handle type = compound(sizeof(StoredStar));
  H5Tinsert(type.get(), "ra", offsetof(StoredStar, ra_deg), H5T_NATIVE_DOUBLE);
  H5Tinsert(type.get(), "dec", offsetof(StoredStar, dec_deg), H5T_NATIVE_DOUBLE);
  H5Tinsert(type.get(), "teff", offsetof(StoredStar, teff_k), H5T_NATIVE_FLOAT);
  H5Tinsert(type.get(), "flux", offsetof(StoredStar, flux_jy), H5T_NATIVE_FLOAT);
  return type;
}

h5::Handle star_photometry_memory_type() {
  h5::Handle type = compound(sizeof(Photometry));
  H5Tinsert(type.get(), "teff", offsetof(Photometry, teff_k), H5T_NATIVE_FLOAT);
  H5Tinsert(type.get(), "flux", offsetof(Photometry, flux_jy), H5T_NATIVE_FLOAT);
  return type;
}

h5::Handle star_source_file_type() {
  h5::Handle type = compound(12);
  H5Tinsert(type.get(), "id", 0, H5T_STD_I64LE);
  H5Tinsert(type.get(), "mag", 8, H5T_IEEE_F32LE);
  return type;
}

h5::Handle star_source_memory_type() {
  h5::Handle type = compound(sizeof(StoredSource));
  H5Tinsert(type.get(), "id", offsetof(StoredSource, id), H5T_NATIVE_INT64);
  H5Tinsert(type.get(), "mag", offsetof(StoredSource, mag), H5T_NATIVE_FLOAT);
  return type;
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
