// Small helpers to build models as C++ structs for the validation tests, so
// they do not depend on the JSON reader. Quantized operands get scale 1 by
// default (a valid value); tests that need another edit the operand afterwards.
#pragma once

#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <string>
#include <utility>
#include <vector>

#include "model/model.h"
#include "model/status.h"
#include "validation/validate.h"

namespace nnfab::test {

using T = OperandType;
using L = OperandLifeTime;
using Op = OperationType;

inline float defaultScale(OperandType type) { return isQuantizedType(type) ? 1.0f : 0.0f; }

// An operand description; lifetime defaults to a temporary.
inline Operand tensor(OperandType type, Dimensions dims, L lifetime = L::TEMPORARY_VARIABLE) {
  Operand o;
  o.type = type;
  o.dimensions = std::move(dims);
  o.scale = defaultScale(type);
  o.lifetime = lifetime;
  return o;
}

// Value bytes of `count` elements of `type`, all zero (the validator only
// looks at their number).
inline std::vector<uint8_t> zeroBytes(OperandType type, size_t count) {
  return std::vector<uint8_t>(sizeOfElement(type) * count, 0);
}

inline std::vector<uint8_t> int32Bytes(std::vector<int32_t> values) {
  std::vector<uint8_t> bytes(values.size() * 4);
  std::memcpy(bytes.data(), values.data(), bytes.size());
  return bytes;
}

inline Operand constantOf(OperandType type, Dimensions dims) {
  Operand o = tensor(type, dims, L::CONSTANT_COPY);
  size_t count = 1;
  for (uint32_t d : dims) count *= d;
  o.value = zeroBytes(type, count);
  return o;
}

inline Operand int32Scalar(int32_t v) {
  Operand o = tensor(T::INT32, {}, L::CONSTANT_COPY);
  o.value = int32Bytes({v});
  return o;
}

class SubgraphBuilder {
 public:
  uint32_t add(Operand operand) {
    sg.operands.push_back(std::move(operand));
    return static_cast<uint32_t>(sg.operands.size() - 1);
  }
  uint32_t input(OperandType type, Dimensions dims = {}) {
    const uint32_t k = add(tensor(type, std::move(dims), L::SUBGRAPH_INPUT));
    sg.inputIndexes.push_back(k);
    return k;
  }
  uint32_t output(OperandType type, Dimensions dims = {}) {
    const uint32_t k = add(tensor(type, std::move(dims), L::SUBGRAPH_OUTPUT));
    sg.outputIndexes.push_back(k);
    return k;
  }
  uint32_t temp(OperandType type, Dimensions dims = {}) { return add(tensor(type, dims)); }
  uint32_t constant(OperandType type, Dimensions dims) { return add(constantOf(type, dims)); }
  uint32_t scalar(int32_t v) { return add(int32Scalar(v)); }
  // A SUBGRAPH operand naming model.referenced[index].
  uint32_t ref(uint32_t index) {
    Operand o = tensor(T::SUBGRAPH, {}, L::SUBGRAPH);
    o.subgraph = index;
    return add(o);
  }
  SubgraphBuilder& op(OperationType type, std::vector<uint32_t> inputs,
                      std::vector<uint32_t> outputs) {
    sg.operations.push_back({type, std::move(inputs), std::move(outputs)});
    return *this;
  }
  Operand& operand(uint32_t k) { return sg.operands[k]; }

  Subgraph sg;
};

// A main subgraph with one operation: every operand in `inputs` that is not a
// constant (or NO_VALUE) becomes a model input; every output a model output.
inline Model singleOp(OperationType type, std::vector<Operand> inputs,
                      std::vector<Operand> outputs) {
  SubgraphBuilder b;
  std::vector<uint32_t> in;
  std::vector<uint32_t> out;
  for (Operand& o : inputs) {
    const bool keep = o.lifetime == L::CONSTANT_COPY || o.lifetime == L::CONSTANT_REFERENCE ||
                      o.lifetime == L::NO_VALUE;
    if (!keep) o.lifetime = L::SUBGRAPH_INPUT;
    const uint32_t k = b.add(o);
    if (!keep) b.sg.inputIndexes.push_back(k);
    in.push_back(k);
  }
  for (Operand& o : outputs) {
    o.lifetime = L::SUBGRAPH_OUTPUT;
    const uint32_t k = b.add(o);
    b.sg.outputIndexes.push_back(k);
    out.push_back(k);
  }
  b.op(type, in, out);
  Model model;
  model.main = std::move(b.sg);
  return model;
}

// ADD/SUB/MUL/DIV of two [2] tensors of `type` with a NONE activation.
inline Model arithmeticModel(OperationType type, OperandType t) {
  return singleOp(type, {tensor(t, {2}), tensor(t, {2}), int32Scalar(0)}, {tensor(t, {2})});
}

// Identity subgraph x -> CAST -> y of one type and shape.
inline Subgraph identitySubgraph(OperandType type, Dimensions dims) {
  SubgraphBuilder b;
  const uint32_t x = b.input(type, dims);
  const uint32_t y = b.output(type, dims);
  b.op(Op::CAST, {x}, {y});
  return b.sg;
}

// main: y = IF(cond, referenced[0], referenced[1], x), x and y TENSOR_FLOAT32 [2].
// Operand indexes of main: 0 cond, 1 x, 2 then, 3 else, 4 y.
inline Model ifModel() {
  SubgraphBuilder b;
  const uint32_t cond = b.input(T::TENSOR_BOOL8, {1});
  const uint32_t x = b.input(T::TENSOR_FLOAT32, {2});
  const uint32_t thenRef = b.ref(0);
  const uint32_t elseRef = b.ref(1);
  const uint32_t y = b.output(T::TENSOR_FLOAT32, {2});
  b.op(Op::IF, {cond, thenRef, elseRef, x}, {y});
  Model model;
  model.main = std::move(b.sg);
  model.referenced = {identitySubgraph(T::TENSOR_FLOAT32, {2}),
                      identitySubgraph(T::TENSOR_FLOAT32, {2})};
  return model;
}

// A WHILE loop with m input-output, k state-only and n input-only operands,
// all TENSOR_INT32 [1]:
//   cond (referenced[0]): LESS(first input, last input or first) -> BOOL8 [1]
//   body (referenced[1]): output j = ADD(input j, 1) for j < m + k
// main operand indexes: 0 cond ref, 1 body ref, 2 .. 2+m+k+n-1 inputs, then m outputs.
inline Model whileModel(size_t m = 1, size_t k = 0, size_t n = 1) {
  const size_t carried = m + k;
  const size_t all = m + k + n;
  SubgraphBuilder cond;
  std::vector<uint32_t> condIn;
  for (size_t i = 0; i < all; ++i) condIn.push_back(cond.input(T::TENSOR_INT32, {1}));
  const uint32_t condOut = cond.output(T::TENSOR_BOOL8, {1});
  cond.op(Op::LESS, {condIn.front(), condIn.back()}, {condOut});

  SubgraphBuilder body;
  std::vector<uint32_t> bodyIn;
  for (size_t i = 0; i < all; ++i) bodyIn.push_back(body.input(T::TENSOR_INT32, {1}));
  const uint32_t one = body.constant(T::TENSOR_INT32, {1});
  const uint32_t act = body.scalar(0);
  for (size_t i = 0; i < carried; ++i) {
    const uint32_t out = body.output(T::TENSOR_INT32, {1});
    body.op(Op::ADD, {bodyIn[i], one, act}, {out});
  }

  SubgraphBuilder main;
  const uint32_t condRef = main.ref(0);
  const uint32_t bodyRef = main.ref(1);
  std::vector<uint32_t> in = {condRef, bodyRef};
  for (size_t i = 0; i < all; ++i) in.push_back(main.input(T::TENSOR_INT32, {1}));
  std::vector<uint32_t> out;
  for (size_t i = 0; i < m; ++i) out.push_back(main.output(T::TENSOR_INT32, {1}));
  main.op(Op::WHILE, in, out);

  Model model;
  model.main = std::move(main.sg);
  model.referenced = {std::move(cond.sg), std::move(body.sg)};
  return model;
}

// Assertion helpers: valid, or INVALID_ARGUMENT whose message contains every fragment.
inline ::testing::AssertionResult isValid(const Model& model,
                                          ValidationMode mode = ValidationMode::RUNTIME) {
  const Status s = validateModel(model, mode);
  if (s.isOk()) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure()
         << "expected valid, got " << toString(s.code()) << ": " << s.message();
}

inline ::testing::AssertionResult statusFails(const Status& s,
                                              const std::vector<std::string>& fragments) {
  if (s.isOk()) return ::testing::AssertionFailure() << "expected INVALID_ARGUMENT, got success";
  if (s.code() != ErrorStatus::INVALID_ARGUMENT) {
    return ::testing::AssertionFailure()
           << "expected INVALID_ARGUMENT, got " << toString(s.code()) << ": " << s.message();
  }
  for (const std::string& fragment : fragments) {
    if (s.message().find(fragment) == std::string::npos) {
      return ::testing::AssertionFailure()
             << "message lacks \"" << fragment << "\": " << s.message();
    }
  }
  return ::testing::AssertionSuccess();
}

inline ::testing::AssertionResult isInvalid(const Model& model,
                                            const std::vector<std::string>& fragments,
                                            ValidationMode mode = ValidationMode::RUNTIME) {
  return statusFails(validateModel(model, mode), fragments);
}

}  // namespace nnfab::test
