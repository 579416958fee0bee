#pragma once
// JSON read from an input file (manifests, budgets): every access checks the value's type and
// names the file and the key path on failure, "m.json: parameters.psf.cache_radius: expected an
// integer (is a string)", as InputError (exit 2). Untrusted JSON is read only through these
// accessors, never through nlohmann's at()/get<>()/value(), which throw type errors naming
// neither file nor key.
#include <cstdint>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace starlens {

class JsonField {
 public:
  // `value` must outlive the field and every field taken from it.
  JsonField(const nlohmann::json& value, std::string file, std::string key_path = "");

  const nlohmann::json& json() const { return *value_; }
  const std::string& file() const { return file_; }
  const std::string& key_path() const { return key_path_; }

  // An object's member: InputError when this is not an object or (operator[]) `key` is missing.
  bool contains(const std::string& key) const;
  JsonField operator[](const std::string& key) const;
  std::optional<JsonField> find(const std::string& key) const;
  // An object's members in its order, an array's elements ("inputs[2]").
  std::vector<std::pair<std::string, JsonField>> members() const;
  std::vector<JsonField> elements() const;

  // The value as a type: InputError "expected <type> (is <type>)" otherwise.
  std::string as_string() const;
  std::int64_t as_integer() const;  // a JSON integer within int64
  std::uint64_t as_count() const;   // a JSON integer >= 0
  double as_number() const;         // any JSON number
  bool as_bool() const;
  const JsonField& require_object() const;
  const JsonField& require_array() const;

  // A member's string, or `fallback` when the member is absent (a wrong type still fails).
  std::string string_or(const std::string& key, const std::string& fallback) const;

  // Throws InputError("<file>: <key path>: <reason>").
  [[noreturn]] void fail(const std::string& reason) const;

 private:
  std::string child_path(const std::string& key) const;

  const nlohmann::json* value_;
  std::string file_;
  std::string key_path_;
};

// "an object", "an array", "a string", "an integer", "a number", "true or false", "null".
std::string json_type_name(const nlohmann::json& value);

// Reads and parses a JSON input whole (read_text_input's checks first): InputError naming the
// file when it is empty, not JSON (invalid UTF-8 in a string included) or over `max_bytes`.
nlohmann::json read_json_input(const std::filesystem::path& path, const std::string& what,
                               std::uint64_t max_bytes);

}  // namespace starlens
