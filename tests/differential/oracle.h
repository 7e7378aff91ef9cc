// An independent evaluator for the operation subset the random model
// generator uses: elementwise INT32/BOOL8/FLOAT32 operations with NNAPI
// broadcasting, SELECT, CAST, IF and WHILE. It is deliberately naive
// (recursive, one element at a time, a fresh buffer per value) and shares no
// code with host/cpu or the fabric: only isa/int32_semantics.h, which is
// nnfab's definition of INT32 arithmetic rather than an implementation of it.
// The differential tests use it to check the CPU reference itself, so that a
// bug common to every device cannot hide behind "all devices agree".
#pragma once

#include <cstdint>
#include <vector>

#include "model/model.h"
#include "model/status.h"

namespace nnfab::differential {

struct OracleStats {
  uint64_t whileLoops = 0;           // WHILE instances run
  uint64_t zeroIterationLoops = 0;   // of which ran the body zero times
  uint64_t maxIterations = 0;        // most body runs of one WHILE instance
  uint64_t ifTaken[2] = {0, 0};      // IFs that ran else [0] / then [1]
  uint32_t maxDepth = 0;             // deepest IF/WHILE nesting entered
  uint64_t operations = 0;           // operations evaluated
};

// Outputs of the main subgraph. Fails with GENERAL_FAILURE on an operation
// outside the subset, a shape conflict, an INT32 fused activation other than
// NONE, or a WHILE running more than `maxIterations` times.
Result<std::vector<TensorValue>> oracleRun(const Model& model, const std::vector<TensorValue>& inputs,
                                           OracleStats* stats = nullptr,
                                           uint64_t maxIterations = 100000);

}  // namespace nnfab::differential
