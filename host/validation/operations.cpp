// Per-operation validation of one subgraph, in NNAPI's order
// (validateOperations): index ranges, the operation type's own rules, then
// the lifetimes of the operands it writes.
#include <fmt/format.h>

#include "validation/validate_internal.h"

namespace nnfab::validation {
namespace {

Status checkIndexRanges(const Model& model, size_t subgraphIndex, size_t operationIndex) {
  const Subgraph& subgraph = model.subgraph(subgraphIndex);
  const Operation& operation = subgraph.operations[operationIndex];
  const size_t count = subgraph.operands.size();
  auto where = [&] {
    return subgraphLabel(subgraphIndex) + ", " + operationLabel(operationIndex, operation.type);
  };
  for (size_t i = 0; i < operation.inputs.size(); ++i) {
    if (operation.inputs[i] >= count) {
      return invalidArgument(
          fmt::format("{}, input {}: operand index {} out of range ({} operands)", where(), i,
                      operation.inputs[i], count));
    }
  }
  for (size_t i = 0; i < operation.outputs.size(); ++i) {
    if (operation.outputs[i] >= count) {
      return invalidArgument(
          fmt::format("{}, output {}: operand index {} out of range ({} operands)", where(), i,
                      operation.outputs[i], count));
    }
  }
  const auto raw = static_cast<int32_t>(operation.type);
  if (raw < 0 || raw >= kNumberOfOperationTypes) {
    return invalidArgument(fmt::format("{}: operation type {} out of range [0, {})", where(), raw,
                                       kNumberOfOperationTypes));
  }
  return Status::ok();
}

// Operation outputs must be written at run time (validateOperations keeps
// this alongside the graph check for the clearer message).
Status checkOutputLifetimes(const OperationView& op) {
  for (size_t i = 0; i < op.outputCount(); ++i) {
    const OperandLifeTime lifetime = op.output(i).lifetime;
    if (lifetime != OperandLifeTime::TEMPORARY_VARIABLE &&
        lifetime != OperandLifeTime::SUBGRAPH_OUTPUT) {
      return op.outputError(
          i, fmt::format("cannot write an operand with lifetime {} (must be TEMPORARY_VARIABLE "
                         "or SUBGRAPH_OUTPUT)",
                         toString(lifetime)));
    }
  }
  return Status::ok();
}

Status validateOperation(const OperationView& op) {
  switch (op.operation().type) {
    case OperationType::IF:
      return validateIf(op);
    case OperationType::WHILE:
      return validateWhile(op);
    default:
      return validateOperationSignature(op);
  }
}

}  // namespace

Status validateOperations(const Model& model, size_t subgraphIndex, ValidationMode mode) {
  const Subgraph& subgraph = model.subgraph(subgraphIndex);
  for (size_t i = 0; i < subgraph.operations.size(); ++i) {
    if (Status s = checkIndexRanges(model, subgraphIndex, i); !s) return s;
    const OperationView op(model, subgraphIndex, i, mode);
    if (Status s = validateOperation(op); !s) return s;
    if (Status s = checkOutputLifetimes(op); !s) return s;
  }
  return Status::ok();
}

}  // namespace nnfab::validation
