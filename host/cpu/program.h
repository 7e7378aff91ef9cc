// The model lowered once per preparation into what the interpreter needs at
// run time: per operation its kind, operand indexes, which inputs are kernel
// parameters, and the IF/WHILE layout. Immutable and shared by executions.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "cpu/scalar_loop.h"
#include "model/model.h"

namespace nnfab::cpu {

enum class OpKind : uint8_t { KERNEL, IF, WHILE };

struct ProgramOp {
  OpKind kind = OpKind::KERNEL;
  OperationType type = OperationType::ADD;
  std::vector<uint32_t> inputs;
  std::vector<uint32_t> outputs;
  std::vector<uint32_t> parameterInputs;  // positions in `inputs` read by prepareKernel
  // IF: branch[0] = then, branch[1] = else. WHILE: branch[0] = cond, branch[1] = body.
  // As Model::subgraph() indexes: 0 = main, i + 1 = referenced[i].
  uint32_t branch[2] = {0, 0};
  uint32_t whileCarried = 0;  // WHILE: m + k (input-output and state-only values)
  uint32_t whileOutputs = 0;  // WHILE: m
  // WHILE: the loop as register code when its cond and body qualify
  // (scalar_loop.h); null runs it on frames.
  std::shared_ptr<const ScalarLoop> scalarLoop;
};

struct ProgramSubgraph {
  const Subgraph* subgraph = nullptr;
  std::vector<ProgramOp> ops;
};

struct PreparedProgram {
  std::vector<ProgramSubgraph> subgraphs;  // indexed like Model::subgraph()
};

struct LowerOptions {
  // Compile qualifying WHILEs to register code. Off only to compare the two
  // paths (tests/cpu/scalar_loop_test.cpp).
  bool scalarLoops = true;
};

PreparedProgram lowerModel(const Model& model, const LowerOptions& options = {});

}  // namespace nnfab::cpu
