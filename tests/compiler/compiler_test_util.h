// Helpers for the compiler tests: the whole main subgraph as one step,
// small hand-built models, and (with the hls backend) running a compiled
// program and comparing it with the CPU reference.
#pragma once

#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "compiler/compiler.h"
#include "model/execution.h"
#include "model/model.h"
#include "nnfab_isa.h"
#include "support/model_builder.h"

namespace nnfab::compiler::test {

inline constexpr auto I32 = OperandType::TENSOR_INT32;
inline constexpr auto B8 = OperandType::TENSOR_BOOL8;
inline constexpr auto F32 = OperandType::TENSOR_FLOAT32;

// Every main operation in order; main inputs and outputs as the step's.
inline StepSpec wholeMain(const Model& model) { return wholeMainStep(model); }

inline std::vector<Dimensions> declaredInputDims(const Model& model) {
  std::vector<Dimensions> dims;
  for (uint32_t i : model.main.inputIndexes) dims.push_back(model.main.operands[i].dimensions);
  return dims;
}

inline std::vector<Dimensions> dimsOf(const std::vector<TensorValue>& values) { return dimensionsOf(values); }

inline Result<Program> compileMain(const Model& model) {
  return compile(model, wholeMain(model), declaredInputDims(model));
}

inline Result<Program> compileMain(const Model& model, const std::vector<Dimensions>& dims) {
  return compile(model, wholeMain(model), dims);
}

// A model of one elementwise operation on main inputs of the given types
// and declared shapes; the output is declared with unknown dimensions.
// ADD/SUB/MUL/DIV get a constant activation `activation`.
inline Model singleOp(OperationType type, const std::vector<std::pair<OperandType, Dimensions>>& inputs,
                      OperandType outType, int32_t activation = 0) {
  testing::SubgraphBuilder main;
  std::vector<uint32_t> in;
  for (const auto& [t, d] : inputs) in.push_back(main.input(t, d));
  if (type == OperationType::ADD || type == OperationType::SUB || type == OperationType::MUL ||
      type == OperationType::DIV) {
    in.push_back(main.scalar(activation));
  }
  const uint32_t out = main.output(outType, {});
  main.op(type, in, {out});
  Model model;
  model.main = main.build();
  return model;
}

// Instruction fields of code[pc].
inline isa::Fields fields(const Program& p, size_t pc) { return isa::decodeFields(p.code.at(pc)); }
inline uint32_t opClass(const isa::Fields& f) { return f.opcode & isa::kClassMask; }
inline uint32_t aluFn(const isa::Fields& f) { return f.opcode & isa::kFnMask; }
inline uint32_t opcode(uint32_t cls, uint32_t fn) { return cls | fn; }

}  // namespace nnfab::compiler::test
