#pragma once
// The YAML header of an ECSV file (astropy's Enhanced CSV, version 1.0: lines "# %ECSV 1.0",
// "# ---", then YAML with "# " before each line), parsed by libyaml: the columns' names,
// units and datatypes, and the delimiter of the data lines.
#include <string>
#include <vector>

namespace starlens::catalog {

struct EcsvColumn {
  std::string name;
  std::string unit;  // "" when the header gives none
  std::string datatype;
};

struct EcsvHeader {
  std::vector<EcsvColumn> columns;
  char delimiter = ' ';  // ECSV's default; "delimiter: ','" gives a comma
};

// `yaml`: the header's lines after "# ---" with their "# " removed. InputError naming `file`
// and "ECSV header" when it is not YAML, has no datatype list, or a column without a name.
EcsvHeader parse_ecsv_header(const std::string& file, const std::string& yaml);

}  // namespace starlens::catalog
