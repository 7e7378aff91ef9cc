#include "support/tolerance.h"

#include <fmt/format.h>

#include <cmath>
#include <cstring>

namespace nnfab::testing {
namespace {

template <typename T>
T load(const std::vector<uint8_t>& bytes, size_t i) {
  T v;
  std::memcpy(&v, bytes.data() + i * sizeof(T), sizeof(T));
  return v;
}

float halfToFloat(uint16_t h) {
  const uint32_t sign = (h >> 15) & 1u, exponent = (h >> 10) & 0x1fu, mantissa = h & 0x3ffu;
  float value;
  if (exponent == 0) {
    value = std::ldexp(static_cast<float>(mantissa), -24);
  } else if (exponent == 31) {
    value = mantissa ? NAN : INFINITY;
  } else {
    value = std::ldexp(static_cast<float>(mantissa | 0x400u), static_cast<int>(exponent) - 25);
  }
  return sign ? -value : value;
}

bool withinTolerance(double expected, double actual, double atol, double rtol) {
  if (std::isnan(expected)) return std::isnan(actual);
  if (std::isinf(expected)) return expected == actual;
  return std::fabs(actual - expected) <= atol + rtol * std::fabs(expected);
}

}  // namespace

std::string compareOutput(const TensorValue& expected, const TensorValue& actual, bool relaxed) {
  if (expected.dimensions != actual.dimensions) {
    return fmt::format("dimensions [{}] expected, got [{}]", fmt::join(expected.dimensions, ", "),
                       fmt::join(actual.dimensions, ", "));
  }
  if (expected.type != actual.type) {
    return fmt::format("type {} expected, got {}", toString(expected.type), toString(actual.type));
  }
  if (expected.data.size() != actual.data.size()) {
    return fmt::format("{} bytes expected, got {}", expected.data.size(), actual.data.size());
  }
  const size_t elementSize = sizeOfElement(expected.type);
  const size_t count = elementSize ? expected.data.size() / elementSize : 0;
  const double floatTolerance = 5.0 * std::ldexp(1.0, -10);
  for (size_t i = 0; i < count; ++i) {
    double e = 0, a = 0, atol = 0, rtol = 0;
    switch (expected.type) {
      case OperandType::TENSOR_FLOAT32:
      case OperandType::FLOAT32:
        e = load<float>(expected.data, i);
        a = load<float>(actual.data, i);
        atol = relaxed ? floatTolerance : 1e-5;
        rtol = relaxed ? floatTolerance : 5.0 * std::ldexp(1.0, -23);
        break;
      case OperandType::TENSOR_FLOAT16:
      case OperandType::FLOAT16:
        e = halfToFloat(load<uint16_t>(expected.data, i));
        a = halfToFloat(load<uint16_t>(actual.data, i));
        atol = rtol = floatTolerance;
        break;
      case OperandType::TENSOR_INT32:
      case OperandType::INT32:
        e = load<int32_t>(expected.data, i);
        a = load<int32_t>(actual.data, i);
        atol = 1;
        break;
      case OperandType::UINT32:
        e = load<uint32_t>(expected.data, i);
        a = load<uint32_t>(actual.data, i);
        atol = 1;
        break;
      case OperandType::TENSOR_BOOL8:
      case OperandType::BOOL:
        e = expected.data[i] != 0;
        a = actual.data[i] != 0;
        break;
      case OperandType::TENSOR_QUANT8_ASYMM:
        e = load<uint8_t>(expected.data, i);
        a = load<uint8_t>(actual.data, i);
        atol = 1;
        break;
      case OperandType::TENSOR_QUANT8_ASYMM_SIGNED:
      case OperandType::TENSOR_QUANT8_SYMM:
      case OperandType::TENSOR_QUANT8_SYMM_PER_CHANNEL:
        e = load<int8_t>(expected.data, i);
        a = load<int8_t>(actual.data, i);
        atol = 1;
        break;
      case OperandType::TENSOR_QUANT16_SYMM:
        e = load<int16_t>(expected.data, i);
        a = load<int16_t>(actual.data, i);
        atol = 1;
        break;
      case OperandType::TENSOR_QUANT16_ASYMM:
        e = load<uint16_t>(expected.data, i);
        a = load<uint16_t>(actual.data, i);
        atol = 1;
        break;
      case OperandType::SUBGRAPH:
        return "SUBGRAPH values cannot be compared";
    }
    if (!withinTolerance(e, a, atol, rtol)) {
      return fmt::format("element {}: expected {}, got {} (atol {}, rtol {})", i, e, a, atol, rtol);
    }
  }
  return {};
}

}  // namespace nnfab::testing
