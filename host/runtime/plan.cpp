#include "runtime/plan.h"

#include <fmt/format.h>

#include <nlohmann/json.hpp>

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

std::string_view toString(ReasonCode code) {
  switch (code) {
    case ReasonCode::NONE: return "";
    case ReasonCode::UNSUPPORTED_OPERATION: return "unsupported_operation";
    case ReasonCode::UNSUPPORTED_TYPE: return "unsupported_type";
    case ReasonCode::UNKNOWN_SHAPE: return "unknown_shape";
    case ReasonCode::PART_UNSUPPORTED: return "part_unsupported";
    case ReasonCode::NOT_CHEAPER: return "not_cheaper";
    case ReasonCode::NESTING_DEPTH: return "nesting_depth";
    case ReasonCode::NOTHING_FOR_FABRIC: return "nothing_for_fabric";
    case ReasonCode::NOT_WORTH_HANDOFFS: return "not_worth_handoffs";
    case ReasonCode::NO_FABRIC: return "no_fabric";
    case ReasonCode::OBSERVED: return "observed";
  }
  return "unknown";
}

std::string formatPlan(const Model& model, const Plan& plan, std::string_view fabricName) {
  if (plan.subgraphs.empty()) return "empty plan\n";
  return PlanPrinter(model, plan, fabricName).print();
}

}  // namespace nnfab::runtime

namespace nnfab::runtime {
namespace {

std::string_view jsonKind(StepKind kind) {
  switch (kind) {
    case StepKind::FABRIC: return "fabric";
    case StepKind::CPU: return "cpu";
    case StepKind::IF: return "if";
    case StepKind::WHILE: return "while";
  }
  return "?";
}

}  // namespace

std::string formatPlanJson(const Model& model, const Plan& plan, std::string_view fabricName) {
  using nlohmann::ordered_json;
  ordered_json subgraphs = ordered_json::array();
  size_t fabric = 0, cpu = 0, interpreted = 0;
  // Every planned subgraph once, in index order: a subgraph two IF/WHILE
  // share appears once, and nesting is by reference ("children"), so the
  // document is flat however deep the model nests.
  for (uint32_t s = 0; s < plan.subgraphs.size(); ++s) {
    const SubgraphPlan& sp = plan.subgraphs[s];
    if (!sp.planned) continue;
    const Subgraph& sg = model.subgraph(s);
    ordered_json steps = ordered_json::array();
    for (size_t t = 0; t < sp.steps.size(); ++t) {
      const Step& step = sp.steps[t];
      ordered_json j;
      j["index"] = t;
      j["kind"] = std::string(jsonKind(step.kind));
      switch (step.kind) {
        case StepKind::FABRIC: ++fabric; j["device"] = std::string(fabricName); break;
        case StepKind::CPU: ++cpu; j["device"] = "cpu"; break;
        case StepKind::IF:
        case StepKind::WHILE: ++interpreted; j["device"] = "host"; break;
      }
      ordered_json ops = ordered_json::array();
      for (size_t k = 0; k < step.operations.size(); ++k) {
        const uint32_t i = step.operations[k];
        ordered_json op = {{"index", i}, {"type", std::string(toString(sg.operations[i].type))}};
        const bool onFabric = step.kind == StepKind::FABRIC;
        op["onFabric"] = onFabric;
        if (!onFabric) {
          const ReasonCode code = k < step.codes.size() ? step.codes[k] : ReasonCode::NONE;
          op["reasonCode"] = std::string(toString(code == ReasonCode::NONE ? ReasonCode::NO_FABRIC : code));
          op["reason"] = step.reasons[k].empty()
                             ? fmt::format("{} has no fabric: its CPU executor runs every operation", fabricName)
                             : step.reasons[k];
        }
        ops.push_back(std::move(op));
      }
      j["operations"] = std::move(ops);
      j["inputs"] = step.inputs;
      j["outputs"] = step.outputs;
      if (step.kind == StepKind::IF) {
        j["children"] = {{"then", step.children[0]}, {"else", step.children[1]}};
      } else if (step.kind == StepKind::WHILE) {
        j["children"] = {{"cond", step.children[0]}, {"body", step.children[1]}};
      }
      steps.push_back(std::move(j));
    }
    subgraphs.push_back({{"subgraph", s}, {"steps", std::move(steps)}});
  }
  ordered_json doc;
  doc["device"] = std::string(fabricName);
  doc["fabricSteps"] = fabric;
  doc["cpuSteps"] = cpu;
  doc["interpretedSteps"] = interpreted;
  doc["subgraphs"] = std::move(subgraphs);
  return doc.dump(2) + "\n";
}

std::vector<OffFabricOperation> offFabricOperations(const Model& model, const Plan& plan) {
  std::vector<OffFabricOperation> off;
  for (uint32_t s = 0; s < plan.subgraphs.size(); ++s) {
    const SubgraphPlan& sp = plan.subgraphs[s];
    if (!sp.planned) continue;
    const Subgraph& sg = model.subgraph(s);
    for (const Step& step : sp.steps) {
      if (step.kind == StepKind::FABRIC) continue;
      for (size_t k = 0; k < step.operations.size(); ++k) {
        OffFabricOperation o;
        o.subgraph = s;
        o.operation = step.operations[k];
        o.type = sg.operations[o.operation].type;
        o.code = k < step.codes.size() && step.codes[k] != ReasonCode::NONE ? step.codes[k] : ReasonCode::NO_FABRIC;
        o.reason = k < step.reasons.size() ? step.reasons[k] : std::string();
        off.push_back(std::move(o));
      }
    }
  }
  return off;
}

std::string summarizeOffFabric(const std::vector<OffFabricOperation>& off, size_t limit) {
  std::vector<std::string> items;
  for (size_t i = 0; i < off.size() && i < limit; ++i) {
    items.push_back(fmt::format("subgraph {} operation {} {} ({})", off[i].subgraph, off[i].operation,
                                toString(off[i].type), toString(off[i].code)));
  }
  std::string text = fmt::format("{}", fmt::join(items, "; "));
  if (off.size() > limit) text += fmt::format("; and {} more", off.size() - limit);
  return text;
}

}  // namespace nnfab::runtime
