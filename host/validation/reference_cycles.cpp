// §5.5: no subgraph reachable from main may reference itself, directly or
// through others. NNAPI walks every path from main, which is exponential on
// a DAG with shared subgraphs and recursive per nesting level; this is the
// classic three-colour depth-first search with an explicit stack instead:
// each subgraph is expanded once (a finished one cannot lead back onto the
// current path), so the walk is linear in the number of operands and a chain
// of 100,000 nested subgraphs costs heap, not C stack.
#include <fmt/format.h>

#include <vector>

#include "validation/validate_internal.h"

namespace nnfab::validation {

Status checkNoReferenceCycles(const Model& model) {
  enum : uint8_t { kUnvisited, kOnPath, kDone };
  std::vector<uint8_t> state(model.subgraphCount(), kUnvisited);
  struct Frame {
    size_t subgraph;
    size_t nextOperand;
  };
  std::vector<Frame> path{{0, 0}};
  state[0] = kOnPath;
  while (!path.empty()) {
    const size_t current = path.back().subgraph;
    const Subgraph& subgraph = model.subgraph(current);
    bool descended = false;
    // Every operand of lifetime SUBGRAPH counts, used by an operation or not.
    while (path.back().nextOperand < subgraph.operands.size()) {
      const size_t k = path.back().nextOperand++;
      const Operand& operand = subgraph.operands[k];
      if (operand.lifetime != OperandLifeTime::SUBGRAPH) continue;
      if (operand.subgraph >= model.referenced.size()) {
        // validateOperands rejects this first; kept so the walk stays safe alone.
        return invalidArgument(fmt::format("{}, operand {}: subgraph index {} out of range",
                                           subgraphLabel(current), k, operand.subgraph));
      }
      const size_t target = size_t{operand.subgraph} + 1;
      if (state[target] == kOnPath) {
        return invalidArgument(fmt::format("{}, operand {}: circular subgraph reference to {}",
                                           subgraphLabel(current), k, subgraphLabel(target)));
      }
      if (state[target] == kUnvisited) {
        state[target] = kOnPath;
        path.push_back({target, 0});
        descended = true;
        break;
      }
    }
    if (!descended) {
      state[current] = kDone;
      path.pop_back();
    }
  }
  return Status::ok();
}

}  // namespace nnfab::validation
