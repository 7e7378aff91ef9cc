// Builds models in C++ where JSON would be unwieldy (deep nesting, generated
// graphs, the benchmark's models), and typed request values. Used by the
// benchmarks in the shipped binary and by the tests.
#pragma once

#include <cstring>
#include <vector>

#include "model/model.h"

namespace nnfab::models {

class SubgraphBuilder {
 public:
  // Inputs and outputs are listed in the order they are created.
  uint32_t input(OperandType type, Dimensions dims) {
    const uint32_t i = add(type, std::move(dims), OperandLifeTime::SUBGRAPH_INPUT);
    sg_.inputIndexes.push_back(i);
    return i;
  }
  uint32_t output(OperandType type, Dimensions dims) {
    const uint32_t i = add(type, std::move(dims), OperandLifeTime::SUBGRAPH_OUTPUT);
    sg_.outputIndexes.push_back(i);
    return i;
  }
  uint32_t temp(OperandType type, Dimensions dims) {
    return add(type, std::move(dims), OperandLifeTime::TEMPORARY_VARIABLE);
  }
  uint32_t noValue(OperandType type, Dimensions dims) {
    return add(type, std::move(dims), OperandLifeTime::NO_VALUE);
  }
  uint32_t subgraphRef(uint32_t referencedIndex) {
    const uint32_t i = add(OperandType::SUBGRAPH, {}, OperandLifeTime::SUBGRAPH);
    sg_.operands[i].subgraph = referencedIndex;
    return i;
  }
  template <typename T>
  uint32_t constant(OperandType type, Dimensions dims, const std::vector<T>& values) {
    const uint32_t i = add(type, std::move(dims), OperandLifeTime::CONSTANT_COPY);
    const auto* raw = reinterpret_cast<const uint8_t*>(values.data());
    sg_.operands[i].value.assign(raw, raw + values.size() * sizeof(T));
    return i;
  }
  uint32_t int32Tensor(Dimensions dims, const std::vector<int32_t>& v) {
    return constant(OperandType::TENSOR_INT32, std::move(dims), v);
  }
  uint32_t floatTensor(Dimensions dims, const std::vector<float>& v) {
    return constant(OperandType::TENSOR_FLOAT32, std::move(dims), v);
  }
  uint32_t scalar(int32_t v) { return constant(OperandType::INT32, {}, std::vector<int32_t>{v}); }
  void op(OperationType type, std::vector<uint32_t> inputs, std::vector<uint32_t> outputs) {
    sg_.operations.push_back({type, std::move(inputs), std::move(outputs)});
  }
  Subgraph build() const { return sg_; }

 private:
  uint32_t add(OperandType type, Dimensions dims, OperandLifeTime lifetime) {
    Operand operand;
    operand.type = type;
    operand.dimensions = std::move(dims);
    operand.lifetime = lifetime;
    sg_.operands.push_back(std::move(operand));
    return static_cast<uint32_t>(sg_.operands.size() - 1);
  }
  Subgraph sg_;
};

template <typename T>
TensorValue tensor(OperandType type, Dimensions dims, const std::vector<T>& values) {
  TensorValue v;
  v.type = type;
  v.dimensions = std::move(dims);
  const auto* raw = reinterpret_cast<const uint8_t*>(values.data());
  v.data.assign(raw, raw + values.size() * sizeof(T));
  return v;
}
inline TensorValue int32s(Dimensions dims, const std::vector<int32_t>& v) {
  return tensor(OperandType::TENSOR_INT32, std::move(dims), v);
}
inline TensorValue floats(Dimensions dims, const std::vector<float>& v) {
  return tensor(OperandType::TENSOR_FLOAT32, std::move(dims), v);
}
inline TensorValue bools(Dimensions dims, const std::vector<uint8_t>& v) {
  return tensor(OperandType::TENSOR_BOOL8, std::move(dims), v);
}
inline TensorValue omitted() {
  TensorValue v;
  v.omitted = true;
  return v;
}

template <typename T>
std::vector<T> values(const TensorValue& v) {
  std::vector<T> out(v.data.size() / sizeof(T));
  if (!out.empty()) std::memcpy(out.data(), v.data.data(), out.size() * sizeof(T));
  return out;
}

}  // namespace nnfab::models
