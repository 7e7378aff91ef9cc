#include "support/random_model.h"

#include <algorithm>
#include <bit>
#include <cstring>
#include <limits>
#include <set>

namespace nnfab::testing {

uint64_t RandomSource::below(uint64_t n) {
  // 2^64 mod n values at the top of the range would make small results more
  // likely; redraw them.
  const uint64_t excess = (std::numeric_limits<uint64_t>::max() % n + 1) % n;
  for (;;) {
    const uint64_t x = next();
    if (excess == 0 || x < 0 - excess) return x % n;
  }
}

RandomSource::RandomSource(std::span<const uint8_t> bytes) : bytes_(bytes) {
  // FNV-1a over the bytes: the engine that takes over when they run out.
  uint64_t hash = 0xcbf29ce484222325ull;
  for (uint8_t b : bytes) hash = (hash ^ b) * 0x100000001b3ull;
  engine_.seed(hash);
}

uint64_t RandomSource::fromBytes() {
  uint64_t x = 0;
  const size_t n = std::min<size_t>(8, bytes_.size() - offset_);
  std::memcpy(&x, bytes_.data() + offset_, n);
  offset_ += n;
  return x;
}

int64_t RandomSource::range(int64_t lo, int64_t hi) {
  const uint64_t span = static_cast<uint64_t>(hi) - static_cast<uint64_t>(lo) + 1;
  if (span == 0) return static_cast<int64_t>(next());
  return static_cast<int64_t>(static_cast<uint64_t>(lo) + below(span));
}

namespace {

constexpr auto I32 = OperandType::TENSOR_INT32;
constexpr auto B8 = OperandType::TENSOR_BOOL8;
constexpr auto F32 = OperandType::TENSOR_FLOAT32;
constexpr int32_t kMin = std::numeric_limits<int32_t>::min();
constexpr int32_t kMax = std::numeric_limits<int32_t>::max();

int32_t randomInt32(RandomSource& rng) {
  static const std::vector<int32_t> kEdges = {kMin, kMax, -1, 0, 1, kMin + 1, kMax - 1, 2, -2};
  switch (rng.below(10)) {
    case 0:
    case 1:
    case 2:
      return rng.pick(kEdges);
    case 3:
      return static_cast<int32_t>(static_cast<uint32_t>(rng.next()));
    default:
      return static_cast<int32_t>(rng.range(-10, 10));
  }
}

// The FLOAT32 edge values of docs/isa.md "FLOAT32 numerics": signed
// zeros, subnormals (smallest, largest, negative), the smallest normal,
// infinities, NaNs (quiet, with a payload, signalling), the largest finite
// values (sums and products overflow) and values whose sums, products and
// quotients land on the halfway point between two floats (1 + 2^-23,
// 2^-24, 3 * 2^-25, 1.5 * 2^-126).
float edgeFloat(RandomSource& rng) {
  static const std::vector<uint32_t> kBits = {
      0x00000000, 0x80000000, 0x00000001, 0x807FFFFF, 0x007FFFFF, 0x00800000, 0x7F800000, 0xFF800000,
      0x7FC00000, 0xFFC12345, 0x7F800001, 0x7F7FFFFF, 0xFF7FFFFF, 0x3F800001, 0x33800000, 0x33C00000,
      0x00C00000, 0x4B000001, 0x3F7FFFFF};
  return std::bit_cast<float>(rng.pick(kBits));
}

// Halves of small integers: exact in float and in the JSON writer's decimal
// form; some integers, and with edges, some edge values.
float randomFloat(RandomSource& rng, bool edges = false) {
  if (edges && rng.percent(20)) return edgeFloat(rng);
  if (rng.percent(10)) return static_cast<float>(randomInt32(rng));
  return static_cast<float>(rng.range(-16, 16)) * 0.5f;
}

size_t elements(const Dimensions& dims) {
  size_t n = 1;
  for (uint32_t d : dims) n *= d;
  return n;
}

template <typename T>
std::vector<uint8_t> bytesOf(const std::vector<T>& values) {
  std::vector<uint8_t> bytes(values.size() * sizeof(T));
  if (!bytes.empty()) std::memcpy(bytes.data(), values.data(), bytes.size());
  return bytes;
}

// `a` broadcasts to exactly `d`: trailing alignment, each size equal or 1.
bool fits(const Dimensions& a, const Dimensions& d) {
  if (a.size() > d.size()) return false;
  for (size_t i = 0; i < a.size(); ++i) {
    const uint32_t x = a[a.size() - 1 - i];
    if (x != 1 && x != d[d.size() - 1 - i]) return false;
  }
  return true;
}

Dimensions broadcast(const Dimensions& a, const Dimensions& b) {
  const Dimensions& longer = a.size() >= b.size() ? a : b;
  const Dimensions& shorter = a.size() >= b.size() ? b : a;
  Dimensions out = longer;
  const size_t offset = longer.size() - shorter.size();
  for (size_t i = 0; i < shorter.size(); ++i) out[offset + i] = std::max(out[offset + i], shorter[i]);
  return out;
}

struct Spec {
  OperandType type = I32;
  Dimensions dims;
};

struct Value {
  uint32_t operand = 0;
  OperandType type = I32;
  Dimensions dims;
  bool temporary = false;  // written by an operation of this subgraph
};

class ModelGen;

// Builds one subgraph: a pool of values (inputs, constants, results) from
// which operations draw their operands, so that every operation is in
// execution order and every shape is broadcast-compatible.
class SubgraphGen {
 public:
  SubgraphGen(ModelGen& model, uint32_t depth, const std::vector<Spec>& inputs);

  const std::vector<Value>& inputs() const { return inputs_; }
  // Outputs of dynamic IFs (unknown shape): never operands, always main outputs.
  const std::vector<Value>& dynamicResults() const { return dynamicResults_; }
  void emitRandomOperations(uint32_t count);
  // A value of exactly this type and shape, written by an operation here and
  // not yet an output.
  Value produce(const Spec& spec);
  Value constant(OperandType type, const Dimensions& dims);
  Value constantInt32(const Dimensions& dims, int32_t v);
  Value emit(OperationType op, const std::vector<Value>& in, OperandType outType);
  Value scalarCondition();
  // Outputs in subgraph output order.
  void setOutputs(const std::vector<Value>& outputs);
  bool isOutput(uint32_t operand) const { return outputSet_.count(operand) != 0; }
  const Value* find(OperandType type, bool (*pred)(const Value&, const Dimensions&),
                    const Dimensions& d, bool temporariesOnly = false);
  Subgraph take() { return std::move(sg_); }

 private:
  uint32_t addOperand(OperandType type, const Dimensions& dims, OperandLifeTime lifetime);
  Value anyValue(OperandType type);
  Value anyFitting(OperandType type, const Dimensions& d);
  OperandType randomType();
  void emitRandom();
  void emitArithmetic(OperandType type);
  void emitComparison(OperandType type);
  void emitSelect(OperandType type);
  void emitCast();
  void emitFullyConnected();
  void emitIf();
  void emitWhile();
  Value clamp(const Value& x, int32_t lo, int32_t hi);

  ModelGen& m_;
  RandomSource& rng_;
  uint32_t depth_;
  Subgraph sg_;
  std::vector<Value> pool_;
  std::vector<Value> inputs_;
  std::vector<Value> dynamicResults_;
  std::set<uint32_t> outputSet_;
};

class ModelGen {
 public:
  ModelGen(RandomSource source, const RandomModelOptions& options) : rng(std::move(source)), opt(options) {
    const auto rank = static_cast<uint32_t>(rng.range(1, std::max<uint32_t>(1, opt.maxRank)));
    for (uint32_t i = 0; i < rank; ++i) {
      shape.push_back(static_cast<uint32_t>(rng.range(1, std::max<uint32_t>(1, opt.maxDimension))));
    }
  }

  // A random shape broadcast-compatible with (fitting) `d`; often [1].
  Dimensions subshapeOf(const Dimensions& d) {
    if (rng.percent(25)) return {1};
    const auto rank = static_cast<size_t>(rng.range(1, static_cast<int64_t>(d.size())));
    Dimensions out(d.end() - static_cast<std::ptrdiff_t>(rank), d.end());
    for (uint32_t& x : out) {
      if (rng.percent(30)) x = 1;
    }
    return out;
  }
  Dimensions randomShape() { return subshapeOf(shape); }

  bool mayNest(uint32_t depth) const {
    return depth < opt.maxDepth && model.referenced.size() + 2 <= opt.maxSubgraphs;
  }

  // Reserves referenced[i] before nested generation appends more.
  uint32_t reserveSubgraph() {
    model.referenced.emplace_back();
    return static_cast<uint32_t>(model.referenced.size() - 1);
  }

  // A subgraph computing `outputs` from `inputs` with random operations in between.
  uint32_t randomSubgraph(uint32_t depth, const std::vector<Spec>& inputs,
                          const std::vector<Spec>& outputs) {
    const uint32_t index = reserveSubgraph();
    SubgraphGen g(*this, depth, inputs);
    g.emitRandomOperations(static_cast<uint32_t>(rng.range(0, opt.maxOperations)));
    std::vector<Value> outs;
    for (const Spec& spec : outputs) {
      outs.push_back(g.produce(spec));
      g.setOutputs(outs);
    }
    model.referenced[index] = g.take();
    return index;
  }

  RandomSource rng;
  RandomModelOptions opt;
  Model model;
  Dimensions shape;  // every tensor's shape fits this one
};

SubgraphGen::SubgraphGen(ModelGen& model, uint32_t depth, const std::vector<Spec>& inputs)
    : m_(model), rng_(model.rng), depth_(depth) {
  for (const Spec& spec : inputs) {
    const uint32_t k = addOperand(spec.type, spec.dims, OperandLifeTime::SUBGRAPH_INPUT);
    sg_.inputIndexes.push_back(k);
    inputs_.push_back({k, spec.type, spec.dims, false});
  }
  pool_ = inputs_;
}

uint32_t SubgraphGen::addOperand(OperandType type, const Dimensions& dims, OperandLifeTime lifetime) {
  Operand operand;
  operand.type = type;
  operand.dimensions = dims;
  operand.lifetime = lifetime;
  sg_.operands.push_back(std::move(operand));
  return static_cast<uint32_t>(sg_.operands.size() - 1);
}

Value SubgraphGen::constant(OperandType type, const Dimensions& dims) {
  const uint32_t k = addOperand(type, dims, OperandLifeTime::CONSTANT_COPY);
  const size_t n = elements(dims);
  std::vector<uint8_t>& bytes = sg_.operands[k].value;
  if (type == I32) {
    std::vector<int32_t> v(n);
    for (int32_t& x : v) x = randomInt32(rng_);
    bytes = bytesOf(v);
  } else if (type == F32) {
    std::vector<float> v(n);
    for (float& x : v) x = randomFloat(rng_, m_.opt.floatEdges);
    bytes = bytesOf(v);
  } else {
    bytes.resize(n);
    for (uint8_t& x : bytes) x = static_cast<uint8_t>(rng_.below(2));
  }
  Value value{k, type, dims, false};
  pool_.push_back(value);
  return value;
}

Value SubgraphGen::constantInt32(const Dimensions& dims, int32_t v) {
  const uint32_t k = addOperand(I32, dims, OperandLifeTime::CONSTANT_COPY);
  sg_.operands[k].value = bytesOf(std::vector<int32_t>(elements(dims), v));
  return {k, I32, dims, false};
}

Value SubgraphGen::emit(OperationType op, const std::vector<Value>& in, OperandType outType) {
  Dimensions dims = in.front().dims;
  for (const Value& v : in) dims = broadcast(dims, v.dims);
  std::vector<uint32_t> inputs;
  for (const Value& v : in) inputs.push_back(v.operand);
  switch (op) {
    case OperationType::ADD:
    case OperationType::SUB:
    case OperationType::MUL:
    case OperationType::DIV: {
      const uint32_t act = addOperand(OperandType::INT32, {}, OperandLifeTime::CONSTANT_COPY);
      sg_.operands[act].value = bytesOf(std::vector<int32_t>{0});
      inputs.push_back(act);
      break;
    }
    default:
      break;
  }
  const uint32_t out = addOperand(outType, dims, OperandLifeTime::TEMPORARY_VARIABLE);
  sg_.operations.push_back({op, std::move(inputs), {out}});
  Value value{out, outType, dims, true};
  pool_.push_back(value);
  return value;
}

void SubgraphGen::setOutputs(const std::vector<Value>& outputs) {
  for (uint32_t k : sg_.outputIndexes) sg_.operands[k].lifetime = OperandLifeTime::TEMPORARY_VARIABLE;
  sg_.outputIndexes.clear();
  outputSet_.clear();
  for (const Value& v : outputs) {
    sg_.operands[v.operand].lifetime = OperandLifeTime::SUBGRAPH_OUTPUT;
    sg_.outputIndexes.push_back(v.operand);
    outputSet_.insert(v.operand);
  }
}

const Value* SubgraphGen::find(OperandType type, bool (*pred)(const Value&, const Dimensions&),
                               const Dimensions& d, bool temporariesOnly) {
  std::vector<size_t> hits;
  for (size_t i = 0; i < pool_.size(); ++i) {
    const Value& v = pool_[i];
    if (v.type != type || (temporariesOnly && (!v.temporary || isOutput(v.operand)))) continue;
    if (pred(v, d)) hits.push_back(i);
  }
  if (hits.empty()) return nullptr;
  return &pool_[rng_.pick(hits)];
}

bool anyShape(const Value&, const Dimensions&) { return true; }
bool sameShape(const Value& v, const Dimensions& d) { return v.dims == d; }
bool fitsShape(const Value& v, const Dimensions& d) { return fits(v.dims, d); }

Value SubgraphGen::anyValue(OperandType type) {
  if (rng_.percent(75)) {
    if (const Value* v = find(type, anyShape, {})) return *v;
  }
  return constant(type, m_.randomShape());
}

Value SubgraphGen::anyFitting(OperandType type, const Dimensions& d) {
  if (rng_.percent(70)) {
    if (const Value* v = find(type, fitsShape, d)) return *v;
  }
  return constant(type, m_.subshapeOf(d));
}

OperandType SubgraphGen::randomType() {
  const uint64_t r = rng_.below(100);
  if (m_.opt.float32 && r < 20) return F32;
  return r < 65 ? I32 : B8;
}

void SubgraphGen::emitRandomOperations(uint32_t count) {
  for (uint32_t i = 0; i < count; ++i) emitRandom();
}

void SubgraphGen::emitRandom() {
  if (m_.mayNest(depth_) && rng_.percent(m_.opt.controlFlowPercent)) {
    if (rng_.percent(50)) {
      emitIf();
    } else {
      emitWhile();
    }
    return;
  }
  const uint64_t r = rng_.below(m_.opt.float32 ? (m_.opt.floatEdges ? 13 : 11) : 8);
  switch (r) {
    case 0:
    case 1:
      return emitArithmetic(I32);
    case 2:
      return emitComparison(I32);
    case 3:
      return emitComparison(B8);
    case 4: {
      static const std::vector<OperationType> kLogical = {
          OperationType::LOGICAL_AND, OperationType::LOGICAL_OR, OperationType::LOGICAL_NOT};
      const OperationType op = rng_.pick(kLogical);
      if (op == OperationType::LOGICAL_NOT) {
        emit(op, {anyValue(B8)}, B8);
      } else {
        emit(op, {anyValue(B8), anyValue(B8)}, B8);
      }
      return;
    }
    case 5:
      return emitSelect(I32);
    case 6:
      return emitCast();
    case 7: {
      const OperationType op = rng_.percent(50) ? OperationType::ABS : OperationType::NEG;
      emit(op, {anyValue(I32)}, I32);
      return;
    }
    case 8:
      return emitArithmetic(F32);
    case 9:
      return emitComparison(F32);
    case 11: {
      const OperationType op = rng_.percent(50) ? OperationType::ABS : OperationType::NEG;
      emit(op, {anyValue(F32)}, F32);
      return;
    }
    case 12:
      return emitFullyConnected();
    default:
      return rng_.percent(30) ? emitSelect(F32) : emitCast();
  }
}

void SubgraphGen::emitArithmetic(OperandType type) {
  static const std::vector<OperationType> kInt = {OperationType::ADD,     OperationType::SUB,
                                                  OperationType::MUL,     OperationType::DIV,
                                                  OperationType::MAXIMUM, OperationType::MINIMUM};
  // Float DIV only with edge values on (the FLOAT32 fabric tests): x / 0
  // gives infinities and NaNs, which the other seeds leave out.
  static const std::vector<OperationType> kFloat = {OperationType::ADD, OperationType::SUB,
                                                    OperationType::MUL, OperationType::MAXIMUM,
                                                    OperationType::MINIMUM};
  const OperationType op = rng_.pick(type == I32 ? kInt : m_.opt.floatEdges ? kInt : kFloat);
  const Value a = anyValue(type);
  Value b = anyValue(type);
  if (op == OperationType::DIV && type == I32 && rng_.percent(30)) {
    // The divisors nnfab defines specially: 0 and -1 (with INT32_MIN).
    // Draws in the order g++ evaluated the call's arguments before they
    // were sequenced (the seeds keep their models).
    const int32_t divisor = rng_.percent(50) ? 0 : -1;
    b = constantInt32(m_.subshapeOf(m_.shape), divisor);
  }
  // A fused activation (NONE, RELU, RELU1, RELU6) on FLOAT32 with edges.
  const bool fused = type == F32 && m_.opt.floatEdges && op != OperationType::MAXIMUM &&
                     op != OperationType::MINIMUM && rng_.percent(50);
  const int32_t act = fused ? static_cast<int32_t>(rng_.range(0, 3)) : 0;
  const Value v = rng_.percent(50) ? emit(op, {a, b}, type) : emit(op, {b, a}, type);
  if (act != 0) {
    const uint32_t k = sg_.operations.back().inputs[2];
    sg_.operands[k].value = bytesOf(std::vector<int32_t>{act});
  }
  (void)v;
}

// FULLY_CONNECTED over a FLOAT32 value of rank >= 2 (input_size = its last
// dimension, units = the same, so the [batch, units] result has its element
// count), then RESHAPE back to its shape: the result stays broadcast-
// compatible with the model's shape. Constant weights and bias, a random
// fused activation.
void SubgraphGen::emitFullyConnected() {
  Value x = anyValue(F32);
  if (elements(x.dims) == 0) {
    emit(OperationType::ABS, {x}, F32);
    return;
  }
  const Dimensions original = x.dims;
  if (x.dims.size() < 2) {
    // FULLY_CONNECTED wants rank >= 2: a [1, n] copy of a rank-1 value.
    const Dimensions row = {1, x.dims.empty() ? 1u : x.dims[0]};
    const uint32_t shape = addOperand(I32, {2}, OperandLifeTime::CONSTANT_COPY);
    sg_.operands[shape].value = bytesOf(std::vector<int32_t>(row.begin(), row.end()));
    const uint32_t k = addOperand(F32, row, OperandLifeTime::TEMPORARY_VARIABLE);
    sg_.operations.push_back({OperationType::RESHAPE, {x.operand, shape}, {k}});
    x = {k, F32, row, true};
  }
  const uint32_t inputSize = x.dims.back();
  const uint32_t batch = static_cast<uint32_t>(elements(x.dims) / inputSize);
  const Value w = constant(F32, {inputSize, inputSize});
  const Value bias = constant(F32, {inputSize});
  const uint32_t act = addOperand(OperandType::INT32, {}, OperandLifeTime::CONSTANT_COPY);
  sg_.operands[act].value = bytesOf(std::vector<int32_t>{static_cast<int32_t>(rng_.range(0, 3))});
  const uint32_t fc = addOperand(F32, {batch, inputSize}, OperandLifeTime::TEMPORARY_VARIABLE);
  sg_.operations.push_back({OperationType::FULLY_CONNECTED, {x.operand, w.operand, bias.operand, act}, {fc}});
  const uint32_t shape = addOperand(I32, {static_cast<uint32_t>(original.size())}, OperandLifeTime::CONSTANT_COPY);
  std::vector<int32_t> dims(original.begin(), original.end());
  sg_.operands[shape].value = bytesOf(dims);
  const uint32_t out = addOperand(F32, original, OperandLifeTime::TEMPORARY_VARIABLE);
  sg_.operations.push_back({OperationType::RESHAPE, {fc, shape}, {out}});
  pool_.push_back({out, F32, original, true});
}

void SubgraphGen::emitComparison(OperandType type) {
  static const std::vector<OperationType> kOps = {OperationType::EQUAL,      OperationType::NOT_EQUAL,
                                                  OperationType::LESS,       OperationType::LESS_EQUAL,
                                                  OperationType::GREATER,    OperationType::GREATER_EQUAL};
  const Value a = anyValue(type);
  const Value b = anyValue(type);
  emit(rng_.pick(kOps), {a, b}, B8);
}

// SELECT does not broadcast: mask and both values share one shape.
void SubgraphGen::emitSelect(OperandType type) {
  const Value mask = anyValue(B8);
  auto same = [&]() {
    if (rng_.percent(70)) {
      if (const Value* v = find(type, sameShape, mask.dims)) return *v;
    }
    return constant(type, mask.dims);
  };
  const Value x = same();
  const Value y = same();
  emit(OperationType::SELECT, {mask, x, y}, type);
}

void SubgraphGen::emitCast() {
  if (m_.opt.float32 && rng_.percent(50)) {
    if (rng_.percent(50)) {
      emit(OperationType::CAST, {anyValue(I32)}, F32);
    } else {
      emit(OperationType::CAST, {anyValue(F32)}, I32);
    }
    return;
  }
  const OperandType type = rng_.percent(60) ? I32 : B8;
  emit(OperationType::CAST, {anyValue(type)}, type);
}

Value SubgraphGen::scalarCondition() {
  if (rng_.percent(60)) {
    if (const Value* v = find(B8, sameShape, {1})) return *v;
  }
  if (rng_.percent(70)) {
    static const std::vector<OperationType> kOps = {OperationType::LESS, OperationType::GREATER,
                                                    OperationType::EQUAL, OperationType::NOT_EQUAL};
    auto scalar = [&]() {
      if (rng_.percent(70)) {
        if (const Value* v = find(I32, sameShape, {1})) return *v;
      }
      return constant(I32, {1});
    };
    const Value a = scalar();
    const Value b = scalar();
    return emit(rng_.pick(kOps), {a, b}, B8);
  }
  return constant(B8, {1});
}

Value SubgraphGen::produce(const Spec& spec) {
  const Dimensions& d = spec.dims;
  if (rng_.percent(35)) {
    if (const Value* v = find(spec.type, sameShape, d, /*temporariesOnly=*/true)) return *v;
  }
  if (spec.type == B8 && rng_.percent(30)) {
    // A comparison of INT32 values broadcasting to d.
    static const std::vector<OperationType> kOps = {OperationType::LESS, OperationType::GREATER_EQUAL,
                                                    OperationType::EQUAL, OperationType::NOT_EQUAL};
    const Value a = anyFitting(I32, d);
    const Value b = a.dims == d ? anyFitting(I32, d) : constant(I32, d);
    return emit(rng_.pick(kOps), {a, b}, B8);
  }
  const Value src = anyFitting(spec.type, d);
  if (src.dims == d && rng_.percent(35)) {
    OperationType op = OperationType::CAST;
    if (spec.type == B8) {
      if (rng_.percent(60)) op = OperationType::LOGICAL_NOT;
    } else if (rng_.percent(60)) {
      op = rng_.percent(50) ? OperationType::ABS : OperationType::NEG;
    }
    return emit(op, {src}, spec.type);
  }
  Value other;
  if (src.dims == d) {
    other = anyFitting(spec.type, d);
  } else {
    const Value* same = rng_.percent(50) ? find(spec.type, sameShape, d) : nullptr;
    other = same ? *same : constant(spec.type, d);
  }
  std::vector<OperationType> ops;
  if (spec.type == B8) {
    ops = {OperationType::LOGICAL_AND, OperationType::LOGICAL_OR, OperationType::EQUAL,
           OperationType::NOT_EQUAL, OperationType::LESS, OperationType::GREATER_EQUAL};
  } else if (spec.type == I32) {
    ops = {OperationType::ADD, OperationType::SUB,     OperationType::MUL,
           OperationType::DIV, OperationType::MAXIMUM, OperationType::MINIMUM};
  } else {
    ops = {OperationType::ADD, OperationType::SUB, OperationType::MUL, OperationType::MAXIMUM,
           OperationType::MINIMUM};
  }
  const OperationType op = rng_.pick(ops);
  return rng_.percent(50) ? emit(op, {src, other}, spec.type) : emit(op, {other, src}, spec.type);
}

void SubgraphGen::emitIf() {
  const Value cond = scalarCondition();
  std::vector<Value> ins;
  std::vector<Spec> inSpecs;
  const auto n = rng_.range(0, 3);
  for (int64_t i = 0; i < n; ++i) {
    ins.push_back(anyValue(randomType()));
    inSpecs.push_back({ins.back().type, ins.back().dims});
  }
  std::vector<Spec> outSpecs;
  const auto m = rng_.range(1, 3);
  for (int64_t i = 0; i < m; ++i) {
    if (!inSpecs.empty() && rng_.percent(40)) {
      outSpecs.push_back(rng_.pick(inSpecs));
    } else {
      outSpecs.push_back({randomType(), m_.randomShape()});
    }
  }
  // A dynamic IF: the branches give differently shaped outputs, declared
  // with unknown rank outside, so only the main subgraph's outputs use them.
  const bool dynamic = depth_ == 0 && rng_.percent(m_.opt.dynamicIfPercent);
  std::vector<Spec> elseSpecs = outSpecs;
  if (dynamic) {
    for (Spec& spec : elseSpecs) spec.dims = m_.randomShape();
  }
  const uint32_t thenIndex = m_.randomSubgraph(depth_ + 1, inSpecs, outSpecs);
  const uint32_t elseIndex = !dynamic && rng_.percent(15)
                                 ? thenIndex
                                 : m_.randomSubgraph(depth_ + 1, inSpecs, elseSpecs);

  const uint32_t thenRef = addOperand(OperandType::SUBGRAPH, {}, OperandLifeTime::SUBGRAPH);
  sg_.operands[thenRef].subgraph = thenIndex;
  const uint32_t elseRef = addOperand(OperandType::SUBGRAPH, {}, OperandLifeTime::SUBGRAPH);
  sg_.operands[elseRef].subgraph = elseIndex;
  std::vector<uint32_t> inputs = {cond.operand, thenRef, elseRef};
  for (const Value& v : ins) inputs.push_back(v.operand);
  std::vector<uint32_t> outputs;
  std::vector<Value> results;
  for (const Spec& spec : outSpecs) {
    const Dimensions dims = dynamic ? Dimensions{} : spec.dims;
    const uint32_t k = addOperand(spec.type, dims, OperandLifeTime::TEMPORARY_VARIABLE);
    outputs.push_back(k);
    results.push_back({k, spec.type, dims, true});
  }
  if (dynamic) {
    sg_.operations.push_back({OperationType::IF, std::move(inputs), std::move(outputs)});
    dynamicResults_.insert(dynamicResults_.end(), results.begin(), results.end());
    return;
  }
  sg_.operations.push_back({OperationType::IF, std::move(inputs), std::move(outputs)});
  pool_.insert(pool_.end(), results.begin(), results.end());
}

// Clamps a [1] value to [lo, hi] (lo <= hi) with MAXIMUM and MINIMUM, in either order.
Value SubgraphGen::clamp(const Value& x, int32_t lo, int32_t hi) {
  if (rng_.percent(50)) {
    const Value low = emit(OperationType::MAXIMUM, {x, constantInt32({1}, lo)}, I32);
    return emit(OperationType::MINIMUM, {low, constantInt32({1}, hi)}, I32);
  }
  const Value high = emit(OperationType::MINIMUM, {constantInt32({1}, hi), x}, I32);
  return emit(OperationType::MAXIMUM, {constantInt32({1}, lo), high}, I32);
}

// A WHILE that terminates for any input. Counting up, the counter starts in
// [-2, 2] and runs while below a limit in [0, maxLoopBound]; counting down,
// it starts in [0, maxLoopBound] and runs while above a limit in [-2, 0]. Start
// and limit are constants or clamps of values computed here, so the trip
// count depends on the data but never exceeds maxLoopBound + 2. The condition
// may AND further terms in, which only ends the loop sooner.
void SubgraphGen::emitWhile() {
  const bool up = rng_.percent(60);
  const auto bound = static_cast<int32_t>(m_.opt.maxLoopBound);
  auto scalarOrNull = [&]() { return rng_.percent(60) ? find(I32, sameShape, {1}) : nullptr; };
  Value init;
  if (const Value* x = scalarOrNull()) {
    const auto lo = static_cast<int32_t>(up ? rng_.range(-2, 1) : rng_.range(0, 2));
    const auto hi = static_cast<int32_t>(up ? rng_.range(lo, 2) : rng_.range(lo, bound));
    init = clamp(*x, lo, hi);
  } else {
    init = constantInt32({1}, static_cast<int32_t>(up ? rng_.range(-1, 1) : rng_.range(0, bound)));
  }
  // The limit: a constant inside the condition, or an input-only operand
  // (a constant, or the clamp of a value of this subgraph).
  const uint64_t limitKind = rng_.below(3);
  const int32_t limitConstant =
      static_cast<int32_t>(up ? rng_.range(0, bound) : rng_.range(-2, 0));
  Value limit;
  if (limitKind == 1) {
    limit = constantInt32({1}, limitConstant);
  } else if (limitKind == 2) {
    const Value* y = scalarOrNull();
    const int32_t lo = up ? std::min<int32_t>(1, bound) : -2;
    const int32_t hi = up ? std::max<int32_t>(lo, limitConstant) : limitConstant;
    limit = y == nullptr ? constantInt32({1}, limitConstant) : clamp(*y, lo, hi);
  }

  const bool counterIsIo = rng_.percent(70);
  std::vector<Value> io(static_cast<size_t>(rng_.range(counterIsIo ? 0 : 1, 2)));
  std::vector<Value> state(static_cast<size_t>(rng_.range(0, 2)));
  std::vector<Value> inputOnly(static_cast<size_t>(rng_.range(0, 2)));
  for (Value& v : io) v = anyValue(randomType());
  for (Value& v : state) v = anyValue(randomType());
  for (Value& v : inputOnly) v = anyValue(randomType());
  std::vector<Value>& counterGroup = counterIsIo ? io : state;
  const size_t counterInGroup = rng_.below(counterGroup.size() + 1);
  counterGroup.insert(counterGroup.begin() + static_cast<std::ptrdiff_t>(counterInGroup), init);
  size_t limitInGroup = 0;
  if (limitKind != 0) {
    limitInGroup = rng_.below(inputOnly.size() + 1);
    inputOnly.insert(inputOnly.begin() + static_cast<std::ptrdiff_t>(limitInGroup), limit);
  }
  const size_t counterPos = (counterIsIo ? 0 : io.size()) + counterInGroup;
  const size_t limitPos = io.size() + state.size() + limitInGroup;
  std::vector<Value> all = io;
  all.insert(all.end(), state.begin(), state.end());
  all.insert(all.end(), inputOnly.begin(), inputOnly.end());
  // Aliasing: one operand passed in two places (the counter's and the
  // limit's places keep theirs, so termination still holds).
  if (all.size() >= 2 && rng_.percent(25)) {
    const size_t dst = rng_.below(all.size());
    const size_t src = rng_.below(all.size());
    if (dst != src && dst != counterPos && !(limitKind != 0 && dst == limitPos)) {
      all[dst] = all[src];
      for (size_t k = 0; k < io.size(); ++k) io[k] = all[k];
    }
  }
  std::vector<Spec> specs;
  for (const Value& v : all) specs.push_back({v.type, v.dims});
  const size_t carried = io.size() + state.size();

  const uint32_t condIndex = m_.reserveSubgraph();
  {
    SubgraphGen cond(m_, depth_ + 1, specs);
    cond.emitRandomOperations(static_cast<uint32_t>(rng_.range(0, 2)));
    const Value i = cond.inputs()[counterPos];
    const Value lim = limitKind == 0 ? cond.constantInt32({1}, limitConstant) : cond.inputs()[limitPos];
    Value test;
    if (up) {
      test = rng_.percent(50) ? cond.emit(OperationType::LESS, {i, lim}, B8)
                              : cond.emit(OperationType::GREATER, {lim, i}, B8);
    } else {
      test = rng_.percent(50) ? cond.emit(OperationType::GREATER, {i, lim}, B8)
                              : cond.emit(OperationType::LESS, {lim, i}, B8);
    }
    if (rng_.percent(25)) {
      const Value extra = cond.scalarCondition();
      test = rng_.percent(50) ? cond.emit(OperationType::LOGICAL_AND, {test, extra}, B8)
                              : cond.emit(OperationType::LOGICAL_AND, {extra, test}, B8);
    }
    cond.setOutputs({test});
    m_.model.referenced[condIndex] = cond.take();
  }

  const uint32_t bodyIndex = m_.reserveSubgraph();
  {
    SubgraphGen body(m_, depth_ + 1, specs);
    const Value i = body.inputs()[counterPos];
    Value next;
    const int32_t step = up ? 1 : -1;
    if (rng_.percent(50)) {
      next = body.emit(OperationType::ADD, {i, body.constantInt32({1}, step)}, I32);
    } else {
      next = body.emit(OperationType::SUB, {i, body.constantInt32({1}, -step)}, I32);
    }
    std::vector<Value> outs(carried);
    outs[counterPos] = next;
    // Marked as outputs as they are chosen, so that produce() never picks one twice.
    std::vector<Value> marked = {next};
    body.setOutputs(marked);
    body.emitRandomOperations(static_cast<uint32_t>(rng_.range(0, m_.opt.maxOperations)));
    for (size_t k = 0; k < carried; ++k) {
      if (k == counterPos) continue;
      // Sometimes another input of the same type and shape passes through:
      // carried values then rotate (a parallel copy for the compiler).
      std::vector<size_t> same;
      for (size_t j = 0; j < specs.size(); ++j) {
        if (j != k && specs[j].type == specs[k].type && specs[j].dims == specs[k].dims) same.push_back(j);
      }
      if (!same.empty() && rng_.percent(30)) {
        outs[k] = body.emit(OperationType::CAST, {body.inputs()[rng_.pick(same)]}, specs[k].type);
      } else {
        outs[k] = body.produce(specs[k]);
      }
      marked.push_back(outs[k]);
      body.setOutputs(marked);
    }
    body.setOutputs(outs);
    m_.model.referenced[bodyIndex] = body.take();
  }

  const uint32_t condRef = addOperand(OperandType::SUBGRAPH, {}, OperandLifeTime::SUBGRAPH);
  sg_.operands[condRef].subgraph = condIndex;
  const uint32_t bodyRef = addOperand(OperandType::SUBGRAPH, {}, OperandLifeTime::SUBGRAPH);
  sg_.operands[bodyRef].subgraph = bodyIndex;
  std::vector<uint32_t> inputs = {condRef, bodyRef};
  for (const Value& v : all) inputs.push_back(v.operand);
  std::vector<uint32_t> outputs;
  std::vector<Value> results;
  for (const Value& v : io) {
    const uint32_t k = addOperand(v.type, v.dims, OperandLifeTime::TEMPORARY_VARIABLE);
    outputs.push_back(k);
    results.push_back({k, v.type, v.dims, true});
  }
  sg_.operations.push_back({OperationType::WHILE, std::move(inputs), std::move(outputs)});
  pool_.insert(pool_.end(), results.begin(), results.end());
}

// Operands whose shape must stay declared: constants, subgraph inputs,
// IF/WHILE operands and referenced subgraphs' inputs and outputs (NNAPI's
// driver rules want them fully specified).
std::vector<bool> pinnedOperands(const Subgraph& sg, bool isMain) {
  std::vector<bool> pinned(sg.operands.size(), false);
  for (size_t k = 0; k < sg.operands.size(); ++k) {
    const OperandLifeTime l = sg.operands[k].lifetime;
    pinned[k] = l != OperandLifeTime::TEMPORARY_VARIABLE && l != OperandLifeTime::SUBGRAPH_OUTPUT;
  }
  if (!isMain) {
    for (uint32_t k : sg.outputIndexes) pinned[k] = true;
  }
  for (const Operation& op : sg.operations) {
    if (op.type != OperationType::IF && op.type != OperationType::WHILE) continue;
    for (uint32_t k : op.inputs) pinned[k] = true;
    for (uint32_t k : op.outputs) pinned[k] = true;
  }
  return pinned;
}

void hideSomeShapes(Subgraph& sg, bool isMain, RandomSource& rng, uint32_t percent) {
  const std::vector<bool> pinned = pinnedOperands(sg, isMain);
  // NNAPI compares a CAST's input and output dimensions when the input's
  // rank is known: a partly hidden input would contradict a known output.
  std::vector<bool> castInput(sg.operands.size(), false);
  for (const Operation& op : sg.operations) {
    if (op.type == OperationType::CAST) castInput[op.inputs[0]] = true;
  }
  for (size_t k = 0; k < sg.operands.size(); ++k) {
    if (pinned[k] || !rng.percent(percent)) continue;
    Dimensions& dims = sg.operands[k].dimensions;
    if (castInput[k] || rng.percent(40)) {
      dims.clear();  // unknown rank
    } else {
      for (uint32_t& d : dims) {
        if (rng.percent(60)) d = 0;
      }
    }
  }
}

}  // namespace

Model randomModel(uint64_t seed, const RandomModelOptions& options) {
  return randomModel(RandomSource(seed), options);
}

Model randomModel(RandomSource rng, const RandomModelOptions& options) {
  ModelGen gen(std::move(rng), options);
  std::vector<Spec> inputs;
  const auto inputCount = gen.rng.range(0, options.maxInputs);
  for (int64_t i = 0; i < inputCount; ++i) {
    const uint64_t r = gen.rng.below(100);
    const OperandType type = options.float32 && r < 15 ? F32 : (r < 65 ? I32 : B8);
    inputs.push_back({type, gen.rng.percent(30) ? Dimensions{1} : gen.randomShape()});
  }
  SubgraphGen main(gen, 0, inputs);
  main.emitRandomOperations(static_cast<uint32_t>(gen.rng.range(1, std::max<uint32_t>(1, options.maxOperations))));
  std::vector<Value> outputs = main.dynamicResults();
  main.setOutputs(outputs);
  const auto outputCount = gen.rng.range(1, std::max<uint32_t>(1, options.maxOutputs));
  for (int64_t i = 0; i < outputCount; ++i) {
    const Value* v = gen.rng.percent(70) ? main.find(I32, anyShape, {}, true) : nullptr;
    if (v == nullptr && gen.rng.percent(50)) v = main.find(B8, anyShape, {}, true);
    if (v == nullptr && options.float32 && gen.rng.percent(30)) v = main.find(F32, anyShape, {}, true);
    outputs.push_back(v ? *v : main.produce({gen.rng.percent(70) ? I32 : B8, gen.randomShape()}));
    main.setOutputs(outputs);
  }
  gen.model.main = main.take();
  if (options.unknownShapePercent > 0) {
    hideSomeShapes(gen.model.main, true, gen.rng, options.unknownShapePercent);
    for (Subgraph& sg : gen.model.referenced) {
      hideSomeShapes(sg, false, gen.rng, options.unknownShapePercent);
    }
  }
  return std::move(gen.model);
}

std::vector<TensorValue> randomInputs(const Model& model, RandomSource& rng,
                                      const RandomInputOptions& options) {
  std::vector<TensorValue> values;
  for (uint32_t k : model.main.inputIndexes) {
    const Operand& operand = model.main.operands[k];
    TensorValue v;
    v.type = operand.type;
    v.dimensions = operand.dimensions;
    const size_t n = elements(operand.dimensions);
    if (operand.type == I32) {
      std::vector<int32_t> data(n);
      for (int32_t& x : data) x = randomInt32(rng);
      v.data = bytesOf(data);
    } else if (operand.type == F32) {
      std::vector<float> data(n);
      for (float& x : data) x = randomFloat(rng, options.floatEdges);
      v.data = bytesOf(data);
    } else {
      v.data.resize(n * sizeOfElement(operand.type));
      for (uint8_t& x : v.data) {
        x = options.nonCanonicalBools && rng.percent(15) ? static_cast<uint8_t>(rng.range(2, 255))
                                                         : static_cast<uint8_t>(rng.below(2));
      }
    }
    values.push_back(std::move(v));
  }
  return values;
}

}  // namespace nnfab::testing
