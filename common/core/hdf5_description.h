#pragma once
// Self-describing datasets: `units` and `description` attributes on every dataset the tools
// write, and for a table (a compound dataset) the column header astropy reads, so that
// `astropy.table.Table.read(file, path=...)` gives its columns their units and descriptions.
#include <string>
#include <vector>

#include "core/hdf5_file.h"

namespace starlens::h5 {

// Scalar UTF-8 string attributes `units` ("" for a dimensionless or coded value) and
// `description` on dataset `name`. RunFailure when they cannot be written.
void describe_dataset(const File& file, const std::string& name, const std::string& units,
                      const std::string& description);

// One field of a compound dataset: its name, unit ("" for none), astropy's datatype name
// ("float64", "float32", "int64") and description.
struct TableColumn {
  std::string name;
  std::string unit;
  std::string datatype;
  std::string description;
};

// On the compound dataset `name`: `units` and `description` as 1-D UTF-8 string arrays, one
// entry per field in field order, and `__table_column_meta__`, the YAML column header astropy
// writes (a 1-D array of fixed-length strings, one YAML line each; the form astropy.io.misc.hdf5
// reads from a dataset's attributes).
void describe_table(const File& file, const std::string& name,
                    const std::vector<TableColumn>& columns);

// The YAML lines of that header (tests compare them with astropy's own).
std::vector<std::string> table_column_yaml(const std::vector<TableColumn>& columns);

}  // namespace starlens::h5
