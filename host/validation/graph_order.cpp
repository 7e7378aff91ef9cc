// §5.4 (NNAPI's validateGraph): operations are listed in execution order,
// every operand has at most one writer, and every operand is known by the end.
// Operand and operation index ranges were checked before this runs.
#include <fmt/format.h>

#include <vector>

#include "validation/validate_internal.h"

namespace nnfab::validation {
namespace {

// Values available before any operation runs.
bool knownAtStart(OperandLifeTime lifetime) {
  switch (lifetime) {
    case OperandLifeTime::SUBGRAPH_INPUT:
    case OperandLifeTime::CONSTANT_COPY:
    case OperandLifeTime::CONSTANT_REFERENCE:
    case OperandLifeTime::NO_VALUE:
    case OperandLifeTime::SUBGRAPH:
      return true;
    default:
      return false;
  }
}

}  // namespace

Status validateGraphOrder(const Model& model, size_t subgraphIndex) {
  const Subgraph& subgraph = model.subgraph(subgraphIndex);
  std::vector<uint8_t> known(subgraph.operands.size(), 0);
  for (size_t k = 0; k < subgraph.operands.size(); ++k) {
    known[k] = knownAtStart(subgraph.operands[k].lifetime) ? 1 : 0;
  }
  // A cycle among operations also shows up here, as a read before its write.
  for (size_t i = 0; i < subgraph.operations.size(); ++i) {
    const Operation& operation = subgraph.operations[i];
    auto where = [&] {
      return subgraphLabel(subgraphIndex) + ", " + operationLabel(i, operation.type);
    };
    for (size_t j = 0; j < operation.inputs.size(); ++j) {
      const uint32_t k = operation.inputs[j];
      if (!known[k]) {
        return invalidArgument(fmt::format(
            "{}, input {} (operand {}): read before it is written (operations must be in "
            "execution order)",
            where(), j, k));
      }
    }
    for (size_t j = 0; j < operation.outputs.size(); ++j) {
      const uint32_t k = operation.outputs[j];
      if (known[k]) {
        return invalidArgument(
            fmt::format("{}, output {} (operand {}): already written", where(), j, k));
      }
      known[k] = 1;
    }
  }
  for (size_t k = 0; k < subgraph.operands.size(); ++k) {
    if (!known[k]) {
      return invalidArgument(fmt::format("{}, operand {}: never written ({})",
                                         subgraphLabel(subgraphIndex), k,
                                         toString(subgraph.operands[k].lifetime)));
    }
  }
  return Status::ok();
}

}  // namespace nnfab::validation
