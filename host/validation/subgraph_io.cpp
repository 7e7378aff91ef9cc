// §5.3: a subgraph's inputIndexes and outputIndexes (NNAPI's
// validateModelInputOutputs), the same rules for main and referenced
// subgraphs. Linear: one mark per operand instead of NNAPI's sort.
#include <fmt/format.h>

#include <vector>

#include "validation/validate_internal.h"

namespace nnfab::validation {
namespace {

Status checkList(size_t subgraphIndex, const Subgraph& subgraph, const std::vector<uint32_t>& list,
                 const char* listName, OperandLifeTime lifetime) {
  const size_t count = subgraph.operands.size();
  std::vector<uint8_t> listed(count, 0);
  for (size_t i = 0; i < list.size(); ++i) {
    const uint32_t k = list[i];
    if (k >= count) {
      return invalidArgument(fmt::format("{}, {}[{}]: operand index {} out of range ({} operands)",
                                         subgraphLabel(subgraphIndex), listName, i, k, count));
    }
    const Operand& operand = subgraph.operands[k];
    if (operand.lifetime != lifetime) {
      return invalidArgument(fmt::format("{}, {}[{}] (operand {}): lifetime {}, expected {}",
                                         subgraphLabel(subgraphIndex), listName, i, k,
                                         toString(operand.lifetime), toString(lifetime)));
    }
    if (listed[k]) {
      return invalidArgument(fmt::format("{}, {}[{}] (operand {}): listed more than once",
                                         subgraphLabel(subgraphIndex), listName, i, k));
    }
    listed[k] = 1;
  }
  // Every operand with this lifetime must be in the list.
  for (size_t k = 0; k < count; ++k) {
    if (subgraph.operands[k].lifetime == lifetime && !listed[k]) {
      return invalidArgument(fmt::format("{}, operand {}: lifetime {} but not listed in {}",
                                         subgraphLabel(subgraphIndex), k, toString(lifetime),
                                         listName));
    }
  }
  return Status::ok();
}

}  // namespace

Status validateSubgraphInputsOutputs(const Model& model, size_t subgraphIndex) {
  const Subgraph& subgraph = model.subgraph(subgraphIndex);
  if (Status s = checkList(subgraphIndex, subgraph, subgraph.inputIndexes, "inputIndexes",
                           OperandLifeTime::SUBGRAPH_INPUT);
      !s) {
    return s;
  }
  return checkList(subgraphIndex, subgraph, subgraph.outputIndexes, "outputIndexes",
                   OperandLifeTime::SUBGRAPH_OUTPUT);
}

}  // namespace nnfab::validation
