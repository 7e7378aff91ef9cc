// importModel: parse a ModelProto, check it with ONNX's own checker, run
// ONNX shape inference (which also types the values inside If/Loop/Scan
// bodies), then translate the main graph.
#include <fmt/format.h>
#include <onnx/checker.h>
#include <onnx/shape_inference/implementation.h>

#include <exception>
#include <limits>

#include "onnx/converter.h"
#include "onnx/onnx_import.h"

namespace nnfab::onnx_import {
namespace {

// ai.onnx operator set versions the mapping was written against.
constexpr int64_t kMinOpset = 7;
constexpr int64_t kMaxOpset = 17;

Status malformed(ImportFailure* failure, const std::string& why) {
  if (failure != nullptr) *failure = ImportFailure::MALFORMED;
  return invalidArgument("not a valid ONNX model: " + why);
}

std::string valueType(const onnx::TypeProto& t) {
  switch (t.value_case()) {
    case onnx::TypeProto::kSequenceType: return "a sequence";
    case onnx::TypeProto::kOptionalType: return "an optional";
    case onnx::TypeProto::kMapType: return "a map";
    case onnx::TypeProto::kSparseTensorType: return "a sparse tensor";
    default: return "not a tensor";
  }
}

// Sequence / optional / map values anywhere (nnfab has tensors only).
Status checkTensorsOnly(const onnx::GraphProto& g) {
  auto check = [&](const onnx::ValueInfoProto& v, const char* role) -> Status {
    if (!v.has_type() || v.type().has_tensor_type()) return Status::ok();
    return invalidArgument(fmt::format("graph '{}': {} '{}' is {}; nnfab imports tensors only", g.name(), role,
                                       v.name(), valueType(v.type())));
  };
  for (const auto& v : g.input()) if (Status s = check(v, "input"); !s) return s;
  for (const auto& v : g.output()) if (Status s = check(v, "output"); !s) return s;
  for (const auto& v : g.value_info()) if (Status s = check(v, "value"); !s) return s;
  for (const auto& n : g.node()) {
    for (const auto& a : n.attribute()) {
      if (a.has_g()) if (Status s = checkTensorsOnly(a.g()); !s) return s;
      for (const auto& sub : a.graphs()) if (Status s = checkTensorsOnly(sub); !s) return s;
    }
  }
  return Status::ok();
}

// Every node (in nested graphs too) is one the converter maps. Checked before
// ONNX shape inference runs, which then only ever sees these operators: the
// inference functions of others can crash on hostile attributes (seen:
// LayerNormalization with a wild axis).
Status checkOperators(const onnx::GraphProto& g) {
  for (const auto& n : g.node()) {
    if (!n.domain().empty() && n.domain() != "ai.onnx") {
      return refuseNode(n, "operators of the domain '" + n.domain() + "' are not supported (only ai.onnx)");
    }
    if (!isMappedOperator(n.op_type())) {
      return refuseNode(n, "this operator is not supported by the nnfab ONNX importer (docs/onnx.md lists what is)");
    }
    for (const auto& a : n.attribute()) {
      if (a.has_g()) if (Status s = checkOperators(a.g()); !s) return s;
      for (const auto& sub : a.graphs()) if (Status s = checkOperators(sub); !s) return s;
    }
  }
  return Status::ok();
}

Result<ImportedModel> convert(onnx::ModelProto& proto, ImportFailure* failure) {
  int64_t opset = -1;
  for (const auto& o : proto.opset_import()) {
    if (o.domain().empty() || o.domain() == "ai.onnx") opset = o.version();
  }
  auto unsupported = [&](Status s) {
    if (failure != nullptr) *failure = ImportFailure::UNSUPPORTED;
    return s;
  };
  if (opset < kMinOpset || opset > kMaxOpset) {
    return unsupported(invalidArgument(fmt::format("the model uses ai.onnx operator set {}; nnfab imports {} to {}",
                                                   opset, kMinOpset, kMaxOpset)));
  }
  if (proto.functions_size() > 0) return unsupported(invalidArgument("model-local functions are not supported"));
  if (Status s = checkTensorsOnly(proto.graph()); !s) return unsupported(std::move(s));
  if (Status s = checkOperators(proto.graph()); !s) return unsupported(std::move(s));
  try {
    onnx::shape_inference::InferShapes(proto);
  } catch (const std::exception& e) {
    return unsupported(invalidArgument(std::string("ONNX shape inference failed: ") + e.what()));
  }

  ImportedModel out;
  Converter converter(&out.model, opset);
  converter.collectInfo(proto.graph());
  Scope main;
  const onnx::GraphProto& g = proto.graph();
  std::set<std::string> initialized;
  for (const auto& t : g.initializer()) initialized.insert(t.name());
  for (const auto& in : g.input()) {
    if (initialized.count(in.name())) continue;  // an overridable default: nnfab keeps the constant
    const auto& tt = in.type().tensor_type();
    auto type = operandTypeOf(tt.elem_type());
    if (!type) {
      return unsupported(invalidArgument(fmt::format("input '{}' has element type {}; nnfab imports FLOAT, INT32, "
                                                     "INT64 (narrowed) and BOOL",
                                                     in.name(), onnxTypeName(tt.elem_type()))));
    }
    OnnxDims dims;
    if (tt.has_shape()) {
      dims.emplace();
      for (const auto& d : tt.shape().dim()) dims->push_back(d.has_dim_value() && d.dim_value() > 0 ? d.dim_value() : -1);
    }
    const uint32_t operand = converter.addOperand(main, *type, toNnfabDims(dims), OperandLifeTime::SUBGRAPH_INPUT);
    converter.bind(main, in.name(), converter.operandValue(operand, *type, dims));
    out.model.main.inputIndexes.push_back(operand);
    out.inputNames.push_back(in.name());
  }
  if (Status s = converter.translateNodes(main, g); !s) return unsupported(std::move(s));
  for (const auto& o : g.output()) {
    auto v = converter.lookup(main, o.name());
    if (!v) return unsupported(std::move(v).takeStatus());
    if (auto type = operandTypeOf(o.type().tensor_type().elem_type()); o.type().has_tensor_type() && !type) {
      return unsupported(invalidArgument(fmt::format("output '{}' has element type {}", o.name(),
                                                     onnxTypeName(o.type().tensor_type().elem_type()))));
    }
    out.model.main.outputIndexes.push_back(converter.finishOutput(main, *v));
    out.outputNames.push_back(o.name());
  }
  if (out.model.main.outputIndexes.empty()) return unsupported(invalidArgument("the graph has no outputs"));
  return out;
}

}  // namespace

bool available() { return true; }

Result<ImportedModel> importModel(std::string_view bytes, ImportFailure* failure) {
  if (failure != nullptr) *failure = ImportFailure::NONE;
  GOOGLE_PROTOBUF_VERIFY_VERSION;
  onnx::ModelProto proto;
  if (bytes.size() > static_cast<size_t>(std::numeric_limits<int>::max())) return malformed(failure, "larger than 2 GiB");
  if (!proto.ParseFromArray(bytes.data(), static_cast<int>(bytes.size()))) {
    return malformed(failure, "the protobuf data is truncated or corrupt");
  }
  if (!proto.has_graph()) return malformed(failure, "it has no graph");
  try {
    onnx::checker::check_model(proto);
  } catch (const std::exception& e) {
    return malformed(failure, std::string("the ONNX checker refuses it: ") + e.what());
  }
  try {
    return convert(proto, failure);
  } catch (const std::exception& e) {  // protobuf / ONNX library errors never escape
    if (failure != nullptr) *failure = ImportFailure::UNSUPPORTED;
    return invalidArgument(std::string("import failed: ") + e.what());
  }
}

}  // namespace nnfab::onnx_import
