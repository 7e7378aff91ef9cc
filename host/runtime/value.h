// An operand's value during a plan execution, kept in host memory. Values are
// immutable once made, so binding an IF/WHILE input or carrying a loop value
// shares the bytes instead of copying them.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "model/model.h"

namespace nnfab::runtime {

using Bytes = std::vector<uint8_t>;

struct Value {
  bool present = false;  // false: never written, omitted, or NO_VALUE
  Dimensions dims;
  std::shared_ptr<const Bytes> bytes;
};

inline Value makeValue(Dimensions dims, Bytes bytes) {
  return Value{true, std::move(dims), std::make_shared<const Bytes>(std::move(bytes))};
}

// A constant of the model, without a copy: the model outlives the execution.
inline Value constantValue(const Operand& operand) {
  return Value{true, operand.dimensions, std::shared_ptr<const Bytes>(std::shared_ptr<void>(), &operand.value)};
}

}  // namespace nnfab::runtime
