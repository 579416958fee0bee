#include "core/checked_json.h"

#include "core/errors.h"
#include "core/text_input.h"

namespace starlens {

JsonField::JsonField(const nlohmann::json& value, std::string file, std::string key_path)
    : value_(&value), file_(std::move(file)), key_path_(std::move(key_path)) {}

std::string json_type_name(const nlohmann::json& value) {
  switch (value.type()) {
    case nlohmann::json::value_t::object:
      return "an object";
    case nlohmann::json::value_t::array:
      return "an array";
    case nlohmann::json::value_t::string:
      return "a string";
    case nlohmann::json::value_t::number_integer:
    case nlohmann::json::value_t::number_unsigned:
      return "an integer";
    case nlohmann::json::value_t::number_float:
      return "a number";
    case nlohmann::json::value_t::boolean:
      return "true or false";
    case nlohmann::json::value_t::null:
      return "null";
    default:
      return "not a JSON value";
  }
}

void JsonField::fail(const std::string& reason) const {
  throw_input_error(file_, key_path_, reason);
}

std::string JsonField::child_path(const std::string& key) const {
  return key_path_.empty() ? key : key_path_ + "." + key;
}

const JsonField& JsonField::require_object() const {
  if (!value_->is_object()) fail("expected an object (is " + json_type_name(*value_) + ")");
  return *this;
}

const JsonField& JsonField::require_array() const {
  if (!value_->is_array()) fail("expected an array (is " + json_type_name(*value_) + ")");
  return *this;
}

bool JsonField::contains(const std::string& key) const {
  require_object();
  return value_->contains(key);
}

std::optional<JsonField> JsonField::find(const std::string& key) const {
  require_object();
  const auto found = value_->find(key);
  if (found == value_->end()) return std::nullopt;
  return JsonField(*found, file_, child_path(key));
}

JsonField JsonField::operator[](const std::string& key) const {
  const auto member = find(key);
  if (!member) throw_input_error(file_, child_path(key), "missing");
  return *member;
}

std::vector<std::pair<std::string, JsonField>> JsonField::members() const {
  require_object();
  std::vector<std::pair<std::string, JsonField>> members;
  for (auto item = value_->begin(); item != value_->end(); ++item)
    members.emplace_back(item.key(), JsonField(item.value(), file_, child_path(item.key())));
  return members;
}

std::vector<JsonField> JsonField::elements() const {
  require_array();
  std::vector<JsonField> elements;
  for (std::size_t i = 0; i < value_->size(); ++i)
    elements.emplace_back((*value_)[i], file_, key_path_ + "[" + std::to_string(i) + "]");
  return elements;
}

std::string JsonField::as_string() const {
  if (!value_->is_string()) fail("expected a string (is " + json_type_name(*value_) + ")");
  return value_->get<std::string>();
}

std::int64_t JsonField::as_integer() const {
  if (value_->is_number_unsigned() && value_->get<std::uint64_t>() > std::uint64_t(INT64_MAX))
    fail("integer " + value_->dump() + " is too large (at most " + std::to_string(INT64_MAX) + ")");
  if (!value_->is_number_integer())
    fail("expected an integer (is " + json_type_name(*value_) + ")");
  return value_->get<std::int64_t>();
}

std::uint64_t JsonField::as_count() const {
  if (!value_->is_number_integer())
    fail("expected an integer >= 0 (is " + json_type_name(*value_) + ")");
  if (!value_->is_number_unsigned()) fail("expected an integer >= 0 (is " + value_->dump() + ")");
  return value_->get<std::uint64_t>();
}

double JsonField::as_number() const {
  if (!value_->is_number()) fail("expected a number (is " + json_type_name(*value_) + ")");
  return value_->get<double>();
}

bool JsonField::as_bool() const {
  if (!value_->is_boolean()) fail("expected true or false (is " + json_type_name(*value_) + ")");
  return value_->get<bool>();
}

std::string JsonField::string_or(const std::string& key, const std::string& fallback) const {
  const auto member = find(key);
  return member ? member->as_string() : fallback;
}

nlohmann::json read_json_input(const std::filesystem::path& path, const std::string& what,
                               std::uint64_t max_bytes) {
  const std::string text = read_text_input(path, what, max_bytes);
  if (text.find_first_not_of(" \t\r\n") == std::string::npos)
    throw_input_error(path.string(), "", "is empty, not a " + what);
  try {
    return nlohmann::json::parse(text);
  } catch (const nlohmann::json::exception& e) {
    throw_input_error(path.string(), "", std::string("not valid JSON: ") + e.what());
  }
}

}  // namespace starlens
