// isOperationSupported: the fabric's static rules (operand types and, for
// IF/WHILE, every operation of every subgraph they reach). Shapes play no
// part here; compile() checks them. The walk over referenced subgraphs uses
// an explicit stack and visits each subgraph once, so a 100k-deep nesting
// costs linear time and no C stack.
#include <fmt/format.h>

#include <string>
#include <vector>

#include "compiler/compiler.h"
#include "compiler/op_table.h"

namespace nnfab::compiler {
namespace {

using T = OperandType;

std::string subgraphLabel(uint32_t index) {
  return index == 0 ? std::string("subgraph 0 (main)")
                    : fmt::format("subgraph {} (referenced[{}])", index, index - 1);
}

std::string typeName(OperandType t) { return std::string(toString(t)); }

bool fail(std::string* why, std::string message) {
  if (why != nullptr) *why = std::move(message);
  return false;
}

bool isData(OperandType t) { return t == T::TENSOR_INT32 || t == T::TENSOR_BOOL8; }

}  // namespace

bool isConstantZeroActivation(const Operand& operand) {
  if (operand.type != T::INT32) return false;
  if (operand.lifetime != OperandLifeTime::CONSTANT_COPY &&
      operand.lifetime != OperandLifeTime::CONSTANT_REFERENCE) {
    return false;
  }
  if (operand.value.size() != sizeof(int32_t)) return false;
  for (uint8_t b : operand.value) {
    if (b != 0) return false;
  }
  return true;
}

namespace {

// The subgraph a SUBGRAPH operand refers to, as a message index (i + 1).
bool subgraphOf(const Model& model, const Subgraph& sg, uint32_t operand, uint32_t* index) {
  if (operand >= sg.operands.size()) return false;
  const Operand& o = sg.operands[operand];
  if (o.type != T::SUBGRAPH || o.lifetime != OperandLifeTime::SUBGRAPH) return false;
  if (o.subgraph >= model.referenced.size()) return false;
  *index = o.subgraph + 1;
  return true;
}

// Every operand of an IF/WHILE other than the subgraph references must be a
// fabric data type: the step moves them through IoSlots and registers.
bool dataOperands(const Subgraph& sg, const Operation& op, size_t firstData, const std::string& name,
                  std::string* why) {
  for (size_t i = firstData; i < op.inputs.size(); ++i) {
    const T t = sg.operands[op.inputs[i]].type;
    if (!isData(t)) return fail(why, fmt::format("{} input {} is {}, the fabric takes only TENSOR_INT32 and TENSOR_BOOL8", name, i, typeName(t)));
  }
  for (size_t i = 0; i < op.outputs.size(); ++i) {
    const T t = sg.operands[op.outputs[i]].type;
    if (!isData(t)) return fail(why, fmt::format("{} output {} is {}, the fabric takes only TENSOR_INT32 and TENSOR_BOOL8", name, i, typeName(t)));
  }
  return true;
}

// The checks of one operation that do not look into referenced subgraphs.
// For IF/WHILE, *children receives the subgraphs to check in turn.
bool supportedLocally(const Model& model, const Subgraph& sg, const Operation& op,
                      std::vector<uint32_t>* children, std::string* why) {
  const std::string name(toString(op.type));
  for (uint32_t index : op.inputs) {
    if (index >= sg.operands.size()) return fail(why, name + " refers to a missing operand");
  }
  for (uint32_t index : op.outputs) {
    if (index >= sg.operands.size()) return fail(why, name + " refers to a missing operand");
  }

  if (op.type == OperationType::IF) {
    uint32_t thenIndex = 0, elseIndex = 0;
    if (op.inputs.size() < 3 || op.outputs.empty()) return fail(why, "IF needs a condition, two branches and an output");
    if (sg.operands[op.inputs[0]].type != T::TENSOR_BOOL8) return fail(why, "IF condition is not TENSOR_BOOL8");
    if (!subgraphOf(model, sg, op.inputs[1], &thenIndex) || !subgraphOf(model, sg, op.inputs[2], &elseIndex)) {
      return fail(why, "IF branch is not a valid subgraph reference");
    }
    if (!dataOperands(sg, op, 3, name, why)) return false;
    children->push_back(thenIndex);
    children->push_back(elseIndex);
    return true;
  }
  if (op.type == OperationType::WHILE) {
    uint32_t condIndex = 0, bodyIndex = 0;
    if (op.inputs.size() < 3 || op.outputs.empty()) return fail(why, "WHILE needs a condition, a body, inputs and an output");
    if (!subgraphOf(model, sg, op.inputs[0], &condIndex) || !subgraphOf(model, sg, op.inputs[1], &bodyIndex)) {
      return fail(why, "WHILE condition or body is not a valid subgraph reference");
    }
    if (!dataOperands(sg, op, 2, name, why)) return false;
    children->push_back(condIndex);
    children->push_back(bodyIndex);
    return true;
  }

  const auto info = elementwiseInfo(op.type);
  if (!info) return fail(why, name + " is not supported by the fabric");
  const size_t inputCount = info->inputs + (info->family == OpFamily::ARITHMETIC ? 1 : 0);
  if (op.inputs.size() != inputCount || op.outputs.size() != 1) {
    return fail(why, fmt::format("{} expects {} inputs and 1 output", name, inputCount));
  }
  OperandType in[3] = {T::TENSOR_INT32, T::TENSOR_INT32, T::TENSOR_INT32};
  for (uint32_t i = 0; i < info->inputs; ++i) in[i] = sg.operands[op.inputs[i]].type;
  if (!elementwiseTypesSupported(*info, op.type, in, sg.operands[op.outputs[0]].type, why)) return false;
  if (info->family == OpFamily::ARITHMETIC && !isConstantZeroActivation(sg.operands[op.inputs[2]])) {
    return fail(why, name + " on TENSOR_INT32 needs a constant fused activation of 0 (NONE); "
                            "anything else fails on NNAPI's reference, so the CPU runs it");
  }
  return true;
}

}  // namespace

bool elementwiseTypesSupported(const OpInfo& info, OperationType type, const OperandType* in,
                               OperandType out, std::string* why) {
  const std::string name(toString(type));
  auto want = [&](size_t i, OperandType expected) {
    if (in[i] == expected) return true;
    return fail(why, fmt::format("{} input {} is {}; the fabric runs {} only on {}", name, i,
                                 typeName(in[i]), name, typeName(expected)));
  };
  auto wantOut = [&](OperandType expected) {
    if (out == expected) return true;
    return fail(why, fmt::format("{} output is {}, expected {}", name, typeName(out), typeName(expected)));
  };
  switch (info.family) {
    case OpFamily::ARITHMETIC:
    case OpFamily::MINMAX:
      return want(0, T::TENSOR_INT32) && want(1, T::TENSOR_INT32) && wantOut(T::TENSOR_INT32);
    case OpFamily::UNARY:
      return want(0, T::TENSOR_INT32) && wantOut(T::TENSOR_INT32);
    case OpFamily::COMPARISON:
      if (!isData(in[0])) {
        return fail(why, fmt::format("{} on {} is not supported by the fabric (only TENSOR_INT32 and TENSOR_BOOL8)",
                                     name, typeName(in[0])));
      }
      return want(1, in[0]) && wantOut(T::TENSOR_BOOL8);
    case OpFamily::LOGICAL:
      return want(0, T::TENSOR_BOOL8) && want(1, T::TENSOR_BOOL8) && wantOut(T::TENSOR_BOOL8);
    case OpFamily::NOT:
      return want(0, T::TENSOR_BOOL8) && wantOut(T::TENSOR_BOOL8);
    case OpFamily::SELECT:
      return want(0, T::TENSOR_BOOL8) && want(1, T::TENSOR_INT32) && want(2, T::TENSOR_INT32) &&
             wantOut(T::TENSOR_INT32);
    case OpFamily::CAST:
      if (!isData(in[0]) || out != in[0]) {
        return fail(why, fmt::format("CAST from {} to {} is not supported by the fabric (only the identity "
                                     "casts of TENSOR_INT32 and TENSOR_BOOL8)",
                                     typeName(in[0]), typeName(out)));
      }
      return true;
  }
  return fail(why, name + " is not supported by the fabric");
}

bool isOperationSupported(const Model& model, uint32_t subgraph, uint32_t operation, std::string* why) {
  if (subgraph >= model.subgraphCount()) return fail(why, fmt::format("there is no subgraph {}", subgraph));
  const Subgraph& sg = model.subgraph(subgraph);
  if (operation >= sg.operations.size()) {
    return fail(why, fmt::format("{} has no operation {}", subgraphLabel(subgraph), operation));
  }
  std::vector<uint32_t> pending;
  if (!supportedLocally(model, sg, sg.operations[operation], &pending, why)) return false;
  if (pending.empty()) return true;

  // Every subgraph reachable from this IF/WHILE, each checked once.
  const std::string outer(toString(sg.operations[operation].type));
  std::vector<uint8_t> seen(model.subgraphCount(), 0);
  for (uint32_t s : pending) seen[s] = 1;
  while (!pending.empty()) {
    const uint32_t s = pending.back();
    pending.pop_back();
    const Subgraph& inner = model.subgraph(s);
    std::vector<uint32_t> children;
    for (uint32_t i = 0; i < inner.operations.size(); ++i) {
      children.clear();
      std::string reason;
      if (!supportedLocally(model, inner, inner.operations[i], &children, &reason)) {
        return fail(why, fmt::format("{} reaches {}, whose operation {} ({}) is not supported: {}", outer,
                                     subgraphLabel(s), i, toString(inner.operations[i].type), reason));
      }
      for (uint32_t c : children) {
        if (!seen[c]) {
          seen[c] = 1;
          pending.push_back(c);
        }
      }
    }
  }
  return true;
}

}  // namespace nnfab::compiler
