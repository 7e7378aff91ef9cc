#include "runtime/step_model.h"

#include <limits>
#include <vector>

namespace nnfab::runtime {
namespace {

constexpr uint32_t kUnmapped = std::numeric_limits<uint32_t>::max();

// Referenced subgraphs reachable from `roots` (Model::subgraph() indexes),
// renumbered densely in discovery order: newIndex[s] is the new
// referenced[] position of old subgraph s. Iterative: nesting costs no stack.
std::vector<uint32_t> collectReferenced(const Model& model, std::vector<uint32_t> pending,
                                        std::vector<uint32_t>* order) {
  std::vector<uint32_t> newIndex(model.subgraphCount(), kUnmapped);
  std::vector<uint32_t> queue;
  for (uint32_t s : pending) {
    if (newIndex[s] != kUnmapped) continue;
    newIndex[s] = static_cast<uint32_t>(order->size());
    order->push_back(s);
    queue.push_back(s);
  }
  while (!queue.empty()) {
    const uint32_t s = queue.back();
    queue.pop_back();
    // Every SUBGRAPH operand counts, as the validator walks them.
    for (const Operand& operand : model.subgraph(s).operands) {
      if (operand.lifetime != OperandLifeTime::SUBGRAPH) continue;
      const uint32_t target = operand.subgraph + 1;
      if (newIndex[target] != kUnmapped) continue;
      newIndex[target] = static_cast<uint32_t>(order->size());
      order->push_back(target);
      queue.push_back(target);
    }
  }
  return newIndex;
}

void renumberReferences(Subgraph& sg, const std::vector<uint32_t>& newIndex) {
  for (Operand& operand : sg.operands) {
    if (operand.lifetime == OperandLifeTime::SUBGRAPH) operand.subgraph = newIndex[operand.subgraph + 1];
  }
}

}  // namespace

Model extractStepModel(const Model& model, const Step& step) {
  const Subgraph& source = model.subgraph(step.subgraph);
  Model out;
  out.relaxComputationFloat32toFloat16 = model.relaxComputationFloat32toFloat16;

  // The operands the step's operations touch, in first-touch order.
  std::vector<uint32_t> remap(source.operands.size(), kUnmapped);
  auto use = [&](uint32_t k) {
    if (remap[k] == kUnmapped) {
      remap[k] = static_cast<uint32_t>(out.main.operands.size());
      Operand operand = source.operands[k];
      if (operand.lifetime == OperandLifeTime::SUBGRAPH_INPUT ||
          operand.lifetime == OperandLifeTime::SUBGRAPH_OUTPUT) {
        operand.lifetime = OperandLifeTime::TEMPORARY_VARIABLE;  // set below if it crosses
      }
      out.main.operands.push_back(std::move(operand));
    }
    return remap[k];
  };
  std::vector<uint32_t> roots;
  for (uint32_t i : step.operations) {
    const Operation& operation = source.operations[i];
    Operation copy;
    copy.type = operation.type;
    for (uint32_t k : operation.inputs) {
      copy.inputs.push_back(use(k));
      if (source.operands[k].lifetime == OperandLifeTime::SUBGRAPH) {
        roots.push_back(source.operands[k].subgraph + 1);
      }
    }
    for (uint32_t k : operation.outputs) copy.outputs.push_back(use(k));
    out.main.operations.push_back(std::move(copy));
  }
  for (uint32_t k : step.inputs) {
    const uint32_t mapped = use(k);
    out.main.operands[mapped].lifetime = OperandLifeTime::SUBGRAPH_INPUT;
    out.main.inputIndexes.push_back(mapped);
  }
  for (uint32_t k : step.outputs) {
    const uint32_t mapped = use(k);
    out.main.operands[mapped].lifetime = OperandLifeTime::SUBGRAPH_OUTPUT;
    out.main.outputIndexes.push_back(mapped);
  }

  std::vector<uint32_t> order;
  const std::vector<uint32_t> newIndex = collectReferenced(model, roots, &order);
  renumberReferences(out.main, newIndex);
  out.referenced.reserve(order.size());
  for (uint32_t s : order) {
    out.referenced.push_back(model.subgraph(s));
    renumberReferences(out.referenced.back(), newIndex);
  }
  return out;
}

}  // namespace nnfab::runtime
