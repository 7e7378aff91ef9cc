// IF: a conditional branch around the two inlined branches, which write
// each output into one shared location; a constant condition keeps only the
// branch NNAPI would take.
#include "compiler/builder_internal.h"

namespace nnfab::compiler::lowering {

Status Builder::buildIf(Instance& in, uint32_t opIndex, uint32_t depth) {
  const Operation& op = in.sg->operations[opIndex];
  const std::string at = where(in, opIndex);
  if (depth >= kMaxNestingDepth) {
    return failure(fmt::format("{}: IF/WHILE nested deeper than {} levels; the CPU runs such steps", at,
                               kMaxNestingDepth));
  }
  if (op.inputs.size() < 3 || op.outputs.empty()) return failure(at + ": malformed IF");
  auto cond = read(in, op.inputs[0]);
  if (!cond) return std::move(cond).takeStatus().withContext(at);
  if (fn_.values[*cond].elem != Elem::BOOL8 || fn_.values[*cond].count != 1) {
    return failure(fmt::format("{}: the condition must be one TENSOR_BOOL8 element, got {}", at,
                               dimsString(fn_.values[*cond].dims)));
  }
  uint32_t branches[2];
  for (int b = 0; b < 2; ++b) {
    auto ref = subgraphRef(in, op.inputs[1 + b], b == 0 ? "IF then branch" : "IF else branch");
    if (!ref) return std::move(ref).takeStatus().withContext(at);
    branches[b] = *ref;
    const Subgraph& sg = model_.subgraph(*ref);
    if (sg.inputIndexes.size() != op.inputs.size() - 3 || sg.outputIndexes.size() != op.outputs.size()) {
      return failure(fmt::format("{}: {} does not match the IF's inputs and outputs", at, subgraphLabel(*ref)));
    }
  }
  std::vector<uint32_t> inputs;
  for (size_t i = 3; i < op.inputs.size(); ++i) {
    auto v = read(in, op.inputs[i]);
    if (!v) return std::move(v).takeStatus().withContext(at);
    inputs.push_back(*v);
  }
  // Each output is produced by both branches straight into one location.
  std::vector<uint32_t> outputs;
  for (uint32_t operand : op.outputs) {
    if (operand >= in.sg->operands.size()) return failure(at + ": refers to a missing operand");
    uint32_t v = in.binding[operand];
    if (v != kNone && !(in.state[operand] & Instance::kTarget)) {
      return failure(fmt::format("{}: output operand {} is written twice", at, operand));
    }
    if (v == kNone) {
      v = newValue(ir::Value{});
      roles_[v] = TargetRole::IF_OUTPUT;
    }
    outputs.push_back(v);
  }

  auto runBranch = [&](uint32_t subgraph) -> Status {
    auto branch = newInstance(subgraph);
    if (!branch) return std::move(branch).takeStatus();
    const Subgraph& sg = *branch->sg;
    for (size_t i = 0; i < sg.inputIndexes.size(); ++i) {
      const uint32_t operand = sg.inputIndexes[i];
      if (operand >= sg.operands.size() || branch->binding[operand] != kNone) {
        return failure(fmt::format("{}: malformed branch inputs", subgraphLabel(subgraph)));
      }
      branch->binding[operand] = inputs[i];
    }
    for (size_t i = 0; i < sg.outputIndexes.size(); ++i) {
      const uint32_t operand = sg.outputIndexes[i];
      if (operand >= sg.operands.size() || branch->binding[operand] != kNone) {
        return failure(fmt::format("{}: malformed branch outputs", subgraphLabel(subgraph)));
      }
      branch->binding[operand] = outputs[i];
      branch->state[operand] = Instance::kTarget;
    }
    if (Status s = buildInstance(*branch, depth + 1, out_); !s) return s;
    for (size_t i = 0; i < sg.outputIndexes.size(); ++i) {
      if (!(branch->state[sg.outputIndexes[i]] & Instance::kDefined)) {
        return failure(fmt::format("{}: output {} is not produced by an operation", subgraphLabel(subgraph), i));
      }
    }
    return Status::ok();
  };

  const ir::Storage& condStorage = fn_.storages[fn_.values[*cond].storage];
  if (condStorage.kind == StorageKind::CONST) {
    // A constant condition: only the branch NNAPI would take exists.
    if (Status s = runBranch(branches[(*condStorage.value)[0] != 0 ? 0 : 1]); !s) return std::move(s).withContext(at);
  } else {
    const uint32_t elseLabel = newLabel();
    const uint32_t endLabel = newLabel();
    Inst branch;
    branch.kind = Kind::BRANCH;
    branch.src[0] = *cond;
    branch.sense = false;
    branch.label = elseLabel;
    if (Status s = emit(branch); !s) return s;
    if (Status s = runBranch(branches[0]); !s) return std::move(s).withContext(at);
    Inst jump;
    jump.kind = Kind::JUMP;
    jump.label = endLabel;
    if (Status s = emit(jump); !s) return s;
    Inst label;
    label.kind = Kind::LABEL;
    label.label = elseLabel;
    if (Status s = emit(label); !s) return s;
    if (Status s = runBranch(branches[1]); !s) return std::move(s).withContext(at);
    label.label = endLabel;
    if (Status s = emit(label); !s) return s;
  }
  for (size_t i = 0; i < op.outputs.size(); ++i) {
    const ir::Value& v = fn_.values[outputs[i]];
    if (Status s = checkDeclared(in, op.outputs[i], v.elem, v.dims, at); !s) return s;
    in.binding[op.outputs[i]] = outputs[i];
    in.state[op.outputs[i]] = Instance::kDefined;
  }
  return Status::ok();
}

}  // namespace nnfab::compiler::lowering
