#include "model/json_schema.h"

#include <fmt/format.h>

#include <stdexcept>

namespace nnfab::json {
namespace {

// A number token that did not fit 64 bits but has no fraction or exponent
// is an integer that is merely too large.
bool isIntegerToken(std::string_view token) {
  return token.find_first_of(".eE") == std::string_view::npos;
}

}  // namespace

void fail(const JsonPath& path, std::string_view what) {
  throw JsonSchemaError{fmt::format("{}: {}", path.str(), what)};
}

JsonObjectReader::JsonObjectReader(JsonValue value, const JsonPath& path,
                                   std::initializer_list<std::string_view> fields)
    : path_(path) {
  if (fields.size() > kMaxFields) throw std::logic_error("JsonObjectReader: too many fields");
  expectObject(value, path);
  for (const std::string_view field : fields) names_[fieldCount_++] = field;
  for (const JsonValue member : value) {
    const size_t i = slot(member.key());
    if (i == fieldCount_)
      fail(path, fmt::format("unknown field {}", quoteForMessage(member.key())));
    values_[i] = member;
    ++memberCount_;
  }
}

size_t JsonObjectReader::slot(std::string_view field) const {
  size_t i = 0;
  while (i < fieldCount_ && names_[i] != field) ++i;
  return i;
}

std::optional<JsonValue> JsonObjectReader::optional(std::string_view field) const {
  const size_t i = slot(field);
  return i < fieldCount_ ? values_[i] : std::nullopt;
}

JsonValue JsonObjectReader::required(std::string_view field) const {
  const std::optional<JsonValue> value = optional(field);
  if (!value) fail(path_, fmt::format("missing field \"{}\"", field));
  return *value;
}

void expectObject(JsonValue value, const JsonPath& path) {
  if (!value.isObject()) fail(path, "expected an object, got " + value.describe());
}

void expectArray(JsonValue value, const JsonPath& path) {
  if (!value.isArray()) fail(path, "expected an array, got " + value.describe());
}

std::string_view readString(JsonValue value, const JsonPath& path) {
  if (!value.isString()) fail(path, "expected a string, got " + value.describe());
  return value.string();
}

bool readBool(JsonValue value, const JsonPath& path) {
  if (!value.isBool()) fail(path, "expected true or false, got " + value.describe());
  return value.boolean();
}

uint32_t readUint32(JsonValue value, const JsonPath& path) {
  const bool tooLarge =
      (value.isInteger() && !value.negative() && value.magnitude() > UINT32_MAX) ||
      (value.isFloat() && isIntegerToken(value.token()) && value.number() > 0);
  if (tooLarge)
    fail(path, fmt::format("{} is out of range (max {})", value.describe(), UINT32_MAX));
  if (!value.isInteger() || (value.negative() && value.magnitude() != 0)) {
    fail(path, "expected a non-negative integer, got " + value.describe());
  }
  return static_cast<uint32_t>(value.magnitude());
}

int32_t readInt32(JsonValue value, const JsonPath& path) {
  const uint64_t limit = value.isInteger() && value.negative() ? uint64_t{1} << 31 : INT32_MAX;
  const bool outOfRange = (value.isInteger() && value.magnitude() > limit) ||
                          (value.isFloat() && isIntegerToken(value.token()));
  if (outOfRange) {
    fail(path, fmt::format("{} is out of range [{}, {}]", value.describe(), INT32_MIN, INT32_MAX));
  }
  if (!value.isInteger()) fail(path, "expected an integer, got " + value.describe());
  const auto magnitude = static_cast<int64_t>(value.magnitude());
  return static_cast<int32_t>(value.negative() ? -magnitude : magnitude);
}

}  // namespace nnfab::json
