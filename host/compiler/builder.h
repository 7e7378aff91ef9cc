// Lowers a fabric step to the intermediate form (ir.h): shape inference
// with NNAPI's rules, the checks that make compile() fail wherever NNAPI's
// reference would fail for these shapes, IF as branches, WHILE as a rotated
// loop with hoisted constants, double-buffered tensors and loop-carried
// registers coalesced with the body's results.
#pragma once

#include <vector>

#include "compiler/compiler.h"
#include "compiler/ir.h"
#include "model/model.h"
#include "model/status.h"

namespace nnfab::compiler {

// Nesting of IF/WHILE the compiler inlines. Deeper steps fail to compile
// and run on the CPU executor, which handles any depth iteratively.
inline constexpr uint32_t kMaxNestingDepth = 64;
// Intermediate instructions a step may expand to before it is refused as
// too large (inlining a subgraph per reference can grow exponentially).
inline constexpr size_t kMaxIrInstructions = 4 * size_t{isa::kMAX_PROGRAM_INSTRUCTIONS};
// NNAPI's reference refuses single tensors above 1 GiB (RESOURCE_EXHAUSTED).
inline constexpr uint64_t kMaxTensorBytes = uint64_t{1} << 30;

struct BuildOptions {
  // Scalar constants used in a loop are loaded into registers before it
  // (fewer instructions per iteration, more registers held); without, each
  // use loads its constant right before it.
  bool hoistConstants = true;
};

Result<ir::Function> buildStep(const Model& model, const StepSpec& step,
                               const std::vector<Dimensions>& inputDimensions, const BuildOptions& options = {});

}  // namespace nnfab::compiler
