// Small strict readers for the shapes of the file formats: objects with a
// fixed set of fields, arrays, strings, booleans, unsigned and signed 32-bit
// integers. A violation throws JsonSchemaError with "PATH: what went wrong";
// the public parse functions (json_reader.cpp) turn it into INVALID_ARGUMENT,
// so the exception never leaves the model library. Throwing keeps the
// readers as plain code instead of a status check after every field.
#pragma once

#include <array>
#include <cstdint>
#include <initializer_list>
#include <optional>
#include <string>
#include <string_view>

#include "model/json_document.h"
#include "model/json_path.h"

namespace nnfab::json {

struct JsonSchemaError {
  std::string message;
};

[[noreturn]] void fail(const JsonPath& path, std::string_view what);

// An object whose keys must all be among `fields` (duplicates were already
// rejected by the parser). Holds `path` by reference: keep it alive.
class JsonObjectReader {
 public:
  static constexpr size_t kMaxFields = 8;

  JsonObjectReader(JsonValue value, const JsonPath& path,
                   std::initializer_list<std::string_view> fields);

  std::optional<JsonValue> optional(std::string_view field) const;
  JsonValue required(std::string_view field) const;
  size_t memberCount() const { return memberCount_; }

 private:
  size_t slot(std::string_view field) const;

  const JsonPath& path_;
  std::array<std::string_view, kMaxFields> names_{};
  std::array<std::optional<JsonValue>, kMaxFields> values_{};
  size_t fieldCount_ = 0;
  size_t memberCount_ = 0;
};

void expectObject(JsonValue value, const JsonPath& path);
void expectArray(JsonValue value, const JsonPath& path);
std::string_view readString(JsonValue value, const JsonPath& path);
bool readBool(JsonValue value, const JsonPath& path);
// JSON integers only (no 1.0), in range.
uint32_t readUint32(JsonValue value, const JsonPath& path);
int32_t readInt32(JsonValue value, const JsonPath& path);

}  // namespace nnfab::json
