// IF (§3.2) and WHILE (§4.2): every check of NNAPI's validateIfOperation and
// validateWhileOperation, in the same order. Each check looks one level down
// only (the referenced subgraph's input/output lists), so nesting depth never
// costs stack; the referenced subgraphs themselves are validated in their own
// turn by validateModel.
#include <fmt/format.h>

#include "validation/validate_internal.h"

namespace nnfab::validation {
namespace {

// Why compatible(a, b) of §3.2 fails, or "" when it holds: same type; ranks
// and dimensions equal where both are known; equal scale, zeroPoint and
// extraParams.
std::string incompatibility(const Operand& a, const Operand& b) {
  if (a.type != b.type) {
    return fmt::format("type {} vs {}", toString(a.type), toString(b.type));
  }
  if (!a.dimensions.empty() && !b.dimensions.empty()) {
    if (a.dimensions.size() != b.dimensions.size()) {
      return fmt::format("rank {} vs {} (dimensions {} vs {})", a.dimensions.size(),
                         b.dimensions.size(), dimensionsToString(a.dimensions),
                         dimensionsToString(b.dimensions));
    }
    for (size_t i = 0; i < a.dimensions.size(); ++i) {
      const uint32_t da = a.dimensions[i];
      const uint32_t db = b.dimensions[i];
      if (da != 0 && db != 0 && da != db) {
        return fmt::format("dimension {}: {} vs {} (dimensions {} vs {})", i, da, db,
                           dimensionsToString(a.dimensions), dimensionsToString(b.dimensions));
      }
    }
  }
  if (a.scale != b.scale) return fmt::format("scale {} vs {}", a.scale, b.scale);
  if (a.zeroPoint != b.zeroPoint) {
    return fmt::format("zeroPoint {} vs {}", a.zeroPoint, b.zeroPoint);
  }
  const bool sameChannelQuant =
      a.channelQuant.has_value() == b.channelQuant.has_value() &&
      (!a.channelQuant.has_value() || (a.channelQuant->channelDim == b.channelQuant->channelDim &&
                                       a.channelQuant->scales == b.channelQuant->scales));
  if (!sameChannelQuant) return "channelQuant (extraParams) differs";
  return "";
}

// Problem with a condition operand (TENSOR_BOOL8 of dimensions exactly [1]).
std::string conditionProblem(const Operand& operand) {
  if (operand.type != OperandType::TENSOR_BOOL8) {
    return fmt::format("must be TENSOR_BOOL8, got {}", toString(operand.type));
  }
  if (operand.dimensions.size() != 1 || operand.dimensions[0] != 1) {
    return fmt::format("must have dimensions [1], got {}", dimensionsToString(operand.dimensions));
  }
  return "";
}

// A subgraph referenced by an IF/WHILE input.
struct Branch {
  const char* role;  // "then", "else", "cond", "body"
  size_t index;      // as in Model::subgraph()
  const Subgraph* subgraph;

  size_t inputCount() const { return subgraph->inputIndexes.size(); }
  size_t outputCount() const { return subgraph->outputIndexes.size(); }
  // "body subgraph 2 (referenced[1])".
  std::string label() const { return std::string(role) + " " + subgraphLabel(index); }
};

Result<Branch> resolveBranch(const OperationView& op, size_t input, const char* role) {
  const Operand& ref = op.input(input);
  if (ref.type != OperandType::SUBGRAPH || ref.subgraph >= op.model().referenced.size()) {
    return op.inputError(
        input, fmt::format("{} operand is not a valid subgraph reference ({}, lifetime {})", role,
                           operandSummary(ref), toString(ref.lifetime)));
  }
  return Branch{role, ref.subgraph + size_t{1}, &op.model().referenced[ref.subgraph]};
}

// The i-th input (or output) operand of a branch. The branch's index lists
// are validated only in the branch's own turn (after this operation, as in
// NNAPI), so the range is guarded here.
Result<const Operand*> branchOperand(const OperationView& op, const Branch& branch, bool input,
                                     size_t i) {
  const auto& list = input ? branch.subgraph->inputIndexes : branch.subgraph->outputIndexes;
  const uint32_t k = list[i];
  if (k >= branch.subgraph->operands.size()) {
    return op.error(fmt::format("{}: {}Indexes[{}] = {} out of range ({} operands)", branch.label(),
                                input ? "input" : "output", i, k,
                                branch.subgraph->operands.size()));
  }
  return &branch.subgraph->operands[k];
}

// The size check of §4.2, enforced only when validating for a HAL driver.
bool failsSizeCheck(const OperationView& op, const Operand& operand) {
  return op.mode() == ValidationMode::DRIVER && !hasKnownSize(operand);
}

std::string unknownSize(const std::string& what, const Operand& operand) {
  return fmt::format(
      "{} has unknown size ({}); a HAL driver requires fully specified "
      "control-flow operands",
      what, operandSummary(operand));
}

Status validateIfBranch(const OperationView& op, size_t input, const char* role) {
  constexpr size_t kFirstInput = 3;
  auto resolved = resolveBranch(op, input, role);
  if (!resolved) return std::move(resolved).takeStatus();
  const Branch& branch = *resolved;
  if (op.inputCount() != kFirstInput + branch.inputCount()) {
    return op.error(fmt::format("{} has {} inputs, so IF needs {} inputs, got {}", branch.label(),
                                branch.inputCount(), kFirstInput + branch.inputCount(),
                                op.inputCount()));
  }
  if (op.outputCount() != branch.outputCount()) {
    return op.error(fmt::format("{} has {} outputs, IF has {}", branch.label(),
                                branch.outputCount(), op.outputCount()));
  }
  for (size_t i = 0; i < branch.inputCount(); ++i) {
    auto inner = branchOperand(op, branch, true, i);
    if (!inner) return std::move(inner).takeStatus();
    const std::string why = incompatibility(**inner, op.input(kFirstInput + i));
    if (!why.empty()) {
      return op.inputError(kFirstInput + i,
                           fmt::format("{} input {} is not compatible with outer input {}: {}",
                                       role, i, kFirstInput + i, why));
    }
  }
  for (size_t i = 0; i < branch.outputCount(); ++i) {
    auto inner = branchOperand(op, branch, false, i);
    if (!inner) return std::move(inner).takeStatus();
    const std::string why = incompatibility(**inner, op.output(i));
    if (!why.empty()) {
      return op.outputError(
          i,
          fmt::format("{} output {} is not compatible with outer output {}: {}", role, i, i, why));
    }
  }
  return Status::ok();
}

// Every cond/body input i must match WHILE input 2 + i, and neither side may
// be of unknown size where the mode forbids it.
Status validateWhileInputs(const OperationView& op, const Branch& branch, const char* role) {
  constexpr size_t kFirstInput = 2;
  for (size_t i = 0; i < branch.inputCount(); ++i) {
    auto inner = branchOperand(op, branch, true, i);
    if (!inner) return std::move(inner).takeStatus();
    const size_t at = kFirstInput + i;
    const Operand& outer = op.input(at);
    const std::string why = incompatibility(**inner, outer);
    if (!why.empty()) {
      return op.inputError(at, fmt::format("{} input {} is not compatible with outer input {}: {}",
                                           role, i, at, why));
    }
    if (failsSizeCheck(op, **inner)) {
      return op.inputError(at, unknownSize(fmt::format("{} input {}", role, i), **inner));
    }
    if (failsSizeCheck(op, outer)) {
      return op.inputError(at, unknownSize(fmt::format("outer input {}", at), outer));
    }
  }
  return Status::ok();
}

// WHILE condition: m+k+n inputs matching the outer inputs, one BOOL8 [1] output.
Status validateWhileCond(const OperationView& op) {
  constexpr size_t kFirstInput = 2;
  auto resolved = resolveBranch(op, 0, "cond");
  if (!resolved) return std::move(resolved).takeStatus();
  const Branch& cond = *resolved;
  if (op.inputCount() != kFirstInput + cond.inputCount()) {
    return op.error(fmt::format("{} has {} inputs, so WHILE needs {} inputs, got {}", cond.label(),
                                cond.inputCount(), kFirstInput + cond.inputCount(),
                                op.inputCount()));
  }
  if (cond.outputCount() != 1) {
    return op.error(
        fmt::format("{} has {} outputs, must have exactly 1", cond.label(), cond.outputCount()));
  }
  if (Status s = validateWhileInputs(op, cond, "cond"); !s) return s;
  auto output = branchOperand(op, cond, false, 0);
  if (!output) return std::move(output).takeStatus();
  const std::string problem = conditionProblem(**output);
  if (!problem.empty()) {
    return op.inputError(0, fmt::format("{} output 0 (operand {}) {}", cond.label(),
                                        cond.subgraph->outputIndexes[0], problem));
  }
  return Status::ok();
}

// WHILE body: m+k+n inputs matching the outer inputs, m+k outputs; the first
// m match the WHILE outputs, and every output matches its loop-carried input.
Status validateWhileBody(const OperationView& op) {
  constexpr size_t kFirstInput = 2;
  auto resolved = resolveBranch(op, 1, "body");
  if (!resolved) return std::move(resolved).takeStatus();
  const Branch& body = *resolved;
  const size_t m = op.outputCount();
  if (op.inputCount() != kFirstInput + body.inputCount()) {
    return op.error(fmt::format("{} has {} inputs, so WHILE needs {} inputs, got {}", body.label(),
                                body.inputCount(), kFirstInput + body.inputCount(),
                                op.inputCount()));
  }
  if (body.outputCount() < m) {
    return op.error(fmt::format("{} has {} outputs, fewer than the {} WHILE outputs (k < 0)",
                                body.label(), body.outputCount(), m));
  }
  if (body.inputCount() < body.outputCount()) {
    return op.error(fmt::format("{} has {} inputs, fewer than its {} outputs (n < 0)", body.label(),
                                body.inputCount(), body.outputCount()));
  }
  if (Status s = validateWhileInputs(op, body, "body"); !s) return s;
  for (size_t i = 0; i < m; ++i) {
    auto inner = branchOperand(op, body, false, i);
    if (!inner) return std::move(inner).takeStatus();
    const std::string why = incompatibility(**inner, op.output(i));
    if (!why.empty()) {
      return op.outputError(
          i, fmt::format("body output {} is not compatible with outer output {}: {}", i, i, why));
    }
    if (failsSizeCheck(op, op.output(i))) {
      return op.outputError(i, unknownSize(fmt::format("outer output {}", i), op.output(i)));
    }
  }
  for (size_t i = 0; i < body.outputCount(); ++i) {
    auto in = branchOperand(op, body, true, i);
    if (!in) return std::move(in).takeStatus();
    auto out = branchOperand(op, body, false, i);
    if (!out) return std::move(out).takeStatus();
    const std::string where =
        fmt::format("{}: body input {} (operand {}) vs body output {} (operand {})", body.label(),
                    i, body.subgraph->inputIndexes[i], i, body.subgraph->outputIndexes[i]);
    const std::string why = incompatibility(**in, **out);
    if (!why.empty()) return op.error(where + ": not compatible: " + why);
    if (failsSizeCheck(op, **out)) {
      return op.error(where + ": " + unknownSize(fmt::format("body output {}", i), **out));
    }
  }
  return Status::ok();
}

}  // namespace

Status validateIf(const OperationView& op) {
  if (op.inputCount() < 3 || op.outputCount() < 1) {
    return op.error(
        fmt::format("IF needs at least 3 inputs and 1 output, got {} inputs and {} "
                    "outputs",
                    op.inputCount(), op.outputCount()));
  }
  const std::string problem = conditionProblem(op.input(0));
  if (!problem.empty()) return op.inputError(0, "condition operand " + problem);
  if (Status s = validateIfBranch(op, 1, "then"); !s) return s;
  return validateIfBranch(op, 2, "else");
}

Status validateWhile(const OperationView& op) {
  if (op.inputCount() < 3 || op.outputCount() < 1) {
    return op.error(
        fmt::format("WHILE needs at least 3 inputs and 1 output, got {} inputs and {} "
                    "outputs",
                    op.inputCount(), op.outputCount()));
  }
  if (Status s = validateWhileCond(op); !s) return s;
  return validateWhileBody(op);
}

}  // namespace nnfab::validation
