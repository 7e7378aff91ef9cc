// ONNX operators that move data rather than compute it, and the matrix
// products: Constant, Identity, Reshape, Unsqueeze, Squeeze, Slice, MatMul,
// Gemm (docs/onnx.md, "Mapping"). Shape arguments must be constants, because
// NNAPI 1.3 has no SHAPE operation; Slice's starts/ends may be computed (one axis).
#include <fmt/format.h>

#include <algorithm>
#include <cstring>

#include "onnx/converter.h"

namespace nnfab::onnx_import {
namespace {

using OT = OperationType;
using T = OperandType;

Value constantValue(Constant c) {
  Value v;
  v.type = c.type;
  v.dims = c.dims;
  v.constant = std::move(c);
  return v;
}

std::vector<int64_t> intsOf(const onnx::AttributeProto& a) { return {a.ints().begin(), a.ints().end()}; }

}  // namespace

Result<bool> Converter::mapShapes(Scope& scope, const onnx::NodeProto& node) {
  const std::string& op = node.op_type();
  if (op == "Constant") {
    if (node.attribute_size() != 1) return refuse(node, "it must have exactly one value attribute");
    const auto& a = node.attribute(0);
    Constant c;
    if (a.name() == "value") {
      auto t = constantFromProto(a.t());
      if (!t) return refuse(node, t.status().message());
      c = std::move(*t);
    } else if (a.name() == "value_float" || a.name() == "value_floats") {
      std::vector<float> v = a.name() == "value_float" ? std::vector<float>{a.f()}
                                                       : std::vector<float>(a.floats().begin(), a.floats().end());
      c.type = T::TENSOR_FLOAT32;
      if (a.name() == "value_floats") c.dims = {static_cast<int64_t>(v.size())};
      c.bytes.resize(v.size() * 4);
      if (!v.empty()) std::memcpy(c.bytes.data(), v.data(), c.bytes.size());
    } else if (a.name() == "value_int" || a.name() == "value_ints") {
      std::vector<int64_t> wide = a.name() == "value_int" ? std::vector<int64_t>{a.i()} : intsOf(a);
      std::vector<int32_t> v;
      for (int64_t w : wide) {
        auto n = narrowInt64(w);
        if (!n) return refuse(node, fmt::format("the INT64 value {} does not fit in INT32", w));
        v.push_back(*n);
      }
      c.type = T::TENSOR_INT32;
      if (a.name() == "value_ints") c.dims = {static_cast<int64_t>(v.size())};
      c.bytes.resize(v.size() * 4);
      if (!v.empty()) std::memcpy(c.bytes.data(), v.data(), c.bytes.size());
    } else {
      return refuse(node, "its attribute '" + a.name() + "' (strings, sparse tensors) is not supported");
    }
    bind(scope, node.output(0), constantValue(std::move(c)));
    return true;
  }
  if (op == "Identity") {
    auto x = input(scope, node, 0);
    if (!x) return std::move(x).takeStatus();
    bind(scope, node.output(0), *x);  // an alias; finishOutput adds a CAST where an output needs one
    return true;
  }
  if (op == "Reshape" || op == "Unsqueeze" || op == "Squeeze") {
    auto x = input(scope, node, 0);
    if (!x) return std::move(x).takeStatus();
    std::vector<int64_t> arg;
    const bool fromInput = op == "Reshape" ? opset() >= 5 : opset() >= 13;
    if (fromInput) {
      if (hasInput(node, 1)) {
        auto c = constantInput(scope, node, 1, op == "Reshape" ? "shape" : "axes");
        if (!c) return std::move(c).takeStatus();
        for (int32_t v : c->int32s()) arg.push_back(v);
      }
    } else if (const auto* a = attribute(node, op == "Reshape" ? "shape" : "axes")) {
      arg = intsOf(*a);
    }
    const OnnxDims in = x->dims;
    std::vector<int64_t> out;
    if (op == "Reshape") {
      if (!fromInput && arg.empty()) return refuse(node, "it has no shape");
      const bool allowZero = intAttribute(node, "allowzero", 0) != 0;
      for (size_t i = 0; i < arg.size(); ++i) {
        int64_t d = arg[i];
        if (d == 0 && !allowZero) {  // 0 copies the input's dimension
          if (!in || i >= in->size() || (*in)[i] < 0) {
            return refuse(node, "its shape copies dimension " + std::to_string(i) + " (0) of an input whose shape is " + dimsText(in));
          }
          d = (*in)[i];
        } else if (d == 0) {
          return refuse(node, "allowzero=1 with a 0 in the shape makes an empty tensor, which nnfab cannot declare");
        } else if (d < -1) {
          return refuse(node, fmt::format("its shape has the entry {}", d));
        }
        out.push_back(d);
      }
      // Resolve -1 where the input's size is static.
      if (fullyKnown(in) && std::count(out.begin(), out.end(), -1) == 1) {
        std::vector<int64_t> rest;
        for (int64_t d : out) rest.push_back(d < 0 ? 1 : d);
        const auto total = elementsOf(*in), known = elementsOf(rest);
        if (!total || !known) return refuse(node, "its shapes are too large");
        if (*known == 0 || *total % *known != 0) return refuse(node, "its shape does not match the input's element count");
        std::replace(out.begin(), out.end(), int64_t{-1}, *total / *known);
      }
    } else {
      if (!in) return refuse(node, "its input's rank is not known");
      const int64_t outRank = static_cast<int64_t>(in->size()) + (op == "Unsqueeze" ? static_cast<int64_t>(arg.size()) : 0);
      std::vector<bool> marked(static_cast<size_t>(op == "Unsqueeze" ? outRank : static_cast<int64_t>(in->size())), false);
      for (int64_t a : arg) {
        const int64_t r = static_cast<int64_t>(marked.size());
        if (a < -r || a >= r) return refuse(node, fmt::format("axis {} is out of range for rank {}", a, r));
        marked[static_cast<size_t>(a < 0 ? a + r : a)] = true;
      }
      if (op == "Unsqueeze") {
        size_t k = 0;
        for (size_t i = 0; i < marked.size(); ++i) out.push_back(marked[i] ? 1 : (*in)[k++]);
      } else {
        for (size_t i = 0; i < in->size(); ++i) {
          const int64_t d = (*in)[i];
          if (arg.empty() && d < 0) return refuse(node, "squeezing every 1 needs a static input shape, got " + dimsText(in));
          if (marked[i] && d != 1 && d >= 0) return refuse(node, fmt::format("dimension {} is {}, not 1", i, d));
          if (!(marked[i] || (arg.empty() && d == 1))) out.push_back(d);
        }
      }
    }
    auto v = reshape(scope, node, *x, out);
    if (!v) return std::move(v).takeStatus();
    bind(scope, node.output(0), *v);
    return true;
  }
  if (op == "Slice") {
    if (Status s = mapSlice(scope, node); !s) return s;
    return true;
  }
  if (op == "MatMul" || op == "Gemm") {
    if (Status s = mapMatMul(scope, node, op == "Gemm"); !s) return s;
    return true;
  }
  return false;
}

Status Converter::mapSlice(Scope& scope, const onnx::NodeProto& node) {
  auto x = input(scope, node, 0);
  if (!x) return std::move(x).takeStatus();
  if (!x->dims || x->dims->empty()) return refuse(node, "its data must have a known rank of at least 1, got " + dimsText(x->dims));
  const auto& dims = *x->dims;
  const int64_t rank = static_cast<int64_t>(dims.size());
  std::optional<Value> starts, ends;
  std::vector<int64_t> axes;
  if (opset() < 10) {
    const auto* s = attribute(node, "starts");
    const auto* e = attribute(node, "ends");
    if (s == nullptr || e == nullptr) return refuse(node, "it needs starts and ends");
    auto asConstant = [](const std::vector<int64_t>& v) {
      Constant c;
      c.type = T::TENSOR_INT32;
      c.dims = {static_cast<int64_t>(v.size())};
      for (int64_t w : v) {
        const int32_t n = narrowInt64(w).value_or(w < 0 ? INT32_MIN : INT32_MAX);  // Slice clamps anyway
        c.bytes.insert(c.bytes.end(), reinterpret_cast<const uint8_t*>(&n), reinterpret_cast<const uint8_t*>(&n) + 4);
      }
      return constantValue(std::move(c));
    };
    starts = asConstant(intsOf(*s));
    ends = asConstant(intsOf(*e));
    if (const auto* a = attribute(node, "axes")) axes = intsOf(*a);
  } else {
    auto s = input(scope, node, 1);
    if (!s) return std::move(s).takeStatus();
    auto e = input(scope, node, 2);
    if (!e) return std::move(e).takeStatus();
    starts = *s;
    ends = *e;
    if (hasInput(node, 3)) {
      auto a = constantInput(scope, node, 3, "axes");
      if (!a) return std::move(a).takeStatus();
      for (int32_t v : a->int32s()) axes.push_back(v);
    }
    if (hasInput(node, 4)) {
      auto st = constantInput(scope, node, 4, "steps");
      if (!st) return std::move(st).takeStatus();
      for (int32_t v : st->int32s()) {
        if (v != 1) return refuse(node, "steps other than 1 are not supported (NNAPI's SLICE has none)");
      }
    }
  }
  if (starts->type != T::TENSOR_INT32 || ends->type != T::TENSOR_INT32) return refuse(node, "starts and ends must be integers");
  const auto count = [](const Value& v) -> int64_t {
    if (v.isConstant()) return static_cast<int64_t>(v.constant->count());
    return v.dims && v.dims->size() == 1 ? (*v.dims)[0] : -1;
  };
  const int64_t n = count(*starts);
  if (n < 0 || count(*ends) != n) return refuse(node, "starts and ends must be 1-D of one static length");
  if (axes.empty()) {
    for (int64_t i = 0; i < n; ++i) axes.push_back(i);
  }
  if (static_cast<int64_t>(axes.size()) != n) return refuse(node, "axes and starts differ in length");
  for (int64_t& a : axes) {
    if (a < -rank || a >= rank) return refuse(node, fmt::format("axis {} is out of range for rank {}", a, rank));
    if (a < 0) a += rank;
    if (dims[static_cast<size_t>(a)] < 0) return refuse(node, "the sliced dimension " + std::to_string(a) + " must be static, the data's shape is " + dimsText(x->dims));
  }
  const OnnxDims outDims = inferredDims(node.output(0));
  std::vector<int32_t> begin(static_cast<size_t>(rank), 0), size(static_cast<size_t>(rank), -1);
  if (starts->isConstant() && ends->isConstant()) {
    const auto s = starts->constant->int32s(), e = ends->constant->int32s();
    std::vector<int64_t> shape = dims;
    for (size_t k = 0; k < axes.size(); ++k) {
      const int64_t d = dims[static_cast<size_t>(axes[k])];
      auto clampIndex = [d](int64_t i) { return std::clamp(i < 0 ? i + d : i, int64_t{0}, d); };
      const int64_t b = clampIndex(s[k]), en = clampIndex(e[k]);
      begin[static_cast<size_t>(axes[k])] = static_cast<int32_t>(b);
      size[static_cast<size_t>(axes[k])] = static_cast<int32_t>(std::max<int64_t>(0, en - b));
      shape[static_cast<size_t>(axes[k])] = std::max<int64_t>(0, en - b);
    }
    if (std::find(shape.begin(), shape.end(), 0) != shape.end()) {
      return refuse(node, "the slice is empty, and nnfab cannot declare an empty tensor");
    }
    const uint32_t out = emit(scope, OT::SLICE, {operandOf(scope, *x), int32s(scope, begin), int32s(scope, size)},
                              x->type, toNnfabDims(shape));
    bind(scope, node.output(0), operandValue(out, x->type, shape));
    return Status::ok();
  }
  if (n != 1) return refuse(node, "computed starts/ends are supported on one axis only");
  // ONNX clamps: i < 0 -> i + d, then into [0, d]; size = max(0, end - start).
  const int64_t axis = axes[0];
  const int32_t d = static_cast<int32_t>(dims[static_cast<size_t>(axis)]);
  const Dimensions one = {1};
  auto clampIndex = [&](const Value& v) {
    const uint32_t i = operandOf(scope, v);
    const uint32_t wrapped = arith(scope, OT::ADD, i, int32s(scope, {d}), T::TENSOR_INT32, one);
    const uint32_t negative = emit(scope, OT::LESS, {i, int32s(scope, {0})}, T::TENSOR_BOOL8, one);
    const uint32_t fixed = emit(scope, OT::SELECT, {negative, wrapped, i}, T::TENSOR_INT32, one);
    const uint32_t low = emit(scope, OT::MAXIMUM, {fixed, int32s(scope, {0})}, T::TENSOR_INT32, one);
    return emit(scope, OT::MINIMUM, {low, int32s(scope, {d})}, T::TENSOR_INT32, one);
  };
  const uint32_t b = clampIndex(*starts), e = clampIndex(*ends);
  const uint32_t length = emit(scope, OT::MAXIMUM, {arith(scope, OT::SUB, e, b, T::TENSOR_INT32, one), int32s(scope, {0})},
                               T::TENSOR_INT32, one);
  uint32_t beginOp = b, sizeOp = length;
  if (rank > 1) {  // [0..b..0] and [-1..size..-1]
    std::vector<int32_t> onehot(static_cast<size_t>(rank), 0), rest(static_cast<size_t>(rank), -1);
    onehot[static_cast<size_t>(axis)] = 1;
    rest[static_cast<size_t>(axis)] = 0;
    const Dimensions r = {static_cast<uint32_t>(rank)};
    beginOp = arith(scope, OT::MUL, int32s(scope, onehot), b, T::TENSOR_INT32, r);
    sizeOp = arith(scope, OT::ADD, arith(scope, OT::MUL, int32s(scope, onehot), length, T::TENSOR_INT32, r),
                   int32s(scope, rest), T::TENSOR_INT32, r);
  }
  std::vector<int64_t> shape = dims;
  shape[static_cast<size_t>(axis)] = -1;
  OnnxDims declared = shape;
  if (fullyKnown(outDims) && outDims->size() == shape.size()) declared = outDims;
  const uint32_t out = emit(scope, OT::SLICE, {operandOf(scope, *x), beginOp, sizeOp}, x->type, toNnfabDims(declared));
  bind(scope, node.output(0), operandValue(out, x->type, declared));
  return Status::ok();
}

Status Converter::mapMatMul(Scope& scope, const onnx::NodeProto& node, bool gemm) {
  auto a = input(scope, node, 0);
  if (!a) return std::move(a).takeStatus();
  auto bIn = constantInput(scope, node, 1, "B (the weights; NNAPI's FULLY_CONNECTED takes them as an operand, "
                                           "but nnfab transposes them at import)");
  if (!bIn) return std::move(bIn).takeStatus();
  if (a->type != T::TENSOR_FLOAT32 || bIn->type != T::TENSOR_FLOAT32) {
    return refuse(node, "FULLY_CONNECTED takes TENSOR_FLOAT32 only");
  }
  if (!a->dims || a->dims->size() != 2) return refuse(node, "A must have rank 2 (batched products have no NNAPI 1.3 equivalent), got " + dimsText(a->dims));
  if (bIn->dims.size() != 2) return refuse(node, "B must have rank 2");
  if (gemm && intAttribute(node, "transA", 0) != 0) return refuse(node, "transA=1 needs TRANSPOSE, which nnfab does not have");
  const bool transB = gemm && intAttribute(node, "transB", 0) != 0;
  float alpha = 1.0f, beta = 1.0f;
  if (gemm) {
    if (const auto* x = attribute(node, "alpha")) alpha = x->f();
    if (const auto* x = attribute(node, "beta")) beta = x->f();
  }
  const int64_t k = transB ? bIn->dims[1] : bIn->dims[0];
  const int64_t units = transB ? bIn->dims[0] : bIn->dims[1];
  if ((*a->dims)[1] >= 0 && (*a->dims)[1] != k) return refuse(node, "the inner dimensions of A and B differ");
  // FULLY_CONNECTED wants weights [units, k]: B as given when transB, else B transposed.
  const std::vector<float> b = bIn->floats();
  std::vector<float> weights(static_cast<size_t>(units * k));
  for (int64_t u = 0; u < units; ++u) {
    for (int64_t i = 0; i < k; ++i) {
      const float w = transB ? b[static_cast<size_t>(u * k + i)] : b[static_cast<size_t>(i * units + u)];
      weights[static_cast<size_t>(u * k + i)] = alpha * w;
    }
  }
  std::vector<float> bias(static_cast<size_t>(units), 0.0f);
  if (gemm && hasInput(node, 2)) {
    auto c = constantInput(scope, node, 2, "C (the bias)");
    if (!c) return std::move(c).takeStatus();
    const std::vector<float> cv = c->type == T::TENSOR_FLOAT32 ? c->floats() : std::vector<float>{};
    const bool rowVector = c->dims.size() <= 1 || (c->dims.size() == 2 && c->dims[0] == 1);
    if (cv.empty() || !rowVector || (cv.size() != 1 && cv.size() != bias.size())) {
      return refuse(node, "C must be a FLOAT constant of 1 or N elements (FULLY_CONNECTED's bias), got " + dimsText(c->dims));
    }
    for (size_t u = 0; u < bias.size(); ++u) bias[u] = beta * cv[cv.size() == 1 ? 0 : u];
  }
  const OnnxDims dims = std::vector<int64_t>{(*a->dims)[0], units};
  const uint32_t out = emit(scope, OT::FULLY_CONNECTED,
                            {a->isConstant() ? constantOperand(scope, *a->constant) : a->operand,
                             floats(scope, weights, {units, k}), floats(scope, bias, {units}), activationNone(scope)},
                            T::TENSOR_FLOAT32, toNnfabDims(dims));
  bind(scope, node.output(0), operandValue(out, T::TENSOR_FLOAT32, dims));
  return Status::ok();
}

}  // namespace nnfab::onnx_import
