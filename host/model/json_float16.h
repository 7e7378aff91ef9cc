// IEEE 754 binary16 (FLOAT16, TENSOR_FLOAT16 elements are stored as these
// bits) to and from float/double, round to nearest, ties to even. Values too
// large become infinity; NaN stays NaN (sign kept, payload not).
#pragma once

#include <cstdint>

namespace nnfab::json {

uint16_t float16FromDouble(double value);
uint16_t float16FromFloat(float value);
float float16ToFloat(uint16_t bits);

// Bits of the binary16 value equal to `magnitude`, which must already lie on
// the binary16 grid (or overflow): see roundMagnitude().
uint16_t float16FromExactMagnitude(bool negative, double magnitude);

}  // namespace nnfab::json
