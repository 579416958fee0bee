#pragma once
// FITS binary tables through cfitsio: the first table extension's rows, the columns named by a
// --columns mapping (csv_catalog.h), each column's TUNITn checked as an ECSV column's unit.
#include <filesystem>
#include <functional>

#include "csv_catalog.h"

namespace starlens::catalog {

// Calls `visit` for every row; returns the colour kind the mapping names. InputError naming the
// file and the HDU or column: not FITS, truncated, no binary table, a mapped column absent or
// of another unit, a null or out-of-range value (with its row).
CsvColour read_fits_catalogue(const std::filesystem::path& path, const CsvColumns& columns,
                              const std::function<void(const CsvStar&)>& visit);

}  // namespace starlens::catalog
