// If, Loop and Scan -> IF and WHILE (docs/onnx.md, "Control flow").
//
// Loop(M, cond, v...) with body (i, cond_in, v_in...) -> (cond_out, v_out..., scan...)
// becomes WHILE with inputs
//   io:         v..., one accumulator [Mmax]+S per scan output, i (INT32 [1], from 0)
//   state-only: keep (BOOL8 [1]: the ONNX cond, or true when omitted)
//   input-only: M (when given), then the outer values the body reads (captures)
// cond subgraph: LOGICAL_AND(LESS(i, M), keep), or keep alone without M;
// body: the ONNX body, plus acc_out = SELECT(EQUAL(iota, i), acc + so, acc),
// i_out = i + 1, keep_out = cond_out. The body's cond_out is read after every
// iteration even when the Loop has no cond input (as ONNX Runtime does).
// After the loop, each scan output is SLICE(acc, 0, i_final rows): a loop
// that ran more than Mmax times makes that SLICE fail at run time rather
// than return a truncated result.
// Scan becomes the same WHILE with L = the scan axis's static length.
#include <fmt/format.h>

#include <algorithm>

#include "onnx/converter.h"

namespace nnfab::onnx_import {
namespace {

using OT = OperationType;
using T = OperandType;

// Dimensions that fit both a and b (unknown where they differ).
OnnxDims merge(const OnnxDims& a, const OnnxDims& b) {
  if (!a || !b || a->size() != b->size()) return std::nullopt;
  std::vector<int64_t> out(a->size());
  for (size_t i = 0; i < out.size(); ++i) out[i] = (*a)[i] == (*b)[i] ? (*a)[i] : -1;
  return out;
}

const onnx::GraphProto* graphAttribute(const onnx::NodeProto& node, const char* name) {
  for (const auto& a : node.attribute()) {
    if (a.name() == name && a.type() == onnx::AttributeProto::GRAPH) return &a.g();
  }
  return nullptr;
}

std::vector<int64_t> intsAttribute(const onnx::NodeProto& node, const char* name) {
  for (const auto& a : node.attribute()) {
    if (a.name() == name) return {a.ints().begin(), a.ints().end()};
  }
  return {};
}

// Elements of an accumulator that passed the size check below.
int64_t product(const std::vector<int64_t>& dims) { return elementsOf(dims).value_or(0); }

// Accumulators hold at most this many elements (iota and zeros are constants of that size).
bool accumulatorTooLarge(const std::vector<int64_t>& dims) {
  const auto n = elementsOf(dims);
  return !n || *n > kMaxSynthesizedElements || dims.size() > 4;
}

}  // namespace

Status Converter::mapIf(Scope& scope, const onnx::NodeProto& node) {
  auto cond = input(scope, node, 0);
  if (!cond) return std::move(cond).takeStatus();
  if (cond->type != T::TENSOR_BOOL8) return refuse(node, "its condition must be BOOL");
  if (cond->dims && !(cond->dims->empty() || *cond->dims == std::vector<int64_t>{1})) {
    return refuse(node, "its condition has shape " + dimsText(cond->dims) + "; IF needs a scalar or [1]");
  }
  const onnx::GraphProto* branches[2] = {graphAttribute(node, "then_branch"), graphAttribute(node, "else_branch")};
  if (!branches[0] || !branches[1]) return refuse(node, "it needs then_branch and else_branch graphs");
  if (branches[0]->output_size() != node.output_size() || branches[1]->output_size() != node.output_size()) {
    return refuse(node, "its branches and the node differ in their number of outputs");
  }
  auto caps = captures(scope, node, {branches[0], branches[1]});
  if (!caps) return std::move(caps).takeStatus();
  size_t indexes[2];
  std::vector<Value> results[2];
  for (int b = 0; b < 2; ++b) {
    indexes[b] = newSubgraph();
    Scope inner{&scope, indexes[b], {}, {}};
    std::vector<uint32_t> inputs;
    for (const auto& [name, v] : *caps) {
      const uint32_t in = addOperand(inner, v.type, subgraph(scope).operands[v.operand].dimensions,
                                     OperandLifeTime::SUBGRAPH_INPUT);
      bind(inner, name, operandValue(in, v.type, v.dims));
      inputs.push_back(in);
    }
    if (branches[b]->input_size() != 0) return refuse(node, "a branch graph has inputs, which If branches may not have");
    if (Status s = translateNodes(inner, *branches[b]); !s) return s;
    std::vector<uint32_t> outputs;
    for (const auto& o : branches[b]->output()) {
      auto v = lookup(inner, o.name());
      if (!v) return refuse(node, v.status().message());
      results[b].push_back(*v);
      outputs.push_back(finishOutput(inner, *v));
    }
    Subgraph& sg = subgraph(inner);
    sg.inputIndexes = std::move(inputs);
    sg.outputIndexes = std::move(outputs);
  }
  std::vector<uint32_t> ifInputs = {operandOf(scope, *cond), subgraphOperand(scope, indexes[0]),
                                    subgraphOperand(scope, indexes[1])};
  for (const auto& [name, v] : *caps) ifInputs.push_back(v.operand);
  Operation operation;
  operation.type = OT::IF;
  operation.inputs = std::move(ifInputs);
  for (int i = 0; i < node.output_size(); ++i) {
    const Value& t = results[0][static_cast<size_t>(i)];
    const Value& e = results[1][static_cast<size_t>(i)];
    if (t.type != e.type) return refuse(node, fmt::format("output {} has different types in the two branches", i));
    const OnnxDims dims = merge(t.dims, e.dims);
    const uint32_t out = addOperand(scope, t.type, toNnfabDims(dims));
    operation.outputs.push_back(out);
    bind(scope, node.output(i), operandValue(out, t.type, dims));
  }
  subgraph(scope).operations.push_back(std::move(operation));
  return Status::ok();
}

Status Converter::mapLoop(Scope& scope, const onnx::NodeProto& node) {
  const onnx::GraphProto* body = graphAttribute(node, "body");
  if (!body) return refuse(node, "it has no body graph");
  const int n = node.input_size() - 2;
  if (n < 0) return refuse(node, "it needs the M and cond inputs (either may be empty)");
  const int k = body->output_size() - 1 - n;
  if (body->input_size() != 2 + n || k < 0 || node.output_size() != n + k) {
    return refuse(node, "its body's inputs and outputs do not match the node's (2+N inputs, 1+N+K outputs)");
  }
  std::optional<Value> m, cond;
  if (hasInput(node, 0)) {
    auto v = input(scope, node, 0);
    if (!v) return std::move(v).takeStatus();
    if (v->type != T::TENSOR_INT32 || (v->dims && v->dims->size() > 1)) return refuse(node, "M must be an INT64 scalar");
    m = *v;
  }
  if (hasInput(node, 1)) {
    auto v = input(scope, node, 1);
    if (!v) return std::move(v).takeStatus();
    if (v->type != T::TENSOR_BOOL8 || (v->dims && v->dims->size() > 1)) return refuse(node, "cond must be a BOOL scalar");
    cond = *v;
  }
  std::vector<Value> initial;
  for (int j = 0; j < n; ++j) {
    auto v = input(scope, node, 2 + j);
    if (!v) return std::move(v).takeStatus();
    initial.push_back(*v);
  }
  // The accumulator bound: a constant M, else the declared first dimension
  // of every scan output.
  int64_t mmax = -1;
  if (k > 0) {
    // A constant M (unless it is an "unbounded" sentinel too large for an
    // accumulator), else a declared first dimension.
    if (m && m->isConstant() && m->constant->int32s().at(0) <= (int64_t{1} << 20)) mmax = m->constant->int32s().at(0);
    for (int s = 0; s < k && mmax <= 0; ++s) {
      const OnnxDims d = inferredDims(node.output(n + s));
      if (d && !d->empty() && (*d)[0] > 0) mmax = (*d)[0];
    }
    if (mmax <= 0) {
      return refuse(node, "its scan outputs need a bound on the iteration count: M is not a constant and no "
                          "scan output declares its first dimension");
    }
  }
  auto caps = captures(scope, node, {body});
  if (!caps) return std::move(caps).takeStatus();

  const size_t bodyIndex = newSubgraph();
  Scope inner{&scope, bodyIndex, {}, {}};
  // Loop-carried values keep their outer shape unless the body changes it.
  std::vector<uint32_t> carriedIn;
  std::vector<OnnxDims> carriedDims;
  for (int j = 0; j < n; ++j) {
    const OnnxDims bodyOut = inferredDims(body->output(1 + j).name());
    const OnnxDims use = bodyOut ? merge(initial[static_cast<size_t>(j)].dims, bodyOut) : initial[static_cast<size_t>(j)].dims;
    carriedDims.push_back(use);
    const uint32_t in = addOperand(inner, initial[static_cast<size_t>(j)].type, toNnfabDims(use), OperandLifeTime::SUBGRAPH_INPUT);
    carriedIn.push_back(in);
    bind(inner, body->input(2 + j).name(), operandValue(in, initial[static_cast<size_t>(j)].type, use));
  }
  const uint32_t i = addOperand(inner, T::TENSOR_INT32, {1}, OperandLifeTime::SUBGRAPH_INPUT);
  bind(inner, body->input(0).name(), operandValue(i, T::TENSOR_INT32, std::vector<int64_t>{}));
  const uint32_t keep = addOperand(inner, T::TENSOR_BOOL8, {1}, OperandLifeTime::SUBGRAPH_INPUT);
  bind(inner, body->input(1).name(), operandValue(keep, T::TENSOR_BOOL8, std::vector<int64_t>{}));
  std::optional<uint32_t> mIn;
  if (m) mIn = addOperand(inner, T::TENSOR_INT32, {1}, OperandLifeTime::SUBGRAPH_INPUT);
  std::vector<uint32_t> capIn;
  for (const auto& [name, v] : *caps) {
    capIn.push_back(addOperand(inner, v.type, subgraph(scope).operands[v.operand].dimensions, OperandLifeTime::SUBGRAPH_INPUT));
    bind(inner, name, operandValue(capIn.back(), v.type, v.dims));
  }
  if (Status s = translateNodes(inner, *body); !s) return s;

  std::vector<Value> outs;
  for (const auto& o : body->output()) {
    auto v = lookup(inner, o.name());
    if (!v) return refuse(node, v.status().message());
    outs.push_back(*v);
  }
  if (outs[0].type != T::TENSOR_BOOL8) return refuse(node, "its body's cond output must be BOOL");
  std::vector<uint32_t> bodyOutputs;
  for (int j = 0; j < n; ++j) {
    if (outs[static_cast<size_t>(1 + j)].type != initial[static_cast<size_t>(j)].type) {
      return refuse(node, fmt::format("loop-carried value {} changes its element type in the body", j));
    }
    bodyOutputs.push_back(finishOutput(inner, outs[static_cast<size_t>(1 + j)]));
  }
  // Scan outputs through fixed-size accumulators.
  std::vector<uint32_t> accIn;
  std::vector<std::vector<int64_t>> accDims;
  std::vector<T> accTypes;
  for (int s = 0; s < k; ++s) {
    const Value& so = outs[static_cast<size_t>(1 + n + s)];
    OnnxDims per = so.dims;
    if (!fullyKnown(per)) per = inferredDims(body->output(1 + n + s).name());
    if (!fullyKnown(per)) {
      const OnnxDims outer = inferredDims(node.output(n + s));
      if (fullyKnown(outer) && !outer->empty()) per = std::vector<int64_t>(outer->begin() + 1, outer->end());
    }
    if (!fullyKnown(per)) return refuse(node, "scan output " + std::to_string(s) + " needs a static per-iteration shape");
    if (so.type == T::TENSOR_BOOL8) return refuse(node, "BOOL scan outputs are not supported (NNAPI's SELECT has no BOOL8)");
    std::vector<int64_t> dims = {mmax};
    dims.insert(dims.end(), per->begin(), per->end());
    if (accumulatorTooLarge(dims)) {
      return refuse(node, "scan output " + std::to_string(s) + " needs an accumulator " + dimsText(dims) + ", too large (rank <= 4, <= 2^22 elements)");
    }
    const uint32_t acc = addOperand(inner, so.type, toNnfabDims(dims), OperandLifeTime::SUBGRAPH_INPUT);
    std::vector<int32_t> iota(static_cast<size_t>(product(dims)));
    const int64_t row = product(*per);
    for (size_t e = 0; e < iota.size(); ++e) iota[e] = static_cast<int32_t>(static_cast<int64_t>(e) / row);
    const Dimensions nd = toNnfabDims(dims);
    const uint32_t mask = emit(inner, OT::EQUAL, {int32s(inner, iota, dims), i}, T::TENSOR_BOOL8, nd);
    const uint32_t spread = arith(inner, OT::ADD, zerosOf(inner, so.type, dims), operandOf(inner, so), so.type, nd);
    const uint32_t next = emit(inner, OT::SELECT, {mask, spread, acc}, so.type, nd);
    subgraph(inner).operands[next].lifetime = OperandLifeTime::SUBGRAPH_OUTPUT;
    bodyOutputs.push_back(next);
    accIn.push_back(acc);
    accDims.push_back(dims);
    accTypes.push_back(so.type);
  }
  const uint32_t iNext = arith(inner, OT::ADD, i, int32s(inner, {1}), T::TENSOR_INT32, {1});
  subgraph(inner).operands[iNext].lifetime = OperandLifeTime::SUBGRAPH_OUTPUT;
  bodyOutputs.push_back(iNext);
  bodyOutputs.push_back(finishOutput(inner, outs[0]));
  std::vector<uint32_t> bodyInputs = carriedIn;
  bodyInputs.insert(bodyInputs.end(), accIn.begin(), accIn.end());
  bodyInputs.push_back(i);
  bodyInputs.push_back(keep);
  if (mIn) bodyInputs.push_back(*mIn);
  bodyInputs.insert(bodyInputs.end(), capIn.begin(), capIn.end());
  {
    Subgraph& sg = subgraph(inner);
    sg.inputIndexes = bodyInputs;
    sg.outputIndexes = bodyOutputs;
  }

  // The condition subgraph: same inputs, fresh operands.
  const size_t condIndex = newSubgraph();
  Scope condScope{&scope, condIndex, {}, {}};
  std::vector<uint32_t> condInputs;
  for (uint32_t b : bodyInputs) {
    const Operand& o = model_->referenced[bodyIndex - 1].operands[b];
    condInputs.push_back(addOperand(condScope, o.type, o.dimensions, OperandLifeTime::SUBGRAPH_INPUT));
  }
  const uint32_t ci = condInputs[static_cast<size_t>(n + k)];
  const uint32_t ckeep = condInputs[static_cast<size_t>(n + k + 1)];
  uint32_t condOut;
  if (m) {
    const uint32_t below = emit(condScope, OT::LESS, {ci, condInputs[static_cast<size_t>(n + k + 2)]}, T::TENSOR_BOOL8, {1});
    condOut = emit(condScope, OT::LOGICAL_AND, {below, ckeep}, T::TENSOR_BOOL8, {1});
  } else {
    condOut = emit(condScope, OT::CAST, {ckeep}, T::TENSOR_BOOL8, {1});
  }
  subgraph(condScope).operands[condOut].lifetime = OperandLifeTime::SUBGRAPH_OUTPUT;
  subgraph(condScope).inputIndexes = condInputs;
  subgraph(condScope).outputIndexes = {condOut};

  // The WHILE in the outer subgraph.
  Operation loop;
  loop.type = OT::WHILE;
  loop.inputs = {subgraphOperand(scope, condIndex), subgraphOperand(scope, bodyIndex)};
  for (const Value& v : initial) loop.inputs.push_back(operandOf(scope, v));
  for (size_t s = 0; s < accIn.size(); ++s) loop.inputs.push_back(zerosOf(scope, accTypes[s], accDims[s]));
  loop.inputs.push_back(int32s(scope, {0}));
  loop.inputs.push_back(cond ? operandOf(scope, *cond) : bools(scope, {1}));
  if (m) loop.inputs.push_back(operandOf(scope, *m));
  for (const auto& [name, v] : *caps) loop.inputs.push_back(v.operand);
  for (int j = 0; j < n; ++j) {
    const uint32_t out = addOperand(scope, initial[static_cast<size_t>(j)].type, toNnfabDims(carriedDims[static_cast<size_t>(j)]));
    loop.outputs.push_back(out);
    bind(scope, node.output(j), operandValue(out, initial[static_cast<size_t>(j)].type, carriedDims[static_cast<size_t>(j)]));
  }
  std::vector<uint32_t> accFinal;
  for (size_t s = 0; s < accIn.size(); ++s) {
    accFinal.push_back(addOperand(scope, accTypes[s], toNnfabDims(accDims[s])));
    loop.outputs.push_back(accFinal.back());
  }
  const uint32_t iFinal = addOperand(scope, T::TENSOR_INT32, {1});
  loop.outputs.push_back(iFinal);
  subgraph(scope).operations.push_back(std::move(loop));
  for (size_t s = 0; s < accFinal.size(); ++s) {
    const size_t rank = accDims[s].size();
    std::vector<int32_t> onehot(rank, 0), rest(rank, -1);
    onehot[0] = 1;
    rest[0] = 0;
    const Dimensions r = {static_cast<uint32_t>(rank)};
    const uint32_t size = rank == 1 ? iFinal
                                    : arith(scope, OT::ADD, arith(scope, OT::MUL, int32s(scope, onehot), iFinal, T::TENSOR_INT32, r),
                                            int32s(scope, rest), T::TENSOR_INT32, r);
    std::vector<int64_t> dims = accDims[s];
    dims[0] = -1;  // the iteration count
    const uint32_t out = emit(scope, OT::SLICE, {accFinal[s], int32s(scope, std::vector<int32_t>(rank, 0)), size},
                              accTypes[s], toNnfabDims(dims));
    bind(scope, node.output(n + static_cast<int>(s)), operandValue(out, accTypes[s], dims));
  }
  return Status::ok();
}

Status Converter::mapScan(Scope& scope, const onnx::NodeProto& node) {
  const onnx::GraphProto* body = graphAttribute(node, "body");
  if (!body) return refuse(node, "it has no body graph");
  const int64_t m = intAttribute(node, "num_scan_inputs", -1);
  const bool scan8 = opset() < 9;
  const int first = scan8 ? 1 : 0;  // Scan-8 starts with sequence_lens
  if (scan8 && hasInput(node, 0)) return refuse(node, "sequence_lens is not supported");
  const int states = node.input_size() - first - static_cast<int>(m);
  if (m <= 0 || states < 0) return refuse(node, "num_scan_inputs does not fit its inputs");
  for (const char* a : {"scan_input_axes", "scan_output_axes", "scan_input_directions", "scan_output_directions",
                        "directions"}) {
    for (int64_t v : intsAttribute(node, a)) {
      if (v != 0) return refuse(node, std::string(a) + " other than 0 is not supported");
    }
  }
  std::vector<Value> st, sc;
  for (int j = 0; j < states + static_cast<int>(m); ++j) {
    auto v = input(scope, node, first + j);
    if (!v) return std::move(v).takeStatus();
    (j < states ? st : sc).push_back(*v);
  }
  if (scan8) {  // batch axis 0 of size 1: drop it, scan, put it back
    for (Value& v : st) {
      if (!fullyKnown(v.dims) || v.dims->empty() || (*v.dims)[0] != 1) return refuse(node, "Scan-8 is supported with a static batch of 1 only");
      auto r = reshape(scope, node, v, std::vector<int64_t>(v.dims->begin() + 1, v.dims->end()));
      if (!r) return std::move(r).takeStatus();
      v = *r;
    }
    for (Value& v : sc) {
      if (!fullyKnown(v.dims) || v.dims->size() < 2 || (*v.dims)[0] != 1) return refuse(node, "Scan-8 is supported with a static batch of 1 only");
      auto r = reshape(scope, node, v, std::vector<int64_t>(v.dims->begin() + 1, v.dims->end()));
      if (!r) return std::move(r).takeStatus();
      v = *r;
    }
  }
  auto results = scanLoop(scope, node, *body, st, sc);
  if (!results) return std::move(results).takeStatus();
  for (size_t j = 0; j < results->size(); ++j) {
    Value v = (*results)[j];
    if (scan8) {
      std::vector<int64_t> dims = {1};
      dims.insert(dims.end(), v.dims->begin(), v.dims->end());
      auto r = reshape(scope, node, v, dims);
      if (!r) return std::move(r).takeStatus();
      v = *r;
    }
    bind(scope, node.output(static_cast<int>(j)), v);
  }
  return Status::ok();
}

Result<std::vector<Value>> Converter::scanLoop(Scope& scope, const onnx::NodeProto& node, const onnx::GraphProto& body,
                                               const std::vector<Value>& states, const std::vector<Value>& scans) {
  const size_t n = states.size();
  const int k = body.output_size() - static_cast<int>(n);
  if (body.input_size() != static_cast<int>(n + scans.size()) || k < 0 || node.output_size() != static_cast<int>(n) + k) {
    return refuse(node, "its body's inputs and outputs do not match the node's");
  }
  int64_t length = -1;
  for (const Value& x : scans) {
    if (!fullyKnown(x.dims) || x.dims->empty()) return refuse(node, "scan inputs need a static shape, got " + dimsText(x.dims));
    if (length >= 0 && (*x.dims)[0] != length) return refuse(node, "scan inputs differ in length");
    length = (*x.dims)[0];
  }
  if (length <= 0) return refuse(node, "the scan length must be static and at least 1");
  auto caps = captures(scope, node, {&body});
  if (!caps) return std::move(caps).takeStatus();

  const size_t bodyIndex = newSubgraph();
  Scope inner{&scope, bodyIndex, {}, {}};
  std::vector<uint32_t> stIn, scIn, capIn;
  for (size_t j = 0; j < n; ++j) {
    stIn.push_back(addOperand(inner, states[j].type, toNnfabDims(states[j].dims), OperandLifeTime::SUBGRAPH_INPUT));
    bind(inner, body.input(static_cast<int>(j)).name(), operandValue(stIn.back(), states[j].type, states[j].dims));
  }
  const uint32_t t = addOperand(inner, T::TENSOR_INT32, {1}, OperandLifeTime::SUBGRAPH_INPUT);
  for (size_t j = 0; j < scans.size(); ++j) {
    const Value& x = scans[j];
    scIn.push_back(addOperand(inner, x.type, toNnfabDims(x.dims), OperandLifeTime::SUBGRAPH_INPUT));
    const size_t rank = x.dims->size();
    std::vector<int32_t> onehot(rank, 0), size(rank, -1);
    onehot[0] = 1;
    size[0] = 1;
    const Dimensions r = {static_cast<uint32_t>(rank)};
    const uint32_t begin = rank == 1 ? t : arith(inner, OT::MUL, int32s(inner, onehot), t, T::TENSOR_INT32, r);
    std::vector<int64_t> rowDims = *x.dims;
    rowDims[0] = 1;
    const uint32_t row = emit(inner, OT::SLICE, {scIn.back(), begin, int32s(inner, size)}, x.type, toNnfabDims(rowDims));
    auto element = reshape(inner, node, operandValue(row, x.type, rowDims),
                           std::vector<int64_t>(rowDims.begin() + 1, rowDims.end()));
    if (!element) return std::move(element).takeStatus();
    bind(inner, body.input(static_cast<int>(n + j)).name(), *element);
  }
  for (const auto& [name, v] : *caps) {
    capIn.push_back(addOperand(inner, v.type, subgraph(scope).operands[v.operand].dimensions, OperandLifeTime::SUBGRAPH_INPUT));
    bind(inner, name, operandValue(capIn.back(), v.type, v.dims));
  }
  if (Status s = translateNodes(inner, body); !s) return s;
  std::vector<uint32_t> bodyOutputs, accIn;
  std::vector<std::vector<int64_t>> accDims;
  std::vector<T> accTypes;
  for (int j = 0; j < body.output_size(); ++j) {
    auto v = lookup(inner, body.output(j).name());
    if (!v) return refuse(node, v.status().message());
    if (j < static_cast<int>(n)) {
      if (v->type != states[static_cast<size_t>(j)].type) return refuse(node, "a state changes its element type in the body");
      bodyOutputs.push_back(finishOutput(inner, *v));
      continue;
    }
    OnnxDims per = fullyKnown(v->dims) ? v->dims : inferredDims(body.output(j).name());
    if (!fullyKnown(per)) return refuse(node, "scan output " + std::to_string(j - static_cast<int>(n)) + " needs a static shape");
    if (v->type == T::TENSOR_BOOL8) return refuse(node, "BOOL scan outputs are not supported (NNAPI's SELECT has no BOOL8)");
    std::vector<int64_t> dims = {length};
    dims.insert(dims.end(), per->begin(), per->end());
    if (accumulatorTooLarge(dims)) return refuse(node, "a scan output is too large " + dimsText(dims));
    const Dimensions nd = toNnfabDims(dims);
    const uint32_t acc = addOperand(inner, v->type, nd, OperandLifeTime::SUBGRAPH_INPUT);
    std::vector<int32_t> iota(static_cast<size_t>(product(dims)));
    const int64_t rowSize = product(*per);
    for (size_t e = 0; e < iota.size(); ++e) iota[e] = static_cast<int32_t>(static_cast<int64_t>(e) / rowSize);
    const uint32_t mask = emit(inner, OT::EQUAL, {int32s(inner, iota, dims), t}, T::TENSOR_BOOL8, nd);
    const uint32_t spread = arith(inner, OT::ADD, zerosOf(inner, v->type, dims), operandOf(inner, *v), v->type, nd);
    const uint32_t next = emit(inner, OT::SELECT, {mask, spread, acc}, v->type, nd);
    subgraph(inner).operands[next].lifetime = OperandLifeTime::SUBGRAPH_OUTPUT;
    bodyOutputs.push_back(next);
    accIn.push_back(acc);
    accDims.push_back(dims);
    accTypes.push_back(v->type);
  }
  const uint32_t tNext = arith(inner, OT::ADD, t, int32s(inner, {1}), T::TENSOR_INT32, {1});
  subgraph(inner).operands[tNext].lifetime = OperandLifeTime::SUBGRAPH_OUTPUT;
  bodyOutputs.push_back(tNext);
  std::vector<uint32_t> bodyInputs = stIn;
  bodyInputs.insert(bodyInputs.end(), accIn.begin(), accIn.end());
  bodyInputs.push_back(t);
  bodyInputs.insert(bodyInputs.end(), scIn.begin(), scIn.end());
  bodyInputs.insert(bodyInputs.end(), capIn.begin(), capIn.end());
  subgraph(inner).inputIndexes = bodyInputs;
  subgraph(inner).outputIndexes = bodyOutputs;

  const size_t condIndex = newSubgraph();
  Scope condScope{&scope, condIndex, {}, {}};
  std::vector<uint32_t> condInputs;
  for (uint32_t b : bodyInputs) {
    const Operand& o = model_->referenced[bodyIndex - 1].operands[b];
    condInputs.push_back(addOperand(condScope, o.type, o.dimensions, OperandLifeTime::SUBGRAPH_INPUT));
  }
  const uint32_t ct = condInputs[n + accIn.size()];
  const uint32_t condOut = emit(condScope, OT::LESS, {ct, int32s(condScope, {static_cast<int32_t>(length)})}, T::TENSOR_BOOL8, {1});
  subgraph(condScope).operands[condOut].lifetime = OperandLifeTime::SUBGRAPH_OUTPUT;
  subgraph(condScope).inputIndexes = condInputs;
  subgraph(condScope).outputIndexes = {condOut};

  Operation loop;
  loop.type = OT::WHILE;
  loop.inputs = {subgraphOperand(scope, condIndex), subgraphOperand(scope, bodyIndex)};
  for (const Value& v : states) loop.inputs.push_back(operandOf(scope, v));
  for (size_t s = 0; s < accIn.size(); ++s) loop.inputs.push_back(zerosOf(scope, accTypes[s], accDims[s]));
  loop.inputs.push_back(int32s(scope, {0}));
  for (const Value& v : scans) loop.inputs.push_back(operandOf(scope, v));
  for (const auto& [name, v] : *caps) loop.inputs.push_back(v.operand);
  std::vector<Value> results;
  for (const Value& v : states) {
    const uint32_t out = addOperand(scope, v.type, toNnfabDims(v.dims));
    loop.outputs.push_back(out);
    results.push_back(operandValue(out, v.type, v.dims));
  }
  for (size_t s = 0; s < accIn.size(); ++s) {
    const uint32_t out = addOperand(scope, accTypes[s], toNnfabDims(accDims[s]));
    loop.outputs.push_back(out);
    results.push_back(operandValue(out, accTypes[s], accDims[s]));
  }
  loop.outputs.push_back(addOperand(scope, T::TENSOR_INT32, {1}));
  subgraph(scope).operations.push_back(std::move(loop));
  return results;
}

}  // namespace nnfab::onnx_import
