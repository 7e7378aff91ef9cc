// compile(): build the intermediate form, fuse compare-and-branch, emit.
#include <exception>
#include <new>

#include "compiler/builder.h"
#include "compiler/compiler.h"
#include "compiler/emitter.h"
#include "compiler/passes.h"

namespace nnfab::compiler {

Result<Program> compile(const Model& model, const StepSpec& step, const std::vector<Dimensions>& inputDimensions) {
  try {
    // Constants hoisted out of loops first; when that runs out of registers,
    // once more with every constant loaded where it is used.
    for (const bool hoist : {true, false}) {
      BuildOptions options;
      options.hoistConstants = hoist;
      auto fn = buildStep(model, step, inputDimensions, options);
      if (!fn) return std::move(fn).takeStatus().withContext("fabric compiler");
      fuseCompareBranches(*fn);
      coalesceMoves(*fn);
      bool outOfRegisters = false;
      auto program = emitProgram(*fn, &outOfRegisters);
      if (program || !outOfRegisters || !hoist) {
        if (!program) return std::move(program).takeStatus().withContext("fabric compiler");
        return program;
      }
    }
    return generalFailure("fabric compiler: unreachable");
  } catch (const std::bad_alloc&) {
    return Status(ErrorStatus::RESOURCE_EXHAUSTED_TRANSIENT, "fabric compiler: out of memory");
  }
}

StepSpec wholeMainStep(const Model& model) {
  StepSpec step;
  step.subgraph = 0;
  for (uint32_t i = 0; i < model.main.operations.size(); ++i) step.operations.push_back(i);
  step.inputs = model.main.inputIndexes;
  step.outputs = model.main.outputIndexes;
  return step;
}

Result<Program> compileMain(const Model& model, const std::vector<TensorValue>& inputs) {
  return compile(model, wholeMainStep(model), dimensionsOf(inputs));
}

std::vector<Dimensions> dimensionsOf(const std::vector<TensorValue>& values) {
  std::vector<Dimensions> dims;
  dims.reserve(values.size());
  for (const TensorValue& v : values) dims.push_back(v.dimensions);
  return dims;
}

}  // namespace nnfab::compiler
