#include "model/json_values.h"

#include <fmt/format.h>

#include <bit>
#include <cmath>
#include <limits>
#include <optional>

#include "model/json_float16.h"
#include "model/json_numbers.h"
#include "model/json_schema.h"

namespace nnfab::json {
namespace {

struct IntegerRange {
  int64_t min;
  int64_t max;
};

std::optional<IntegerRange> integerRange(OperandType type) {
  switch (type) {
    case OperandType::INT32:
    case OperandType::TENSOR_INT32:
      return IntegerRange{INT32_MIN, INT32_MAX};
    case OperandType::UINT32:
      return IntegerRange{0, UINT32_MAX};
    case OperandType::TENSOR_QUANT8_ASYMM:
      return IntegerRange{0, UINT8_MAX};
    case OperandType::TENSOR_QUANT8_SYMM:
    case OperandType::TENSOR_QUANT8_ASYMM_SIGNED:
    case OperandType::TENSOR_QUANT8_SYMM_PER_CHANNEL:
      return IntegerRange{INT8_MIN, INT8_MAX};
    case OperandType::TENSOR_QUANT16_SYMM:
      return IntegerRange{INT16_MIN, INT16_MAX};
    case OperandType::TENSOR_QUANT16_ASYMM:
      return IntegerRange{0, UINT16_MAX};
    default:
      return std::nullopt;
  }
}

bool isBoolType(OperandType type) {
  return type == OperandType::BOOL || type == OperandType::TENSOR_BOOL8;
}

bool isFloat16Type(OperandType type) {
  return type == OperandType::FLOAT16 || type == OperandType::TENSOR_FLOAT16;
}

// Element bytes are little-endian whatever the host is.
void storeLittleEndian(uint8_t* out, uint64_t bits, size_t size) {
  for (size_t i = 0; i < size; ++i) out[i] = static_cast<uint8_t>(bits >> (8 * i));
}

uint64_t loadLittleEndian(const uint8_t* in, size_t size) {
  uint64_t bits = 0;
  for (size_t i = 0; i < size; ++i) bits |= uint64_t{in[i]} << (8 * i);
  return bits;
}

std::optional<double> nonFiniteFromString(std::string_view text) {
  if (text == "NaN") return std::numeric_limits<double>::quiet_NaN();
  if (text == "Infinity") return std::numeric_limits<double>::infinity();
  if (text == "-Infinity") return -std::numeric_limits<double>::infinity();
  return std::nullopt;
}

[[noreturn]] void failNotFloat(JsonValue value, const JsonPath& path, OperandType type) {
  fail(path, fmt::format("expected a number or \"NaN\", \"Infinity\", \"-Infinity\" ({}), got {}",
                         toString(type), value.describe()));
}

[[noreturn]] void failFloatRange(JsonValue value, const JsonPath& path, OperandType type) {
  fail(path, fmt::format("{} is out of range for {} (would round to infinity)", value.describe(),
                         toString(type)));
}

uint32_t readFloat32Bits(JsonValue value, const JsonPath& path, OperandType type) {
  std::optional<float> result;
  if (value.isString()) {
    const std::optional<double> special = nonFiniteFromString(value.string());
    if (!special) failNotFloat(value, path, type);
    result = static_cast<float>(*special);
  } else if (value.isInteger()) {
    result = integerToFloat32(value.negative(), value.magnitude());
    if (!result) failFloatRange(value, path, type);
  } else if (value.isFloat()) {
    result = decimalToFloat32(value.number(), value.token());
    if (!result) failFloatRange(value, path, type);
  } else {
    failNotFloat(value, path, type);
  }
  return std::bit_cast<uint32_t>(*result);
}

uint16_t readFloat16Bits(JsonValue value, const JsonPath& path, OperandType type) {
  std::optional<uint16_t> result;
  if (value.isString()) {
    const std::optional<double> special = nonFiniteFromString(value.string());
    if (!special) failNotFloat(value, path, type);
    result = float16FromDouble(*special);
  } else if (value.isInteger()) {
    result = integerToFloat16(value.negative(), value.magnitude());
    if (!result) failFloatRange(value, path, type);
  } else if (value.isFloat()) {
    result = decimalToFloat16(value.number(), value.token());
    if (!result) failFloatRange(value, path, type);
  } else {
    failNotFloat(value, path, type);
  }
  return *result;
}

uint8_t readBoolByte(JsonValue value, const JsonPath& path, OperandType type, BoolSpelling bools) {
  if (value.isBool()) return value.boolean() ? 1 : 0;
  const bool zeroOrOne = value.isInteger() && !value.negative() && value.magnitude() <= 1;
  if (bools == BoolSpelling::TrueFalseOrZeroOne) {
    if (zeroOrOne) return static_cast<uint8_t>(value.magnitude());
    fail(path, fmt::format("expected true, false, 0 or 1 ({}), got {}", toString(type),
                           value.describe()));
  }
  fail(path, fmt::format("expected true or false ({}), got {}", toString(type), value.describe()));
}

int64_t readInteger(JsonValue value, const JsonPath& path, OperandType type, IntegerRange range) {
  // A token without fraction or exponent that nlohmann could not fit into
  // 64 bits is an integer, just far out of range.
  const bool hugeInteger =
      value.isFloat() && value.token().find_first_of(".eE") == std::string_view::npos;
  if (!value.isInteger() && !hugeInteger) {
    fail(path, fmt::format("expected an integer ({}), got {}", toString(type), value.describe()));
  }
  const uint64_t limit =
      value.negative() ? 0 - static_cast<uint64_t>(range.min) : static_cast<uint64_t>(range.max);
  if (hugeInteger || value.magnitude() > limit) {
    fail(path, fmt::format("{} is out of range for {} [{}, {}]", value.describe(), toString(type),
                           range.min, range.max));
  }
  const auto magnitude = static_cast<int64_t>(value.magnitude());
  return value.negative() ? -magnitude : magnitude;
}

}  // namespace

std::vector<uint8_t> readElements(JsonValue array, const JsonPath& path, OperandType type,
                                  BoolSpelling bools) {
  const size_t elementSize = sizeOfElement(type);
  std::vector<uint8_t> bytes(static_cast<size_t>(array.size()) * elementSize);
  const std::optional<IntegerRange> range = integerRange(type);
  uint8_t* out = bytes.data();
  size_t index = 0;
  for (const JsonValue element : array) {
    const JsonPath elementPath = path.child(index++);
    uint64_t bits = 0;
    if (range) {
      bits = static_cast<uint64_t>(readInteger(element, elementPath, type, *range));
    } else if (isBoolType(type)) {
      bits = readBoolByte(element, elementPath, type, bools);
    } else if (isFloat16Type(type)) {
      bits = readFloat16Bits(element, elementPath, type);
    } else {
      bits = readFloat32Bits(element, elementPath, type);
    }
    storeLittleEndian(out, bits, elementSize);
    out += elementSize;
  }
  return bytes;
}

float readFloat32(JsonValue value, const JsonPath& path) {
  return std::bit_cast<float>(readFloat32Bits(value, path, OperandType::FLOAT32));
}

void appendElements(std::string& out, OperandType type, const std::vector<uint8_t>& bytes) {
  const size_t elementSize = sizeOfElement(type);
  const size_t count = elementSize == 0 ? 0 : bytes.size() / elementSize;
  const std::optional<IntegerRange> range = integerRange(type);
  out += '[';
  for (size_t i = 0; i < count; ++i) {
    if (i > 0) out += ", ";
    const uint64_t bits = loadLittleEndian(bytes.data() + i * elementSize, elementSize);
    if (range && range->min < 0) {
      // Sign-extend the element to 64 bits.
      const int shift = static_cast<int>(64 - 8 * elementSize);
      out += fmt::format("{}", static_cast<int64_t>(bits << shift) >> shift);
    } else if (range) {
      out += fmt::format("{}", bits);
    } else if (isBoolType(type)) {
      out += bits != 0 ? "true" : "false";
    } else if (isFloat16Type(type)) {
      out += formatFloat16(static_cast<uint16_t>(bits));
    } else {
      out += formatFloat32(std::bit_cast<float>(static_cast<uint32_t>(bits)));
    }
  }
  out += ']';
}

}  // namespace nnfab::json
