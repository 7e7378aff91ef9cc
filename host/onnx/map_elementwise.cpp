// Element-wise ONNX operators -> NNAPI operations (docs/onnx.md, "Mapping"):
// Add Sub Mul Div, Neg Abs Relu Floor Ceil, Max Min, comparisons, Not And Or
// Xor, Where, Cast. Shapes broadcast the same way in both (numpy rules), and
// rank-0 values are [1], which broadcasts like a scalar.
#include <fmt/format.h>

#include <algorithm>

#include "onnx/converter.h"

namespace nnfab::onnx_import {
namespace {

using OT = OperationType;
using T = OperandType;

OnnxDims broadcast(const OnnxDims& a, const OnnxDims& b) {
  if (!a || !b) return std::nullopt;
  const size_t rank = std::max(a->size(), b->size());
  std::vector<int64_t> out(rank);
  for (size_t i = 0; i < rank; ++i) {
    const int64_t da = i < rank - a->size() ? 1 : (*a)[i - (rank - a->size())];
    const int64_t db = i < rank - b->size() ? 1 : (*b)[i - (rank - b->size())];
    out[i] = da == 1 ? db : db == 1 ? da : (da == db ? da : -1);
  }
  return out;
}

bool numeric(T t) { return t == T::TENSOR_FLOAT32 || t == T::TENSOR_INT32; }

struct Binary {
  const char* onnx;
  OT op;
  bool comparison;
};
constexpr Binary kBinary[] = {
    {"Add", OT::ADD, false},          {"Sub", OT::SUB, false},
    {"Mul", OT::MUL, false},          {"Div", OT::DIV, false},
    {"Equal", OT::EQUAL, true},       {"Less", OT::LESS, true},
    {"LessOrEqual", OT::LESS_EQUAL, true}, {"Greater", OT::GREATER, true},
    {"GreaterOrEqual", OT::GREATER_EQUAL, true},
};

}  // namespace

Status Converter::mapIntDiv(Scope& scope, const onnx::NodeProto& node, const Value& a, const Value& b) {
  // ONNX integer Div truncates toward zero; NNAPI's INT32 DIV floors. Correct
  // the floored quotient q by one where a remainder is left and the signs
  // differ: trunc = q + (r != 0 && (a < 0) != (b < 0)), r = a - q*b.
  const OnnxDims dims = broadcast(a.dims, b.dims);
  const Dimensions nd = toNnfabDims(dims);
  const uint32_t x = operandOf(scope, a), y = operandOf(scope, b);
  const uint32_t q = arith(scope, OT::DIV, x, y, T::TENSOR_INT32, nd);
  const uint32_t r = arith(scope, OT::SUB, x, arith(scope, OT::MUL, q, y, T::TENSOR_INT32, nd), T::TENSOR_INT32, nd);
  const uint32_t rem = emit(scope, OT::NOT_EQUAL, {r, int32s(scope, {0})}, T::TENSOR_BOOL8, nd);
  const uint32_t an = emit(scope, OT::LESS, {x, int32s(scope, {0})}, T::TENSOR_BOOL8, toNnfabDims(a.dims));
  const uint32_t bn = emit(scope, OT::LESS, {y, int32s(scope, {0})}, T::TENSOR_BOOL8, toNnfabDims(b.dims));
  const uint32_t differ = emit(scope, OT::NOT_EQUAL, {an, bn}, T::TENSOR_BOOL8, nd);
  const uint32_t fix = emit(scope, OT::LOGICAL_AND, {rem, differ}, T::TENSOR_BOOL8, nd);
  const uint32_t q1 = arith(scope, OT::ADD, q, int32s(scope, {1}), T::TENSOR_INT32, nd);
  const uint32_t out = emit(scope, OT::SELECT, {fix, q1, q}, T::TENSOR_INT32, nd);
  bind(scope, node.output(0), operandValue(out, T::TENSOR_INT32, dims));
  return Status::ok();
}

Status Converter::mapCast(Scope& scope, const onnx::NodeProto& node) {
  auto x = input(scope, node, 0);
  if (!x) return std::move(x).takeStatus();
  const int64_t to = intAttribute(node, "to", -1);
  auto target = operandTypeOf(static_cast<int32_t>(to));
  if (!target) return refuse(node, "it casts to " + onnxTypeName(static_cast<int32_t>(to)) + ", which nnfab does not have");
  const OnnxDims dims = x->dims;
  if (*target == x->type) {  // includes INT64 <-> INT32, both TENSOR_INT32 here
    bind(scope, node.output(0), *x);
    return Status::ok();
  }
  const uint32_t in = operandOf(scope, *x);
  uint32_t out;
  if (*target == T::TENSOR_BOOL8) {  // nonzero (and NaN) -> true
    const uint32_t zero = x->type == T::TENSOR_FLOAT32 ? floats(scope, {0.0f}) : int32s(scope, {0});
    out = emit(scope, OT::NOT_EQUAL, {in, zero}, T::TENSOR_BOOL8, toNnfabDims(dims));
  } else if (x->type == T::TENSOR_BOOL8) {  // SELECT does not broadcast: constants of the full shape
    if (!fullyKnown(dims)) {
      return refuse(node, "a cast from BOOL needs a static shape (NNAPI has no BOOL8 CAST; it becomes SELECT "
                          "between constants of that shape), and the input's is " + dimsText(dims));
    }
    std::vector<int64_t> full = *dims;
    if (full.empty()) full = {1};
    const auto elements = elementsOf(full);
    if (!elements || *elements > kMaxSynthesizedElements) {
      return refuse(node, "a cast from BOOL of shape " + dimsText(dims) + " needs constants too large to make");
    }
    const size_t n = static_cast<size_t>(*elements);
    const uint32_t ones = *target == T::TENSOR_FLOAT32 ? floats(scope, std::vector<float>(n, 1.0f), full)
                                                       : int32s(scope, std::vector<int32_t>(n, 1), full);
    out = emit(scope, OT::SELECT, {in, ones, zerosOf(scope, *target, full)}, *target, toNnfabDims(dims));
  } else {
    out = emit(scope, OT::CAST, {in}, *target, toNnfabDims(dims));  // float -> int truncates, as in ONNX
  }
  bind(scope, node.output(0), operandValue(out, *target, dims));
  return Status::ok();
}

Result<bool> Converter::mapElementwise(Scope& scope, const onnx::NodeProto& node) {
  const std::string& op = node.op_type();
  if (op == "Cast") {
    if (Status s = mapCast(scope, node); !s) return s;
    return true;
  }
  auto outDims = [&](const OnnxDims& fallback) {
    OnnxDims d = inferredDims(node.output(0));
    return d ? d : fallback;
  };
  for (const Binary& b : kBinary) {
    if (op != b.onnx) continue;
    auto x = input(scope, node, 0);
    if (!x) return std::move(x).takeStatus();
    auto y = input(scope, node, 1);
    if (!y) return std::move(y).takeStatus();
    if (x->type != y->type) return refuse(node, "its inputs have different element types");
    if (!b.comparison && !numeric(x->type)) return refuse(node, fmt::format("{} has no {} variant", op, toString(x->type)));
    if (b.op == OT::DIV && x->type == T::TENSOR_INT32) {
      if (Status s = mapIntDiv(scope, node, *x, *y); !s) return s;
      return true;
    }
    const OnnxDims dims = outDims(broadcast(x->dims, y->dims));
    const T outType = b.comparison ? T::TENSOR_BOOL8 : x->type;
    const uint32_t a = operandOf(scope, *x), c = operandOf(scope, *y);
    const uint32_t out = b.comparison ? emit(scope, b.op, {a, c}, outType, toNnfabDims(dims))
                                      : arith(scope, b.op, a, c, outType, toNnfabDims(dims));
    bind(scope, node.output(0), operandValue(out, outType, dims));
    return true;
  }
  if (op == "And" || op == "Or" || op == "Xor") {
    auto x = input(scope, node, 0);
    if (!x) return std::move(x).takeStatus();
    auto y = input(scope, node, 1);
    if (!y) return std::move(y).takeStatus();
    if (x->type != T::TENSOR_BOOL8 || y->type != T::TENSOR_BOOL8) return refuse(node, "its inputs must be BOOL");
    const OT nn = op == "And" ? OT::LOGICAL_AND : op == "Or" ? OT::LOGICAL_OR : OT::NOT_EQUAL;
    const OnnxDims dims = outDims(broadcast(x->dims, y->dims));
    const uint32_t out = emit(scope, nn, {operandOf(scope, *x), operandOf(scope, *y)}, T::TENSOR_BOOL8, toNnfabDims(dims));
    bind(scope, node.output(0), operandValue(out, T::TENSOR_BOOL8, dims));
    return true;
  }
  if (op == "Not" || op == "Neg" || op == "Abs" || op == "Floor" || op == "Ceil" || op == "Relu") {
    auto x = input(scope, node, 0);
    if (!x) return std::move(x).takeStatus();
    const OnnxDims dims = x->dims ? x->dims : outDims(x->dims);
    const Dimensions nd = toNnfabDims(dims);
    const uint32_t in = operandOf(scope, *x);
    uint32_t out;
    if (op == "Not") {
      if (x->type != T::TENSOR_BOOL8) return refuse(node, "its input must be BOOL");
      out = emit(scope, OT::LOGICAL_NOT, {in}, x->type, nd);
    } else if (!numeric(x->type)) {
      return refuse(node, fmt::format("it has no {} variant", toString(x->type)));
    } else if (op == "Neg" || op == "Abs") {
      out = emit(scope, op == "Neg" ? OT::NEG : OT::ABS, {in}, x->type, nd);
    } else if (op == "Relu") {
      // MAXIMUM(x, 0) rather than NNAPI's RELU: it keeps NaN and +inf as ONNX
      // does (RELU gives 0 and FLT_MAX) and also takes INT32.
      const uint32_t zero = x->type == T::TENSOR_FLOAT32 ? floats(scope, {0.0f}) : int32s(scope, {0});
      out = emit(scope, OT::MAXIMUM, {in, zero}, x->type, nd);
    } else if (x->type != T::TENSOR_FLOAT32) {
      return refuse(node, "NNAPI's FLOOR takes TENSOR_FLOAT32 only");
    } else if (op == "Floor") {
      out = emit(scope, OT::FLOOR, {in}, x->type, nd);
    } else {  // Ceil(x) = -floor(-x)
      const uint32_t negated = emit(scope, OT::NEG, {in}, x->type, nd);
      out = emit(scope, OT::NEG, {emit(scope, OT::FLOOR, {negated}, x->type, nd)}, x->type, nd);
    }
    bind(scope, node.output(0), operandValue(out, x->type, dims));
    return true;
  }
  if (op == "Max" || op == "Min") {
    if (node.input_size() < 1) return refuse(node, "it has no inputs");
    auto acc = input(scope, node, 0);
    if (!acc) return std::move(acc).takeStatus();
    Value v = *acc;
    if (!numeric(v.type)) return refuse(node, fmt::format("it has no {} variant", toString(v.type)));
    for (int i = 1; i < node.input_size(); ++i) {
      auto y = input(scope, node, i);
      if (!y) return std::move(y).takeStatus();
      if (y->type != v.type) return refuse(node, "its inputs have different element types");
      const OnnxDims dims = i + 1 == node.input_size() ? outDims(broadcast(v.dims, y->dims)) : broadcast(v.dims, y->dims);
      const uint32_t out = emit(scope, op == "Max" ? OT::MAXIMUM : OT::MINIMUM,
                                {operandOf(scope, v), operandOf(scope, *y)}, v.type, toNnfabDims(dims));
      v = operandValue(out, v.type, dims);
    }
    bind(scope, node.output(0), v);
    return true;
  }
  if (op == "Where") {
    Value in[3];
    for (int i = 0; i < 3; ++i) {
      auto v = input(scope, node, i);
      if (!v) return std::move(v).takeStatus();
      in[i] = *v;
    }
    if (in[0].type != T::TENSOR_BOOL8 || in[1].type != in[2].type || !numeric(in[1].type)) {
      return refuse(node, "it needs a BOOL condition and two FLOAT or INT32/INT64 inputs of one type");
    }
    const OnnxDims dims = outDims(broadcast(in[0].dims, broadcast(in[1].dims, in[2].dims)));
    uint32_t ops[3];
    for (int i = 0; i < 3; ++i) {
      ops[i] = operandOf(scope, in[i]);
      if (fullyKnown(in[i].dims) && fullyKnown(dims) && toNnfabDims(in[i].dims) == toNnfabDims(dims)) continue;
      // SELECT does not broadcast: widen this input to the output's shape
      // (x + 0, or c OR false), which needs that shape to be static.
      if (!fullyKnown(dims)) {
        return refuse(node, "its inputs have different shapes and the output's shape " + dimsText(dims) +
                                " is not static (NNAPI's SELECT does not broadcast)");
      }
      std::vector<int64_t> full = dims->empty() ? std::vector<int64_t>{1} : *dims;
      if (auto n = elementsOf(full); !n || *n > kMaxSynthesizedElements) {
        return refuse(node, "widening an input to the output shape " + dimsText(dims) + " needs a constant too large to make");
      }
      const uint32_t zeros = zerosOf(scope, in[i].type, full);
      ops[i] = i == 0 ? emit(scope, OT::LOGICAL_OR, {ops[i], zeros}, T::TENSOR_BOOL8, toNnfabDims(dims))
                      : arith(scope, OT::ADD, ops[i], zeros, in[i].type, toNnfabDims(dims));
    }
    const uint32_t out = emit(scope, OT::SELECT, {ops[0], ops[1], ops[2]}, in[1].type, toNnfabDims(dims));
    bind(scope, node.output(0), operandValue(out, in[1].type, dims));
    return true;
  }
  return false;
}

}  // namespace nnfab::onnx_import
