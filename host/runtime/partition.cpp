#include "runtime/partition.h"

#include <fmt/format.h>

#include <algorithm>
#include <limits>
#include <optional>
#include <utility>
#include <vector>

#include "cpu/scalar_loop.h"

namespace nnfab::runtime {
namespace {

bool isControlFlow(OperationType type) {
  return type == OperationType::IF || type == OperationType::WHILE;
}

// The subgraphs an IF ({then, else}) or WHILE ({cond, body}) references, as
// Model::subgraph() indexes them.
std::vector<uint32_t> childSubgraphs(const Subgraph& sg, const Operation& operation) {
  const size_t first = operation.type == OperationType::IF ? 1 : 0;
  std::vector<uint32_t> children;
  for (size_t j = first; j < first + 2 && j < operation.inputs.size(); ++j) {
    const Operand& operand = sg.operands[operation.inputs[j]];
    if (operand.lifetime == OperandLifeTime::SUBGRAPH) children.push_back(operand.subgraph + 1);
  }
  return children;
}

bool knownSize(const Operand& operand) {
  if (operand.lifetime == OperandLifeTime::SUBGRAPH || isScalarType(operand.type)) return true;
  return isFullySpecified(operand);
}

// Values read from the frame rather than built into a step.
bool isStepBoundaryValue(const Operand& operand) {
  switch (operand.lifetime) {
    case OperandLifeTime::CONSTANT_COPY:
    case OperandLifeTime::CONSTANT_REFERENCE:
    case OperandLifeTime::NO_VALUE:
    case OperandLifeTime::SUBGRAPH:
      return false;
    default:
      return true;
  }
}

// Where one operation goes, before runs are merged into steps.
struct Placement {
  StepKind kind = StepKind::CPU;
  std::string reason;  // empty: on the fabric
  ReasonCode code = ReasonCode::NONE;
  uint32_t children[2] = {0, 0};
};

class Partitioner {
 public:
  Partitioner(const Model& model, const FabricTarget& fabric, bool observed)
      : model_(model), fabric_(fabric), observed_(observed), plans_(model.subgraphCount()) {}

  Plan run() {
    planSubgraph(0, 0);
    dropUnreachablePlans();
    Plan plan;
    plan.subgraphs = std::move(plans_);
    return plan;
  }

 private:
  // Recursion is bounded by kMaxInterpretedDepth: deeper IF/WHILE are not
  // interpreted, and a subgraph is planned once (its first visit).
  void planSubgraph(uint32_t s, uint32_t depth) {
    if (plans_[s].planned) return;
    plans_[s].planned = true;  // a reference cycle is impossible in a valid model
    const Subgraph& sg = model_.subgraph(s);
    std::vector<Placement> placements(sg.operations.size());
    uint32_t height = 0;
    bool usesFabric = false;
    for (uint32_t i = 0; i < sg.operations.size(); ++i) {
      placements[i] = place(s, i, depth);
      const Placement& p = placements[i];
      if (p.kind == StepKind::FABRIC) usesFabric = true;
      if (p.kind == StepKind::IF || p.kind == StepKind::WHILE) {
        usesFabric = true;  // interpreted only when a child uses the fabric
        for (uint32_t child : p.children) {
          height = std::max(height, plans_[child].height + 1);
        }
      }
    }
    SubgraphPlan& plan = plans_[s];
    plan.steps = makeSteps(s, placements);
    plan.height = height;
    plan.usesFabric = usesFabric;
  }

  Placement place(uint32_t s, uint32_t i, uint32_t depth) {
    const Subgraph& sg = model_.subgraph(s);
    const Operation& operation = sg.operations[i];
    Placement p;
    std::string why;
    const bool supported = fabric_.supports(model_, s, i, &why);
    if (!isControlFlow(operation.type)) {
      if (supported) {
        p.kind = StepKind::FABRIC;
      } else {
        p.reason = why.empty() ? "not supported by " + fabric_.name : why;
        p.code = takesTypes(sg, operation, fabric_.features.float32) ? ReasonCode::UNSUPPORTED_OPERATION
                                                                    : ReasonCode::UNSUPPORTED_TYPE;
      }
      return p;
    }
    const char* name = operation.type == OperationType::IF ? "IF" : "WHILE";
    if (hasOperandOfUnknownSize(model_, s, i)) {
      p.reason = fmt::format(
          "an operand of this {} or of its subgraphs' inputs/outputs has an unknown size: it "
          "runs whole on the CPU (docs/nnapi-semantics.md §6.3, rule 1)",
          name);
      p.code = ReasonCode::UNKNOWN_SHAPE;
      return p;
    }
    ReasonCode code = ReasonCode::PART_UNSUPPORTED;
    if (supported && !observed_) {
      // §6.2's rule, with the alternative this device really has: the host
      // interpreter (control flow at the CPU's 1.0) whose inner operations,
      // all supported, land on the fabric too. So only the control-flow
      // overhead decides; see docs/runtime.md "Capabilities".
      DeviceCapabilities host = fabric_.capabilities;
      host.ifPerformance = host.whilePerformance = PerformanceInfo{};
      const double onFabric = controlFlowCost(model_, s, i, fabric_.capabilities);
      const double interpreted = controlFlowCost(model_, s, i, host);
      if (onFabric < interpreted) {
        p.kind = StepKind::FABRIC;
        return p;
      }
      why = fmt::format("the host interpreter is as cheap by the cost rule ({:.3g} on {} vs {:.3g} "
                        "interpreted)",
                        onFabric, fabric_.name, interpreted);
      code = ReasonCode::NOT_CHEAPER;
    } else if (why.empty()) {
      why = "not supported by " + fabric_.name;
    }
    if (observed_) {
      why = fmt::format("observed: the host interprets this {} so that every operation inside is observed", name);
      code = ReasonCode::OBSERVED;
    }
    // Interpreted by the host: its subgraphs are partitioned in turn.
    if (depth + 1 > kMaxInterpretedDepth) {
      p.reason = fmt::format("{}; nested deeper than {} host-interpreted levels, so it runs whole "
                             "on the CPU",
                             why, kMaxInterpretedDepth);
      p.code = ReasonCode::NESTING_DEPTH;
      return p;
    }
    const std::vector<uint32_t> children = childSubgraphs(sg, operation);
    bool childUsesFabric = false;
    for (size_t c = 0; c < children.size() && c < 2; ++c) {
      planSubgraph(children[c], depth + 1);
      p.children[c] = children[c];
      childUsesFabric |= plans_[children[c]].usesFabric;
    }
    if (!childUsesFabric && !observed_) {
      p.reason = why + "; no part of its subgraphs runs on " + fabric_.name +
                 ", so it runs whole on the CPU";
      p.code = ReasonCode::NOTHING_FOR_FABRIC;
      p.children[0] = p.children[1] = 0;
      return p;
    }
    if (fabric_.handoffs && !observed_) {
      // Per pass through its subgraphs (both sides pay the same control
      // flow, which cancels): the interpreter's steps against the CPU
      // running every operation inside.
      const double interpretedNs = passNs(operation, p.children, /*interpreted=*/true);
      const double cpuNs = runsAsRegisterCode(sg, operation) ? scalarPassNs(p.children)
                                                             : passNs(operation, p.children, /*interpreted=*/false);
      if (!(interpretedNs < cpuNs)) {
        p.reason = fmt::format(
            "{}; interpreted, each pass through its subgraphs would cost about {:.0f} ns with its "
            "{} hand-offs against {:.0f} ns whole on the CPU, so it runs whole on the CPU "
            "(docs/runtime.md \"Hand-off cost\")",
            why, interpretedNs, fabric_.name, cpuNs);
        p.code = ReasonCode::NOT_WORTH_HANDOFFS;
        p.children[0] = p.children[1] = 0;
        return p;
      }
    }
    p.kind = operation.type == OperationType::IF ? StepKind::IF : StepKind::WHILE;
    p.reason = why;
    p.code = code;
    return p;
  }

  // A subgraph planned for an IF/WHILE that then ran whole on the CPU (its
  // hand-offs not worth it) is not part of the plan: nothing would run it,
  // and the executor would compile its steps for nothing.
  void dropUnreachablePlans() {
    std::vector<uint8_t> reached(plans_.size(), 0);
    std::vector<uint32_t> pending = {0};
    reached[0] = 1;
    while (!pending.empty()) {
      const uint32_t s = pending.back();
      pending.pop_back();
      for (const Step& step : plans_[s].steps) {
        if (step.kind != StepKind::IF && step.kind != StepKind::WHILE) continue;
        for (uint32_t child : step.children) {
          if (reached[child]) continue;
          reached[child] = 1;
          pending.push_back(child);
        }
      }
    }
    for (size_t s = 0; s < plans_.size(); ++s) {
      if (!reached[s]) plans_[s] = SubgraphPlan{};
    }
  }

  // Merges placements into steps (maximal FABRIC and CPU runs; one step per
  // interpreted IF/WHILE) and works out the operands crossing each step.
  std::vector<Step> makeSteps(uint32_t s, const std::vector<Placement>& placements) const {
    const Subgraph& sg = model_.subgraph(s);
    std::vector<Step> steps;
    std::vector<uint32_t> stepOf(sg.operations.size());
    for (uint32_t i = 0; i < sg.operations.size(); ++i) {
      const Placement& p = placements[i];
      // An observed plan keeps every operation a step of its own.
      const bool mergeable = !observed_ && (p.kind == StepKind::FABRIC || p.kind == StepKind::CPU);
      if (steps.empty() || !mergeable || steps.back().kind != p.kind) {
        Step step;
        step.kind = p.kind;
        step.subgraph = s;
        step.children[0] = p.children[0];
        step.children[1] = p.children[1];
        steps.push_back(std::move(step));
      }
      steps.back().operations.push_back(i);
      steps.back().reasons.push_back(p.reason);
      steps.back().codes.push_back(p.code);
      stepOf[i] = static_cast<uint32_t>(steps.size() - 1);
    }

    constexpr uint32_t kNone = std::numeric_limits<uint32_t>::max();
    std::vector<uint32_t> producerStep(sg.operands.size(), kNone);
    std::vector<uint32_t> lastReaderStep(sg.operands.size(), kNone);
    for (uint32_t i = 0; i < sg.operations.size(); ++i) {
      for (uint32_t k : sg.operations[i].outputs) producerStep[k] = stepOf[i];
      for (uint32_t k : sg.operations[i].inputs) {
        lastReaderStep[k] = lastReaderStep[k] == kNone ? stepOf[i]
                                                       : std::max(lastReaderStep[k], stepOf[i]);
      }
    }
    for (uint32_t t = 0; t < steps.size(); ++t) {
      Step& step = steps[t];
      std::vector<uint8_t> seen(sg.operands.size(), 0);
      for (uint32_t i : step.operations) {
        for (uint32_t k : sg.operations[i].inputs) {
          if (seen[k] || producerStep[k] == t || !isStepBoundaryValue(sg.operands[k])) continue;
          seen[k] = 1;
          step.inputs.push_back(k);
        }
      }
      for (uint32_t i : step.operations) {
        for (uint32_t k : sg.operations[i].outputs) {
          const bool readLater = lastReaderStep[k] != kNone && lastReaderStep[k] > t;
          if (readLater || sg.operands[k].lifetime == OperandLifeTime::SUBGRAPH_OUTPUT) {
            step.outputs.push_back(k);
          }
        }
      }
    }
    return steps;
  }

  // Whether every operand the operation reads or writes has a type the
  // fabric takes (else an unsupported operation is an unsupported type).
  static bool takesTypes(const Subgraph& sg, const Operation& op, bool float32) {
    auto takes = [&](uint32_t k) {
      const Operand& o = sg.operands[k];
      if (o.lifetime == OperandLifeTime::SUBGRAPH || o.lifetime == OperandLifeTime::NO_VALUE) return true;
      if (float32 && o.type == OperandType::TENSOR_FLOAT32) return true;
      switch (o.type) {
        case OperandType::TENSOR_INT32:
        case OperandType::TENSOR_BOOL8:
        case OperandType::INT32:
        case OperandType::BOOL:
        case OperandType::UINT32:
          return true;
        default:
          return false;
      }
    };
    for (uint32_t k : op.inputs) {
      if (!takes(k)) return false;
    }
    for (uint32_t k : op.outputs) {
      if (!takes(k)) return false;
    }
    return true;
  }

  // Whether the CPU executor would run this WHILE whole as register code.
  bool runsAsRegisterCode(const Subgraph& parent, const Operation& op) const {
    return op.type == OperationType::WHILE && cpu::compileScalarLoop(model_, parent, op).has_value();
  }

  // One pass through a register-code WHILE's cond and body on the CPU: one
  // instruction per operation (no nested IF/WHILE, one element each).
  double scalarPassNs(const uint32_t (&children)[2]) const {
    double operations = 0;
    for (uint32_t child : children) operations += static_cast<double>(model_.subgraph(child).operations.size());
    return operations * fabric_.handoffs->cpuScalarOperationNs;
  }

  // The CPU executor's time for one operation that is no IF/WHILE.
  double cpuOperationNs(const Subgraph& sg, const Operation& op) const {
    double elements = 1;
    if (!op.outputs.empty()) {
      const Operand& out = sg.operands[op.outputs[0]];
      if (isFullySpecified(out)) {
        for (uint32_t d : out.dimensions) elements *= d;
      }
    }
    return fabric_.handoffs->cpuOperationNs + elements * fabric_.handoffs->cpuNsPerElement;
  }

  // One operation run by the CPU executor: an IF/WHILE with everything in
  // it once (a loop's passes are unknown: each level counts one pass).
  // Iterative, so nesting costs heap, not stack; a subgraph referenced
  // twice counts twice, as the CPU runs it twice.
  double cpuNs(uint32_t s, const Operation& op) const {
    const Subgraph& sg = model_.subgraph(s);
    if (!isControlFlow(op.type)) return cpuOperationNs(sg, op);
    if (runsAsRegisterCode(sg, op)) {
      const std::vector<uint32_t> children = childSubgraphs(sg, op);
      if (children.size() == 2) return scalarPassNs({children[0], children[1]});
    }
    std::vector<std::pair<uint32_t, double>> stack;  // subgraph, weight
    const double share = op.type == OperationType::IF ? 0.5 : 1.0;
    for (uint32_t child : childSubgraphs(sg, op)) stack.push_back({child, share});
    double sum = 0;
    size_t visits = 0;
    while (!stack.empty() && ++visits <= kMaxCostVisits) {  // a huge fan-out: enough to decide
      const auto [c, weight] = stack.back();
      stack.pop_back();
      const Subgraph& child = model_.subgraph(c);
      for (const Operation& inner : child.operations) {
        if (!isControlFlow(inner.type)) {
          sum += weight * cpuOperationNs(child, inner);
          continue;
        }
        if (runsAsRegisterCode(child, inner)) {
          const std::vector<uint32_t> g = childSubgraphs(child, inner);
          if (g.size() == 2) {
            sum += weight * scalarPassNs({g[0], g[1]});
            continue;
          }
        }
        const double innerShare = inner.type == OperationType::IF ? 0.5 : 1.0;
        for (uint32_t g : childSubgraphs(child, inner)) stack.push_back({g, weight * innerShare});
      }
    }
    return sum;
  }

  // One pass through an IF's branches (half each) or a WHILE's cond and
  // body, as the host interpreter runs their plans or as the CPU runs them.
  double passNs(const Operation& op, const uint32_t (&children)[2], bool interpreted) {
    const double share = op.type == OperationType::IF ? 0.5 : 1.0;
    double sum = 0;
    for (uint32_t child : children) sum += share * (interpreted ? planNs(child) : subgraphCpuNs(child));
    return sum;
  }

  double subgraphCpuNs(uint32_t s) const {
    const Subgraph& sg = model_.subgraph(s);
    double sum = 0;
    for (const Operation& op : sg.operations) sum += cpuNs(s, op);
    return sum;
  }

  // A planned subgraph's steps: hand-offs and operations. Memoised: a
  // plan is final once planned, and nested branches would otherwise be
  // costed once per path.
  double planNs(uint32_t s) {
    if (planNs_.empty()) planNs_.resize(plans_.size());
    if (planNs_[s]) return *planNs_[s];
    const HandoffCosts& h = *fabric_.handoffs;
    const Subgraph& sg = model_.subgraph(s);
    double sum = 0;
    for (const Step& step : plans_[s].steps) {
      switch (step.kind) {
        case StepKind::FABRIC:
          sum += h.fabricStepNs;
          for (uint32_t i : step.operations) {
            sum += cpuOperationNs(sg, sg.operations[i]) * fabric_.capabilities.tensorPerformance.execTime;
          }
          break;
        case StepKind::CPU:
          sum += h.cpuStepNs;
          for (uint32_t i : step.operations) sum += cpuNs(s, sg.operations[i]);
          break;
        case StepKind::IF:
        case StepKind::WHILE: {
          const Operation& op = sg.operations[step.operations[0]];
          sum += passNs(op, step.children, true);
          break;
        }
      }
    }
    planNs_[s] = sum;
    return sum;
  }

  static constexpr size_t kMaxCostVisits = 1u << 16;

  const Model& model_;
  const FabricTarget& fabric_;
  const bool observed_;  // partitionObserved: one step per operation, IF/WHILE interpreted
  std::vector<SubgraphPlan> plans_;
  std::vector<std::optional<double>> planNs_;
};

}  // namespace

bool hasOperandOfUnknownSize(const Model& model, uint32_t subgraph, uint32_t operation) {
  const Subgraph& sg = model.subgraph(subgraph);
  const Operation& op = sg.operations[operation];
  for (uint32_t k : op.inputs) {
    if (!knownSize(sg.operands[k])) return true;
  }
  for (uint32_t k : op.outputs) {
    if (!knownSize(sg.operands[k])) return true;
  }
  for (uint32_t child : childSubgraphs(sg, op)) {
    if (child >= model.subgraphCount()) return true;
    const Subgraph& c = model.subgraph(child);
    for (uint32_t k : c.inputIndexes) {
      if (!knownSize(c.operands[k])) return true;
    }
    for (uint32_t k : c.outputIndexes) {
      if (!knownSize(c.operands[k])) return true;
    }
  }
  return false;
}

double controlFlowCost(const Model& model, uint32_t subgraph, uint32_t operation,
                       const DeviceCapabilities& caps) {
  // cost(subgraph) sums its operations; IF = ifPerformance + 0.5 (then +
  // else), WHILE = whilePerformance + cond + body. Post-order over the
  // subgraphs below, each computed once, with an explicit stack.
  std::vector<std::optional<double>> cost(model.subgraphCount());
  auto costOf = [&](const Subgraph& sg, const Operation& op) -> std::optional<double> {
    if (!isControlFlow(op.type)) return caps.tensorPerformance.execTime;
    const std::vector<uint32_t> children = childSubgraphs(sg, op);
    double sum = 0.0;
    for (uint32_t child : children) {
      if (!cost[child]) return std::nullopt;
      sum += *cost[child];
    }
    return op.type == OperationType::IF ? caps.ifPerformance.execTime + 0.5 * sum
                                        : caps.whilePerformance.execTime + sum;
  };
  struct Pending {
    uint32_t subgraph;
    bool expanded;
  };
  std::vector<Pending> stack;
  const Subgraph& outer = model.subgraph(subgraph);
  for (uint32_t child : childSubgraphs(outer, outer.operations[operation])) {
    stack.push_back({child, false});
  }
  while (!stack.empty()) {
    Pending& top = stack.back();
    if (cost[top.subgraph]) {
      stack.pop_back();
      continue;
    }
    const Subgraph& sg = model.subgraph(top.subgraph);
    if (!top.expanded) {
      top.expanded = true;  // before push_back, which invalidates `top`
      for (const Operation& op : sg.operations) {
        if (!isControlFlow(op.type)) continue;
        for (uint32_t child : childSubgraphs(sg, op)) {
          if (!cost[child]) stack.push_back({child, false});
        }
      }
      continue;
    }
    double sum = 0.0;
    for (const Operation& op : sg.operations) sum += costOf(sg, op).value_or(0.0);
    cost[top.subgraph] = sum;
    stack.pop_back();
  }
  return costOf(outer, outer.operations[operation]).value_or(std::numeric_limits<double>::infinity());
}

Plan partition(const Model& model, const FabricTarget& fabric) {
  return Partitioner(model, fabric, /*observed=*/false).run();
}

Plan partitionObserved(const Model& model, const FabricTarget& fabric) {
  return Partitioner(model, fabric, /*observed=*/true).run();
}

}  // namespace nnfab::runtime
