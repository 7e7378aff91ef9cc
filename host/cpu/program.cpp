#include "cpu/program.h"

#include "cpu/kernels/kernel.h"

namespace nnfab::cpu {

PreparedProgram lowerModel(const Model& model, const LowerOptions& options) {
  PreparedProgram program;
  program.subgraphs.resize(model.subgraphCount());
  for (size_t s = 0; s < model.subgraphCount(); ++s) {
    const Subgraph& sg = model.subgraph(s);
    ProgramSubgraph& out = program.subgraphs[s];
    out.subgraph = &sg;
    out.ops.reserve(sg.operations.size());
    for (const Operation& operation : sg.operations) {
      ProgramOp op;
      op.type = operation.type;
      op.inputs = operation.inputs;
      op.outputs = operation.outputs;
      if (operation.type == OperationType::IF) {
        op.kind = OpKind::IF;
        op.branch[0] = sg.operands[operation.inputs[1]].subgraph + 1;
        op.branch[1] = sg.operands[operation.inputs[2]].subgraph + 1;
      } else if (operation.type == OperationType::WHILE) {
        op.kind = OpKind::WHILE;
        op.branch[0] = sg.operands[operation.inputs[0]].subgraph + 1;
        op.branch[1] = sg.operands[operation.inputs[1]].subgraph + 1;
        const Subgraph& body = model.subgraph(op.branch[1]);
        op.whileCarried = static_cast<uint32_t>(body.outputIndexes.size());
        op.whileOutputs = static_cast<uint32_t>(operation.outputs.size());
        if (options.scalarLoops) {
          if (auto loop = compileScalarLoop(model, sg, operation)) {
            op.scalarLoop = std::make_shared<const ScalarLoop>(std::move(*loop));
          }
        }
      } else {
        for (uint32_t i = 0; i < operation.inputs.size(); ++i) {
          if (isParameterInput(operation.type, i)) op.parameterInputs.push_back(i);
        }
      }
      out.ops.push_back(std::move(op));
    }
  }
  return program;
}

}  // namespace nnfab::cpu
