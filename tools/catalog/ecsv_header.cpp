#include "ecsv_header.h"

#include <yaml.h>

#include <memory>

#include "core/errors.h"

namespace starlens::catalog {
namespace {

struct Document {
  yaml_document_t document{};
  bool loaded = false;
  ~Document() {
    if (loaded) yaml_document_delete(&document);
  }
};

std::string scalar(yaml_node_t* node) {
  if (node == nullptr || node->type != YAML_SCALAR_NODE) return {};
  return std::string(reinterpret_cast<const char*>(node->data.scalar.value),
                     node->data.scalar.length);
}

// The value of `key` in mapping `node`, or null.
yaml_node_t* lookup(yaml_document_t& document, yaml_node_t* node, const std::string& key) {
  if (node == nullptr || node->type != YAML_MAPPING_NODE) return nullptr;
  for (yaml_node_pair_t* pair = node->data.mapping.pairs.start; pair < node->data.mapping.pairs.top;
       ++pair)
    if (scalar(yaml_document_get_node(&document, pair->key)) == key)
      return yaml_document_get_node(&document, pair->value);
  return nullptr;
}

}  // namespace

EcsvHeader parse_ecsv_header(const std::string& file, const std::string& yaml) {
  yaml_parser_t parser;
  if (!yaml_parser_initialize(&parser)) throw_run_failure(file, "cannot start the YAML parser");
  yaml_parser_set_input_string(&parser, reinterpret_cast<const unsigned char*>(yaml.data()),
                               yaml.size());
  Document parsed;
  parsed.loaded = yaml_parser_load(&parser, &parsed.document) != 0;
  const std::string problem = parser.problem ? parser.problem : "";
  const std::size_t problem_line = parser.problem_mark.line;
  yaml_parser_delete(&parser);
  if (!parsed.loaded)
    throw_input_error(
        file, "ECSV header",
        "not YAML (" + problem + " at header line " + std::to_string(problem_line + 1) + ")");
  yaml_document_t& document = parsed.document;
  yaml_node_t* root = yaml_document_get_root_node(&document);
  yaml_node_t* datatype = lookup(document, root, "datatype");
  if (datatype == nullptr || datatype->type != YAML_SEQUENCE_NODE)
    throw_input_error(file, "ECSV header", "no datatype list of the columns");
  EcsvHeader header;
  for (yaml_node_item_t* item = datatype->data.sequence.items.start;
       item < datatype->data.sequence.items.top; ++item) {
    yaml_node_t* column = yaml_document_get_node(&document, *item);
    EcsvColumn entry{scalar(lookup(document, column, "name")),
                     scalar(lookup(document, column, "unit")),
                     scalar(lookup(document, column, "datatype"))};
    if (entry.name.empty())
      throw_input_error(
          file, "ECSV header",
          "datatype entry " + std::to_string(header.columns.size() + 1) + " has no name");
    header.columns.push_back(std::move(entry));
  }
  const std::string delimiter = scalar(lookup(document, root, "delimiter"));
  if (delimiter == ",")
    header.delimiter = ',';
  else if (!delimiter.empty() && delimiter != " ")
    throw_input_error(file, "ECSV header",
                      "delimiter '" + delimiter + "' (ECSV allows a space or a comma)");
  return header;
}

}  // namespace starlens::catalog
