#include "runtime/plan.h"

#include <fmt/format.h>

#include <algorithm>
#include <vector>

namespace nnfab::runtime {
namespace {

std::string subgraphName(uint32_t s) {
  return s == 0 ? std::string("subgraph 0 (main)") : fmt::format("subgraph {} (referenced[{}])", s, s - 1);
}

std::string operandList(const std::vector<uint32_t>& operands) {
  return operands.empty() ? std::string("none") : fmt::format("{}", fmt::join(operands, " "));
}

class PlanPrinter {
 public:
  PlanPrinter(const Model& model, const Plan& plan, std::string_view fabricName)
      : model_(model), plan_(plan), fabricName_(fabricName), printed_(model.subgraphCount(), 0) {}

  std::string print() {
    count(0);
    out_ += fmt::format("plan on {}: {} fabric step(s), {} CPU step(s), {} interpreted IF/WHILE\n",
                        fabricName_, fabric_, cpu_, interpreted_);
    std::fill(printed_.begin(), printed_.end(), 0);
    out_ += subgraphName(0) + ":\n";
    printSubgraph(0, 1);
    return std::move(out_);
  }

 private:
  void count(uint32_t s) {
    // Each subgraph plan is counted once, as it is printed once.
    if (printed_[s]) return;
    printed_[s] = 1;
    for (const Step& step : plan_.subgraphs[s].steps) {
      switch (step.kind) {
        case StepKind::FABRIC: ++fabric_; break;
        case StepKind::CPU: ++cpu_; break;
        case StepKind::IF:
        case StepKind::WHILE:
          ++interpreted_;
          count(step.children[0]);
          count(step.children[1]);
          break;
      }
    }
  }

  // Recursion follows the partitioner's, which stops at kMaxInterpretedDepth.
  void printSubgraph(uint32_t s, int indent) {
    printed_[s] = 1;
    const Subgraph& sg = model_.subgraph(s);
    const std::string pad(static_cast<size_t>(indent) * 2, ' ');
    const auto& steps = plan_.subgraphs[s].steps;
    for (size_t t = 0; t < steps.size(); ++t) {
      const Step& step = steps[t];
      std::vector<std::string> ops;
      for (uint32_t i : step.operations) {
        ops.push_back(fmt::format("{} {}", i, toString(sg.operations[i].type)));
      }
      std::string where;
      switch (step.kind) {
        case StepKind::FABRIC: where = std::string(fabricName_); break;
        case StepKind::CPU: where = "cpu"; break;
        case StepKind::IF:
        case StepKind::WHILE: where = "host-interpreted"; break;
      }
      out_ += fmt::format("{}step {}: {} operations [{}] inputs [{}] outputs [{}]\n", pad, t, where,
                          fmt::join(ops, ", "), operandList(step.inputs), operandList(step.outputs));
      for (size_t j = 0; j < step.operations.size(); ++j) {
        if (step.reasons[j].empty()) continue;
        const uint32_t i = step.operations[j];
        out_ += fmt::format("{}  operation {} ({}) not on {}: {}\n", pad, i,
                            toString(sg.operations[i].type), fabricName_, step.reasons[j]);
      }
      if (step.kind != StepKind::IF && step.kind != StepKind::WHILE) continue;
      const char* labels[2] = {"then", "else"};
      if (step.kind == StepKind::WHILE) labels[0] = "cond", labels[1] = "body";
      for (int c = 0; c < 2; ++c) {
        const uint32_t child = step.children[c];
        if (printed_[child]) {
          out_ += fmt::format("{}  {}: {}: plan shown above\n", pad, labels[c], subgraphName(child));
          continue;
        }
        out_ += fmt::format("{}  {}: {}:\n", pad, labels[c], subgraphName(child));
        printSubgraph(child, indent + 2);
      }
    }
  }

  const Model& model_;
  const Plan& plan_;
  std::string_view fabricName_;
  std::vector<uint8_t> printed_;
  std::string out_;
  size_t fabric_ = 0, cpu_ = 0, interpreted_ = 0;
};

}  // namespace

std::string_view toString(StepKind kind) {
  switch (kind) {
    case StepKind::FABRIC: return "FABRIC";
    case StepKind::CPU: return "CPU";
    case StepKind::IF: return "IF";
    case StepKind::WHILE: return "WHILE";
  }
  return "?";
}

std::string formatPlan(const Model& model, const Plan& plan, std::string_view fabricName) {
  if (plan.subgraphs.empty()) return "empty plan\n";
  return PlanPrinter(model, plan, fabricName).print();
}

}  // namespace nnfab::runtime
