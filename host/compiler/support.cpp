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

bool isData(OperandType t, const FabricFeatures& f) {
  return t == T::TENSOR_INT32 || t == T::TENSOR_BOOL8 || (f.float32 && t == T::TENSOR_FLOAT32);
}

std::string dataTypes(const FabricFeatures& f) {
  return f.float32 ? "TENSOR_INT32, TENSOR_BOOL8 and TENSOR_FLOAT32"
                   : "TENSOR_INT32 and TENSOR_BOOL8 (this device's FEATURES has no FLOAT32)";
}

}  // namespace

std::optional<uint32_t> constantActivation(const Operand& operand) {
  if (operand.type != T::INT32) return std::nullopt;
  if (operand.lifetime != OperandLifeTime::CONSTANT_COPY &&
      operand.lifetime != OperandLifeTime::CONSTANT_REFERENCE) {
    return std::nullopt;
  }
  if (operand.value.size() != sizeof(int32_t)) return std::nullopt;
  int32_t v = 0;
  for (size_t b = 0; b < sizeof v; ++b) v |= static_cast<int32_t>(uint32_t{operand.value[b]} << (8 * b));
  if (v < 0 || v > 3) return std::nullopt;
  return static_cast<uint32_t>(v);
}

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
                  std::string* why, const FabricFeatures& f) {
  for (size_t i = firstData; i < op.inputs.size(); ++i) {
    const T t = sg.operands[op.inputs[i]].type;
    if (!isData(t, f)) return fail(why, fmt::format("{} input {} is {}, the fabric takes only {}", name, i, typeName(t), dataTypes(f)));
  }
  for (size_t i = 0; i < op.outputs.size(); ++i) {
    const T t = sg.operands[op.outputs[i]].type;
    if (!isData(t, f)) return fail(why, fmt::format("{} output {} is {}, the fabric takes only {}", name, i, typeName(t), dataTypes(f)));
  }
  return true;
}

// FULLY_CONNECTED: FLOAT32 input, weights and bias (NNAPI 1.3 and the CPU
// executor require the bias), a constant activation, a rank-2 weights
// operand. Shapes are checked when compiling.
bool fullyConnectedSupported(const Subgraph& sg, const Operation& op, std::string* why, const FabricFeatures& f) {
  if (op.inputs.size() != 4 || op.outputs.size() != 1) return fail(why, "FULLY_CONNECTED expects 4 inputs and 1 output");
  if (!f.float32) return fail(why, "FULLY_CONNECTED is TENSOR_FLOAT32 and this device's FEATURES has no FLOAT32");
  if (!f.fc) return fail(why, "FULLY_CONNECTED needs FEATURES.FEATURE_FC, which this device does not report");
  const char* names[3] = {"input", "weights", "bias"};
  for (int i = 0; i < 3; ++i) {
    const Operand& o = sg.operands[op.inputs[i]];
    // A missing bias: a zero bias would give the same bits (the sum starts
    // at +0 and is never -0, so acc + 0 = acc), but the CPU executor rejects
    // the operation, and the fabric must fail where the reference fails.
    if (o.lifetime == OperandLifeTime::NO_VALUE) {
      return fail(why, i == 2 ? std::string("FULLY_CONNECTED bias has no value: the CPU executor (the reference) rejects "
                                            "a FULLY_CONNECTED without a bias, so the fabric does not supply a zero one")
                              : fmt::format("FULLY_CONNECTED {} has no value", names[i]));
    }
    if (o.type != T::TENSOR_FLOAT32) {
      return fail(why, fmt::format("FULLY_CONNECTED {} is {}; the fabric runs it on TENSOR_FLOAT32 only", names[i], typeName(o.type)));
    }
  }
  if (sg.operands[op.outputs[0]].type != T::TENSOR_FLOAT32) return fail(why, "FULLY_CONNECTED output is not TENSOR_FLOAT32");
  if (!constantActivation(sg.operands[op.inputs[3]])) {
    return fail(why, "FULLY_CONNECTED needs a constant fused activation of 0..3 (it is encoded in the program)");
  }
  return true;
}

// RESHAPE: a copy (or a view) with a constant 1-D TENSOR_INT32 shape, on
// TENSOR_FLOAT32 (the type the CPU executor and NNAPI take it on).
bool reshapeSupported(const Subgraph& sg, const Operation& op, std::string* why, const FabricFeatures& f) {
  if (op.inputs.size() != 2 || op.outputs.size() != 1) return fail(why, "RESHAPE expects 2 inputs and 1 output");
  const T t = sg.operands[op.inputs[0]].type;
  if (t != T::TENSOR_FLOAT32 || !f.float32) {
    return fail(why, fmt::format("RESHAPE on {}: the fabric runs it on TENSOR_FLOAT32 only, with FLOAT32 in the "
                                 "device's FEATURES", typeName(t)));
  }
  if (sg.operands[op.outputs[0]].type != t) return fail(why, "RESHAPE output type differs from its input's");
  const Operand& shape = sg.operands[op.inputs[1]];
  if (shape.type != T::TENSOR_INT32 || (shape.lifetime != OperandLifeTime::CONSTANT_COPY &&
                                        shape.lifetime != OperandLifeTime::CONSTANT_REFERENCE)) {
    return fail(why, "RESHAPE needs a constant TENSOR_INT32 shape (the fabric fixes shapes at compile time)");
  }
  return true;
}

// The checks of one operation that do not look into referenced subgraphs.
// For IF/WHILE, *children receives the subgraphs to check in turn.
bool supportedLocally(const Model& model, const Subgraph& sg, const Operation& op,
                      std::vector<uint32_t>* children, std::string* why, const FabricFeatures& features) {
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
    if (!dataOperands(sg, op, 3, name, why, features)) return false;
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
    if (!dataOperands(sg, op, 2, name, why, features)) return false;
    children->push_back(condIndex);
    children->push_back(bodyIndex);
    return true;
  }

  if (op.type == OperationType::FULLY_CONNECTED) return fullyConnectedSupported(sg, op, why, features);
  if (op.type == OperationType::RESHAPE) return reshapeSupported(sg, op, why, features);
  const auto info = elementwiseInfo(op.type);
  if (!info) return fail(why, name + " is not supported by the fabric");
  const size_t inputCount = info->inputs + (info->family == OpFamily::ARITHMETIC ? 1 : 0);
  if (op.inputs.size() != inputCount || op.outputs.size() != 1) {
    return fail(why, fmt::format("{} expects {} inputs and 1 output", name, inputCount));
  }
  OperandType in[3] = {T::TENSOR_INT32, T::TENSOR_INT32, T::TENSOR_INT32};
  for (uint32_t i = 0; i < info->inputs; ++i) in[i] = sg.operands[op.inputs[i]].type;
  if (!elementwiseTypesSupported(*info, op.type, in, sg.operands[op.outputs[0]].type, why, features)) return false;
  if (info->family == OpFamily::ARITHMETIC && in[0] == T::TENSOR_FLOAT32) {
    if (!constantActivation(sg.operands[op.inputs[2]])) {
      return fail(why, name + " on TENSOR_FLOAT32 needs a constant fused activation of 0..3 (it is encoded in the program)");
    }
    return true;
  }
  if (info->family == OpFamily::ARITHMETIC && !isConstantZeroActivation(sg.operands[op.inputs[2]])) {
    return fail(why, name + " on TENSOR_INT32 needs a constant fused activation of 0 (NONE); "
                            "anything else fails on NNAPI's reference, so the CPU runs it");
  }
  return true;
}

}  // namespace

bool elementwiseTypesSupported(const OpInfo& info, OperationType type, const OperandType* in,
                               OperandType out, std::string* why, const FabricFeatures& features) {
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
  // INT32, or FLOAT32 where the device executes it.
  const T numeric = (features.float32 && in[0] == T::TENSOR_FLOAT32) ? T::TENSOR_FLOAT32 : T::TENSOR_INT32;
  auto noFloat = [&](size_t i) {
    if (in[i] != T::TENSOR_FLOAT32 || features.float32) return true;
    return fail(why, fmt::format("{} input {} is TENSOR_FLOAT32 and this device's FEATURES has no FLOAT32", name, i));
  };
  switch (info.family) {
    case OpFamily::ARITHMETIC:
    case OpFamily::MINMAX:
      return noFloat(0) && want(0, numeric) && want(1, numeric) && wantOut(numeric);
    case OpFamily::UNARY:
      return noFloat(0) && want(0, numeric) && wantOut(numeric);
    case OpFamily::COMPARISON:
      if (!noFloat(0)) return false;
      if (!isData(in[0], features)) {
        return fail(why, fmt::format("{} on {} is not supported by the fabric (only {})",
                                     name, typeName(in[0]), dataTypes(features)));
      }
      return want(1, in[0]) && wantOut(T::TENSOR_BOOL8);
    case OpFamily::LOGICAL:
      return want(0, T::TENSOR_BOOL8) && want(1, T::TENSOR_BOOL8) && wantOut(T::TENSOR_BOOL8);
    case OpFamily::NOT:
      return want(0, T::TENSOR_BOOL8) && wantOut(T::TENSOR_BOOL8);
    case OpFamily::SELECT: {
      if (!noFloat(1)) return false;
      const T values = (features.float32 && in[1] == T::TENSOR_FLOAT32) ? T::TENSOR_FLOAT32 : T::TENSOR_INT32;
      return want(0, T::TENSOR_BOOL8) && want(1, values) && want(2, values) && wantOut(values);
    }
    case OpFamily::CAST: {
      const bool identity = isData(in[0], features) && out == in[0];
      const bool convert = features.float32 && ((in[0] == T::TENSOR_INT32 && out == T::TENSOR_FLOAT32) ||
                                                (in[0] == T::TENSOR_FLOAT32 && out == T::TENSOR_INT32));
      if (!identity && !convert) {
        return fail(why, fmt::format("CAST from {} to {} is not supported by the fabric (identity casts of {}{})",
                                     typeName(in[0]), typeName(out), dataTypes(features),
                                     features.float32 ? ", TENSOR_INT32 <-> TENSOR_FLOAT32" : ""));
      }
      return true;
    }
  }
  return fail(why, name + " is not supported by the fabric");
}

bool isOperationSupported(const Model& model, uint32_t subgraph, uint32_t operation, std::string* why) {
  return isOperationSupported(model, subgraph, operation, why, FabricFeatures{});
}

bool isOperationSupported(const Model& model, uint32_t subgraph, uint32_t operation, std::string* why,
                          const FabricFeatures& features) {
  if (subgraph >= model.subgraphCount()) return fail(why, fmt::format("there is no subgraph {}", subgraph));
  const Subgraph& sg = model.subgraph(subgraph);
  if (operation >= sg.operations.size()) {
    return fail(why, fmt::format("{} has no operation {}", subgraphLabel(subgraph), operation));
  }
  std::vector<uint32_t> pending;
  if (!supportedLocally(model, sg, sg.operations[operation], &pending, why, features)) return false;
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
      if (!supportedLocally(model, inner, inner.operations[i], &children, &reason, features)) {
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
