// The converter's building blocks: scopes, operands, constants, outputs, and
// the dispatch of one ONNX node to the mapper of its operator.
#include "onnx/converter.h"

#include <fmt/format.h>

#include <cstring>

namespace nnfab::onnx_import {
namespace {
constexpr const char* kNotSupported = "this operator is not supported by the nnfab ONNX importer (docs/onnx.md lists what is)";
}  // namespace

Subgraph& Converter::subgraph(const Scope& scope) {
  return scope.subgraph == 0 ? model_->main : model_->referenced[scope.subgraph - 1];
}

uint32_t Converter::addOperand(Scope& scope, OperandType type, Dimensions dims, OperandLifeTime lifetime) {
  Subgraph& sg = subgraph(scope);
  Operand operand;
  operand.type = type;
  operand.dimensions = std::move(dims);
  operand.lifetime = lifetime;
  sg.operands.push_back(std::move(operand));
  return static_cast<uint32_t>(sg.operands.size() - 1);
}

uint32_t Converter::constantOperand(Scope& scope, const Constant& c) {
  const uint32_t index = addOperand(scope, c.type, toNnfabDims(c.dims), OperandLifeTime::CONSTANT_COPY);
  subgraph(scope).operands[index].value = c.bytes;
  return index;
}

uint32_t Converter::operandOf(Scope& scope, const Value& v) {
  return v.isConstant() ? constantOperand(scope, *v.constant) : v.operand;
}

namespace {
template <typename T>
Constant makeConstant(OperandType type, const std::vector<T>& values, std::vector<int64_t> dims) {
  Constant c;
  c.type = type;
  c.dims = dims.empty() ? std::vector<int64_t>{static_cast<int64_t>(values.size())} : std::move(dims);
  c.bytes.resize(values.size() * sizeof(T));
  if (!values.empty()) std::memcpy(c.bytes.data(), values.data(), c.bytes.size());
  return c;
}
}  // namespace

uint32_t Converter::int32s(Scope& scope, std::vector<int32_t> values, std::vector<int64_t> dims) {
  return constantOperand(scope, makeConstant(OperandType::TENSOR_INT32, values, std::move(dims)));
}
uint32_t Converter::floats(Scope& scope, std::vector<float> values, std::vector<int64_t> dims) {
  return constantOperand(scope, makeConstant(OperandType::TENSOR_FLOAT32, values, std::move(dims)));
}
uint32_t Converter::bools(Scope& scope, std::vector<uint8_t> values, std::vector<int64_t> dims) {
  return constantOperand(scope, makeConstant(OperandType::TENSOR_BOOL8, values, std::move(dims)));
}

uint32_t Converter::zerosOf(Scope& scope, OperandType type, const std::vector<int64_t>& dims) {
  size_t count = 1;
  for (int64_t d : dims) count *= static_cast<size_t>(d);
  Constant c;
  c.type = type;
  c.dims = dims;
  c.bytes.assign(count * sizeOfElement(type), 0);
  return constantOperand(scope, c);
}

uint32_t Converter::activationNone(Scope& scope) {
  if (!scope.activationNone) {
    const uint32_t index = addOperand(scope, OperandType::INT32, {}, OperandLifeTime::CONSTANT_COPY);
    subgraph(scope).operands[index].value.assign(4, 0);
    scope.activationNone = index;
  }
  return *scope.activationNone;
}

uint32_t Converter::emit(Scope& scope, OperationType op, std::vector<uint32_t> inputs, OperandType outType,
                         Dimensions outDims) {
  const uint32_t out = addOperand(scope, outType, std::move(outDims));
  Operation operation;
  operation.type = op;
  operation.inputs = std::move(inputs);
  operation.outputs = {out};
  subgraph(scope).operations.push_back(std::move(operation));
  return out;
}

uint32_t Converter::arith(Scope& scope, OperationType op, uint32_t a, uint32_t b, OperandType type,
                          Dimensions dims) {
  return emit(scope, op, {a, b, activationNone(scope)}, type, std::move(dims));
}

size_t Converter::newSubgraph() {
  model_->referenced.emplace_back();
  return model_->referenced.size();
}

uint32_t Converter::subgraphOperand(Scope& scope, size_t subgraphIndex) {
  const uint32_t index = addOperand(scope, OperandType::SUBGRAPH, {}, OperandLifeTime::SUBGRAPH);
  subgraph(scope).operands[index].subgraph = static_cast<uint32_t>(subgraphIndex - 1);
  return index;
}

Value Converter::operandValue(uint32_t operand, OperandType type, OnnxDims dims) const {
  Value v;
  v.type = type;
  v.dims = std::move(dims);
  v.operand = operand;
  return v;
}

Result<Value> Converter::lookup(Scope& scope, const std::string& name) const {
  for (Scope* s = &scope; s != nullptr; s = s->parent) {
    auto it = s->names.find(name);
    if (it == s->names.end()) continue;
    if (s == &scope || it->second.isConstant()) return it->second;
    // An operand of an enclosing subgraph that was not wired in as an input.
    return invalidArgument("internal error: '" + name + "' of an enclosing graph is not an input here");
  }
  return invalidArgument("the value '" + name + "' is not defined (no input, initializer or node output has this name)");
}

Result<Value> Converter::input(Scope& scope, const onnx::NodeProto& node, int i) const {
  if (!hasInput(node, i)) return refuse(node, fmt::format("input {} is missing", i));
  auto v = lookup(scope, node.input(i));
  if (!v) return refuse(node, v.status().message());
  return v;
}

Result<Constant> Converter::constantInput(Scope& scope, const onnx::NodeProto& node, int i, const char* what) const {
  auto v = input(scope, node, i);
  if (!v) return std::move(v).takeStatus();
  if (!v->isConstant()) {
    return refuse(node, fmt::format("its {} ('{}') must be a constant: it is computed at run time", what,
                                    node.input(i)));
  }
  return *v->constant;
}

OnnxDims Converter::inferredDims(const std::string& name) const {
  auto it = info_.find(name);
  return it == info_.end() ? OnnxDims{} : it->second.second;
}

bool isMappedOperator(const std::string& op) {
  static const std::set<std::string> kMapped = {
      "If", "Loop", "Scan", "Add", "Sub", "Mul", "Div", "Neg", "Abs", "Relu", "Floor", "Ceil", "Max", "Min",
      "Equal", "Less", "LessOrEqual", "Greater", "GreaterOrEqual", "Not", "And", "Or", "Xor", "Where", "Cast",
      "Constant", "Identity", "Reshape", "Unsqueeze", "Squeeze", "Slice", "MatMul", "Gemm"};
  return kMapped.count(op) != 0;
}

Status refuseNode(const onnx::NodeProto& node, const std::string& why) {
  std::string who = !node.name().empty()        ? "node '" + node.name() + "'"
                    : node.output_size() > 0 ? "the node computing '" + node.output(0) + "'"
                                             : std::string("a node");
  return invalidArgument(fmt::format("{} ({}): {}", who, node.op_type(), why));
}

Status Converter::refuse(const onnx::NodeProto& node, const std::string& why) const { return refuseNode(node, why); }

const onnx::AttributeProto* Converter::attribute(const onnx::NodeProto& node, const char* name) const {
  for (const auto& a : node.attribute()) {
    if (a.name() == name) return &a;
  }
  return nullptr;
}

int64_t Converter::intAttribute(const onnx::NodeProto& node, const char* name, int64_t fallback) const {
  const auto* a = attribute(node, name);
  return a != nullptr && a->type() == onnx::AttributeProto::INT ? a->i() : fallback;
}

void Converter::collectInfo(const onnx::GraphProto& g) {
  auto note = [&](const onnx::ValueInfoProto& v) {
    if (!v.has_type() || !v.type().has_tensor_type()) return;
    const auto& tt = v.type().tensor_type();
    OnnxDims dims;
    if (tt.has_shape()) {
      dims.emplace();
      for (const auto& d : tt.shape().dim()) dims->push_back(d.has_dim_value() && d.dim_value() >= 0 ? d.dim_value() : -1);
    }
    auto& slot = info_[v.name()];
    if (!slot.second || fullyKnown(dims)) slot = {tt.elem_type(), dims};
  };
  for (const auto& v : g.input()) note(v);
  for (const auto& v : g.output()) note(v);
  for (const auto& v : g.value_info()) note(v);
  for (const auto& n : g.node()) {
    for (const auto& a : n.attribute()) {
      if (a.has_g()) collectInfo(a.g());
      for (const auto& sub : a.graphs()) collectInfo(sub);
    }
  }
}

std::set<std::string> Converter::freeNames(const onnx::GraphProto& g) {
  std::set<std::string> defined, free;
  for (const auto& v : g.input()) defined.insert(v.name());
  for (const auto& t : g.initializer()) defined.insert(t.name());
  for (const auto& n : g.node()) {
    for (const auto& o : n.output()) defined.insert(o);
  }
  auto use = [&](const std::string& s) {
    if (!s.empty() && !defined.count(s)) free.insert(s);
  };
  for (const auto& n : g.node()) {
    for (const auto& i : n.input()) use(i);
    for (const auto& a : n.attribute()) {
      if (a.has_g()) {
        for (const auto& s : freeNames(a.g())) use(s);
      }
      for (const auto& sub : a.graphs()) {
        for (const auto& s : freeNames(sub)) use(s);
      }
    }
  }
  for (const auto& o : g.output()) use(o.name());
  return free;
}

Result<std::vector<std::pair<std::string, Value>>> Converter::captures(
    Scope& outer, const onnx::NodeProto& node, const std::vector<const onnx::GraphProto*>& graphs) {
  std::set<std::string> names;
  for (const auto* g : graphs) {
    for (const auto& s : freeNames(*g)) names.insert(s);
  }
  std::vector<std::pair<std::string, Value>> out;
  for (const auto& name : names) {
    auto v = lookup(outer, name);
    if (!v) return refuse(node, "its subgraph reads '" + name + "', which no enclosing graph defines");
    if (!v->isConstant()) out.emplace_back(name, *v);
  }
  return out;
}

uint32_t Converter::finishOutput(Scope& scope, const Value& v) {
  const uint64_t key = (uint64_t{scope.subgraph} << 32) | v.operand;
  if (!v.isConstant()) {
    Operand& operand = subgraph(scope).operands[v.operand];
    if (operand.lifetime == OperandLifeTime::TEMPORARY_VARIABLE && !outputsUsed_.count(key)) {
      operand.lifetime = OperandLifeTime::SUBGRAPH_OUTPUT;
      outputsUsed_.insert(key);
      return v.operand;
    }
  }
  // An input, a constant or a value already listed: NNAPI wants every
  // subgraph output written by an operation, once (docs/nnapi-semantics.md
  // §5.3). CAST to the same type is the identity for FLOAT32, INT32 and BOOL8.
  const uint32_t source = operandOf(scope, v);
  const Operand copy = subgraph(scope).operands[source];
  const uint32_t out = emit(scope, OperationType::CAST, {source}, copy.type, copy.dimensions);
  subgraph(scope).operands[out].lifetime = OperandLifeTime::SUBGRAPH_OUTPUT;
  outputsUsed_.insert((uint64_t{scope.subgraph} << 32) | out);
  return out;
}

Result<Value> Converter::reshape(Scope& scope, const onnx::NodeProto& node, const Value& v,
                                 const std::vector<int64_t>& to) {
  if (v.isConstant()) {
    Value c = v;
    c.dims = to;
    c.constant->dims = to;
    return c;
  }
  const OnnxDims target = to;
  if (fullyKnown(v.dims) && fullyKnown(target) && toNnfabDims(v.dims) == toNnfabDims(target)) {
    return operandValue(v.operand, v.type, target);  // e.g. [] <-> [1]: the same nnfab operand
  }
  if (v.type != OperandType::TENSOR_FLOAT32) {
    return refuse(node, fmt::format("it changes the dimensions of {} data from {} to {}, and NNAPI's RESHAPE "
                                    "takes TENSOR_FLOAT32 data only",
                                    toString(v.type), dimsText(v.dims), dimsText(target)));
  }
  std::vector<int32_t> shape;
  int unknown = 0;
  for (int64_t d : to) {
    if (d < 0) ++unknown;
    shape.push_back(d < 0 ? -1 : static_cast<int32_t>(d));
  }
  if (unknown > 1) {
    return refuse(node, "the target shape " + dimsText(target) + " has more than one unknown dimension");
  }
  if (shape.empty()) shape.push_back(1);  // rank 0 is [1] in nnfab
  const uint32_t out = emit(scope, OperationType::RESHAPE,
                            {v.operand, int32s(scope, shape)}, v.type, toNnfabDims(target));
  return operandValue(out, v.type, target);
}

Status Converter::translateNodes(Scope& scope, const onnx::GraphProto& g) {
  for (const auto& t : g.initializer()) {
    auto c = constantFromProto(t);
    if (!c) return std::move(c).takeStatus().withContext("initializer '" + t.name() + "'");
    Value v;
    v.type = c->type;
    v.dims = c->dims;
    v.constant = std::move(*c);
    bind(scope, t.name(), std::move(v));
  }
  if (g.sparse_initializer_size() > 0) return invalidArgument("graph '" + g.name() + "' has sparse initializers, which nnfab does not read");
  for (const auto& node : g.node()) {
    if (Status s = translateNode(scope, node); !s) return s;
  }
  return Status::ok();
}

Status Converter::translateNode(Scope& scope, const onnx::NodeProto& node) {
  if (!node.domain().empty() && node.domain() != "ai.onnx") {
    return refuse(node, "operators of the domain '" + node.domain() + "' are not supported (only ai.onnx)");
  }
  if (!isMappedOperator(node.op_type())) return refuse(node, kNotSupported);
  const std::string& op = node.op_type();
  if (op == "If") return mapIf(scope, node);
  if (op == "Loop") return mapLoop(scope, node);
  if (op == "Scan") return mapScan(scope, node);
  auto handled = mapElementwise(scope, node);
  if (!handled) return std::move(handled).takeStatus();
  if (*handled) return Status::ok();
  handled = mapShapes(scope, node);
  if (!handled) return std::move(handled).takeStatus();
  if (*handled) return Status::ok();
  return refuse(node, kNotSupported);
}

}  // namespace nnfab::onnx_import
