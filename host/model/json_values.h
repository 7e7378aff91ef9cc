// Element values of one operand type as JSON (operand `value`, input and
// output `data`) <-> the native layout of Operand::value / TensorValue::data:
// little-endian element bytes, booleans as 0/1, FLOAT16 as binary16 bits.
// The spelling rules per type live here only, shared by reader and writer.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "model/json_document.h"
#include "model/json_path.h"
#include "model/types.h"

namespace nnfab::json {

enum class BoolSpelling {
  TrueFalse,          // model constants, expected outputs
  TrueFalseOrZeroOne  // input data
};

// The elements of the JSON array `array` (already checked to be an array of
// the right length) as bytes; throws JsonSchemaError naming the element's
// path. `type` must not be SUBGRAPH.
std::vector<uint8_t> readElements(JsonValue array, const JsonPath& path, OperandType type,
                                  BoolSpelling bools);

// One float in the formats' float spelling (a number, "NaN", "Infinity",
// "-Infinity"), for scale and channel scales.
float readFloat32(JsonValue value, const JsonPath& path);

// Appends "[e0, e1, ...]"; a trailing partial element is ignored.
void appendElements(std::string& out, OperandType type, const std::vector<uint8_t>& bytes);

}  // namespace nnfab::json
