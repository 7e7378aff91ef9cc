// validateModel: NNAPI's 1.3 order (§5.6). Main first, then every referenced
// subgraph (reachable or not), each as operands -> operations -> inputs ->
// outputs -> graph; reference cycles last, once every subgraph index is
// known to be in range. The first failure is returned.
#include "validation/validate.h"
#include "validation/validate_internal.h"

namespace nnfab {
namespace {

Status validateSubgraph(const Model& model, size_t index, ValidationMode mode) {
  using namespace validation;
  if (Status s = validateOperands(model, index); !s) return s;
  if (Status s = validateOperations(model, index, mode); !s) return s;
  if (Status s = validateSubgraphInputsOutputs(model, index); !s) return s;
  return validateGraphOrder(model, index);
}

}  // namespace

Status validateModel(const Model& model, ValidationMode mode) {
  if (model.main.operations.empty() || model.main.operands.empty()) {
    return invalidArgument(
        validation::subgraphLabel(0) +
        ": invalid empty model (main needs at least one operation and one operand)");
  }
  // A loop, not recursion: nesting depth is irrelevant here because each
  // subgraph's checks look only at the subgraphs it references directly.
  for (size_t i = 0; i < model.subgraphCount(); ++i) {
    if (Status s = validateSubgraph(model, i, mode); !s) return s;
  }
  return validation::checkNoReferenceCycles(model);
}

}  // namespace nnfab
