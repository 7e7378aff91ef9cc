#include "differential/shrink.h"

#include <cstdint>
#include <deque>

namespace nnfab::differential {
namespace {

// Operations some required output depends on, walking backwards (operations
// are in execution order, so one pass suffices).
std::vector<bool> liveOperations(const Subgraph& sg, const std::vector<uint32_t>& required) {
  std::vector<bool> liveOperand(sg.operands.size(), false);
  for (uint32_t k : required) liveOperand[k] = true;
  std::vector<bool> live(sg.operations.size(), false);
  for (size_t i = sg.operations.size(); i-- > 0;) {
    const Operation& op = sg.operations[i];
    for (uint32_t k : op.outputs) live[i] = live[i] || liveOperand[k];
    if (!live[i]) continue;
    for (uint32_t k : op.inputs) liveOperand[k] = true;
  }
  return live;
}

// The subgraph with only the live operations and the operands they, the
// kept inputs and the outputs use, renumbered in first-use order.
Subgraph compact(const Subgraph& sg, const std::vector<bool>& liveOp, const std::vector<bool>& keepInput) {
  Subgraph out;
  std::vector<int64_t> map(sg.operands.size(), -1);
  auto use = [&](uint32_t k) {
    if (map[k] < 0) {
      map[k] = static_cast<int64_t>(out.operands.size());
      out.operands.push_back(sg.operands[k]);
    }
    return static_cast<uint32_t>(map[k]);
  };
  for (size_t i = 0; i < sg.inputIndexes.size(); ++i) {
    if (keepInput[i]) out.inputIndexes.push_back(use(sg.inputIndexes[i]));
  }
  for (size_t i = 0; i < sg.operations.size(); ++i) {
    if (!liveOp[i]) continue;
    Operation op = sg.operations[i];
    for (uint32_t& k : op.inputs) k = use(k);
    for (uint32_t& k : op.outputs) k = use(k);
    out.operations.push_back(std::move(op));
  }
  for (uint32_t k : sg.outputIndexes) out.outputIndexes.push_back(use(k));
  return out;
}

void referencesOf(const Subgraph& sg, std::deque<uint32_t>* queue) {
  for (const Operation& op : sg.operations) {
    for (uint32_t k : op.inputs) {
      if (sg.operands[k].lifetime == OperandLifeTime::SUBGRAPH) queue->push_back(sg.operands[k].subgraph);
    }
  }
}

}  // namespace

size_t operationCount(const Model& model) {
  size_t n = model.main.operations.size();
  for (const Subgraph& sg : model.referenced) n += sg.operations.size();
  return n;
}

Reduced keepOutputs(const Model& model, const std::vector<TensorValue>& inputs,
                    const std::vector<size_t>& keep) {
  Subgraph main = model.main;
  std::vector<uint32_t> outputs;
  for (size_t i : keep) outputs.push_back(main.outputIndexes[i]);
  for (uint32_t k : main.outputIndexes) main.operands[k].lifetime = OperandLifeTime::TEMPORARY_VARIABLE;
  for (uint32_t k : outputs) main.operands[k].lifetime = OperandLifeTime::SUBGRAPH_OUTPUT;
  main.outputIndexes = outputs;

  // Main inputs nothing reads any more go, with their values.
  const std::vector<bool> mainLive = liveOperations(main, outputs);
  std::vector<bool> read(main.operands.size(), false);
  for (size_t i = 0; i < main.operations.size(); ++i) {
    if (!mainLive[i]) continue;
    for (uint32_t k : main.operations[i].inputs) read[k] = true;
  }
  Reduced reduced;
  std::vector<bool> keepInput(main.inputIndexes.size());
  for (size_t i = 0; i < main.inputIndexes.size(); ++i) {
    keepInput[i] = read[main.inputIndexes[i]];
    if (keepInput[i] && i < inputs.size()) reduced.inputs.push_back(inputs[i]);
  }
  reduced.model.main = compact(main, mainLive, keepInput);
  reduced.model.relaxComputationFloat32toFloat16 = model.relaxComputationFloat32toFloat16;

  // Referenced subgraphs still reachable keep their whole interface.
  std::vector<int64_t> newIndex(model.referenced.size(), -1);
  std::vector<Subgraph> pruned(model.referenced.size());
  std::deque<uint32_t> queue;
  referencesOf(reduced.model.main, &queue);
  std::vector<bool> reachable(model.referenced.size(), false);
  while (!queue.empty()) {
    const uint32_t r = queue.front();
    queue.pop_front();
    if (r >= model.referenced.size() || reachable[r]) continue;
    reachable[r] = true;
    const Subgraph& sg = model.referenced[r];
    pruned[r] = compact(sg, liveOperations(sg, sg.outputIndexes),
                        std::vector<bool>(sg.inputIndexes.size(), true));
    referencesOf(pruned[r], &queue);
  }
  for (size_t r = 0; r < model.referenced.size(); ++r) {
    if (!reachable[r]) continue;
    newIndex[r] = static_cast<int64_t>(reduced.model.referenced.size());
    reduced.model.referenced.push_back(std::move(pruned[r]));
  }
  auto renumber = [&](Subgraph& sg) {
    for (Operand& operand : sg.operands) {
      if (operand.lifetime == OperandLifeTime::SUBGRAPH && operand.subgraph < newIndex.size() &&
          newIndex[operand.subgraph] >= 0) {
        operand.subgraph = static_cast<uint32_t>(newIndex[operand.subgraph]);
      }
    }
  };
  renumber(reduced.model.main);
  for (Subgraph& sg : reduced.model.referenced) renumber(sg);
  return reduced;
}

Reduced inputsToConstants(const Reduced& r, const std::vector<bool>& which) {
  Reduced out;
  out.model = r.model;
  Subgraph& main = out.model.main;
  std::vector<uint32_t> inputs;
  for (size_t i = 0; i < main.inputIndexes.size(); ++i) {
    const uint32_t k = main.inputIndexes[i];
    if (i < which.size() && which[i] && i < r.inputs.size() && !r.inputs[i].omitted) {
      Operand& operand = main.operands[k];
      operand.lifetime = OperandLifeTime::CONSTANT_COPY;
      operand.dimensions = r.inputs[i].dimensions;
      operand.value = r.inputs[i].data;
    } else {
      inputs.push_back(k);
      if (i < r.inputs.size()) out.inputs.push_back(r.inputs[i]);
    }
  }
  main.inputIndexes = inputs;
  return out;
}

Reduced shrink(const Model& model, const std::vector<TensorValue>& inputs,
               const std::function<bool(const Reduced&)>& stillFails) {
  std::vector<size_t> all(model.main.outputIndexes.size());
  for (size_t i = 0; i < all.size(); ++i) all[i] = i;
  Reduced best = keepOutputs(model, inputs, all);
  if (!stillFails(best)) return {model, inputs};
  for (size_t i = 0; i < all.size() && all.size() > 1; ++i) {
    Reduced candidate = keepOutputs(model, inputs, {i});
    if (operationCount(candidate.model) < operationCount(best.model) && stillFails(candidate)) {
      best = std::move(candidate);
    }
  }
  // Inputs become constants with their values: all at once, else one by one.
  const size_t n = best.model.main.inputIndexes.size();
  if (n > 0) {
    Reduced constants = inputsToConstants(best, std::vector<bool>(n, true));
    if (stillFails(constants)) return constants;
    for (size_t i = n; i-- > 0;) {
      std::vector<bool> one(best.model.main.inputIndexes.size(), false);
      one[i] = true;
      Reduced candidate = inputsToConstants(best, one);
      if (stillFails(candidate)) best = std::move(candidate);
    }
  }
  return best;
}

}  // namespace nnfab::differential
