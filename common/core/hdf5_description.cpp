#include "core/hdf5_description.h"

#include <algorithm>

#include "core/errors.h"

namespace starlens::h5 {
namespace {

Handle open_dataset(const File& file, const std::string& name) {
  Handle dataset(H5Dopen2(file.id(), name.c_str(), H5P_DEFAULT));
  if (!dataset.valid()) throw_run_failure(file.path, "cannot open dataset " + name);
  return dataset;
}

// A fixed-length UTF-8 string attribute of `values` (a scalar when `scalar`, else 1-D).
void write_strings(const File& file, hid_t object, const std::string& object_name,
                   const std::string& attribute, const std::vector<std::string>& values,
                   bool scalar) {
  std::size_t width = 1;
  for (const auto& value : values) width = std::max(width, value.size());
  std::string packed(width * values.size(), '\0');
  for (std::size_t i = 0; i < values.size(); ++i)
    packed.replace(i * width, values[i].size(), values[i]);
  const Handle type = utf8_string_type(width);
  const hsize_t count = values.size();
  Handle space(scalar ? H5Screate(H5S_SCALAR) : H5Screate_simple(1, &count, nullptr));
  Handle created(
      H5Acreate2(object, attribute.c_str(), type.get(), space.get(), H5P_DEFAULT, H5P_DEFAULT));
  if (!created.valid() || H5Awrite(created.get(), type.get(), packed.data()) < 0)
    throw_run_failure(file.path, "cannot write attribute " + attribute + " of " + object_name);
}

// A YAML single-quoted scalar ('' stands for a quote inside).
std::string quoted(const std::string& text) {
  std::string out = "'";
  for (const char c : text) {
    out.push_back(c);
    if (c == '\'') out.push_back('\'');
  }
  out.push_back('\'');
  return out;
}

}  // namespace

void describe_dataset(const File& file, const std::string& name, const std::string& units,
                      const std::string& description) {
  const Handle dataset = open_dataset(file, name);
  write_strings(file, dataset.get(), name, "units", {units}, true);
  write_strings(file, dataset.get(), name, "description", {description}, true);
}

std::vector<std::string> table_column_yaml(const std::vector<TableColumn>& columns) {
  std::vector<std::string> lines = {"datatype:"};
  for (const auto& column : columns) {
    std::string line = "- {name: " + column.name;
    if (!column.unit.empty()) line += ", unit: " + quoted(column.unit);
    line += ", datatype: " + column.datatype;
    if (!column.description.empty()) line += ", description: " + quoted(column.description);
    lines.push_back(line + "}");
  }
  return lines;
}

void describe_table(const File& file, const std::string& name,
                    const std::vector<TableColumn>& columns) {
  const Handle dataset = open_dataset(file, name);
  std::vector<std::string> units, descriptions;
  for (const auto& column : columns) {
    units.push_back(column.unit);
    descriptions.push_back(column.description);
  }
  write_strings(file, dataset.get(), name, "units", units, false);
  write_strings(file, dataset.get(), name, "description", descriptions, false);
  write_strings(file, dataset.get(), name, "__table_column_meta__", table_column_yaml(columns),
                false);
}

}  // namespace starlens::h5
