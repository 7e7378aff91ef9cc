#include "differential/oracle.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <optional>
#include <string>

#include "isa/int32_semantics.h"

namespace nnfab::differential {
namespace {

using T = OperandType;
using Op = OperationType;

struct Tensor {
  OperandType type = T::TENSOR_INT32;
  Dimensions dims;
  std::vector<uint8_t> data;
};

Status fail(const std::string& message) { return generalFailure("oracle: " + message); }

size_t count(const Dimensions& dims) {
  size_t n = 1;
  for (uint32_t d : dims) n *= d;
  return n;
}

std::string dimsText(const Dimensions& dims) {
  std::string s = "[";
  for (size_t i = 0; i < dims.size(); ++i) {
    if (i > 0) s += ',';
    s += std::to_string(dims[i]);
  }
  return s + "]";
}

template <typename V>
V get(const Tensor& t, size_t i) {
  V v;
  std::memcpy(&v, t.data.data() + i * sizeof(V), sizeof(V));
  return v;
}
template <typename V>
void put(Tensor& t, size_t i, V v) {
  std::memcpy(t.data.data() + i * sizeof(V), &v, sizeof(V));
}

Tensor make(OperandType type, Dimensions dims) {
  Tensor t;
  t.type = type;
  t.dims = std::move(dims);
  t.data.assign(count(t.dims) * sizeOfElement(type), 0);
  return t;
}

// NNAPI's broadcast rule, written out: align trailing, sizes equal or 1.
std::optional<Dimensions> broadcastShape(const Dimensions& a, const Dimensions& b) {
  const size_t rank = std::max(a.size(), b.size());
  Dimensions out(rank);
  for (size_t i = 0; i < rank; ++i) {
    const uint32_t x = i < rank - a.size() ? 1 : a[i - (rank - a.size())];
    const uint32_t y = i < rank - b.size() ? 1 : b[i - (rank - b.size())];
    if (x != y && x != 1 && y != 1) return std::nullopt;
    out[i] = x == 1 ? y : x;
  }
  return out;
}

// Flat index into `in` of the element that output element `flat` reads.
size_t sourceIndex(size_t flat, const Dimensions& out, const Dimensions& in) {
  size_t index = 0;
  size_t stride = 1;
  for (size_t k = 0; k < out.size(); ++k) {
    const size_t axis = out.size() - 1 - k;
    const size_t coordinate = flat % out[axis];
    flat /= out[axis];
    if (k < in.size()) {
      const uint32_t size = in[in.size() - 1 - k];
      if (size != 1) index += coordinate * stride;
      stride *= size;
    }
  }
  return index;
}

bool isComparison(Op op) {
  return op == Op::EQUAL || op == Op::NOT_EQUAL || op == Op::LESS || op == Op::LESS_EQUAL ||
         op == Op::GREATER || op == Op::GREATER_EQUAL;
}

template <typename V>
bool compare(Op op, V a, V b) {
  switch (op) {
    case Op::EQUAL: return a == b;
    case Op::NOT_EQUAL: return a != b;
    case Op::LESS: return a < b;
    case Op::LESS_EQUAL: return a <= b;
    case Op::GREATER: return a > b;
    default: return a >= b;
  }
}

int32_t intArithmetic(Op op, int32_t a, int32_t b) {
  switch (op) {
    case Op::ADD: return int32_math::wrapAdd(a, b);
    case Op::SUB: return int32_math::wrapSub(a, b);
    case Op::MUL: return int32_math::wrapMul(a, b);
    case Op::DIV: return int32_math::floorDiv(a, b);
    case Op::MAXIMUM: return a > b ? a : b;
    default: return a < b ? a : b;
  }
}

float floatArithmetic(Op op, float a, float b) {
  switch (op) {
    case Op::ADD: return a + b;
    case Op::SUB: return a - b;
    case Op::MUL: return a * b;
    case Op::DIV: return a / b;
    // NNAPI's reference uses std::max / std::min, which decide NaN by argument order.
    case Op::MAXIMUM: return std::max(a, b);
    default: return std::min(a, b);
  }
}

Result<Tensor> binary(Op op, const Tensor& a, const Tensor& b, OperandType outType) {
  if (a.type != b.type) return fail("operand types differ");
  auto shape = broadcastShape(a.dims, b.dims);
  if (!shape) return fail("shapes " + dimsText(a.dims) + " and " + dimsText(b.dims) + " do not broadcast");
  Tensor out = make(outType, *shape);
  const size_t n = count(out.dims);
  for (size_t i = 0; i < n; ++i) {
    const size_t ia = sourceIndex(i, out.dims, a.dims);
    const size_t ib = sourceIndex(i, out.dims, b.dims);
    if (isComparison(op)) {
      bool r = false;
      if (a.type == T::TENSOR_INT32) r = compare(op, get<int32_t>(a, ia), get<int32_t>(b, ib));
      else if (a.type == T::TENSOR_FLOAT32) r = compare(op, get<float>(a, ia), get<float>(b, ib));
      else r = compare(op, get<uint8_t>(a, ia), get<uint8_t>(b, ib));  // raw bytes
      put<uint8_t>(out, i, r ? 1 : 0);
    } else if (op == Op::LOGICAL_AND || op == Op::LOGICAL_OR) {
      const bool x = get<uint8_t>(a, ia) != 0;
      const bool y = get<uint8_t>(b, ib) != 0;
      put<uint8_t>(out, i, (op == Op::LOGICAL_AND ? (x && y) : (x || y)) ? 1 : 0);
    } else if (a.type == T::TENSOR_INT32) {
      put<int32_t>(out, i, intArithmetic(op, get<int32_t>(a, ia), get<int32_t>(b, ib)));
    } else if (a.type == T::TENSOR_FLOAT32) {
      put<float>(out, i, floatArithmetic(op, get<float>(a, ia), get<float>(b, ib)));
    } else {
      return fail(std::string(toString(op)) + " on " + std::string(toString(a.type)));
    }
  }
  return out;
}

class Oracle {
 public:
  Oracle(const Model& model, OracleStats* stats, uint64_t maxIterations)
      : model_(model), stats_(stats ? stats : &local_), maxIterations_(maxIterations) {}

  Result<std::vector<Tensor>> run(size_t index, const std::vector<Tensor>& inputs, uint32_t depth) {
    stats_->maxDepth = std::max(stats_->maxDepth, depth);
    const Subgraph& sg = model_.subgraph(index);
    if (inputs.size() != sg.inputIndexes.size()) return fail("input count");
    std::vector<std::optional<Tensor>> env(sg.operands.size());
    for (size_t k = 0; k < sg.operands.size(); ++k) {
      const Operand& operand = sg.operands[k];
      if (operand.lifetime == OperandLifeTime::CONSTANT_COPY ||
          operand.lifetime == OperandLifeTime::CONSTANT_REFERENCE) {
        env[k] = Tensor{operand.type, operand.dimensions, operand.value};
      }
    }
    for (size_t i = 0; i < inputs.size(); ++i) env[sg.inputIndexes[i]] = inputs[i];

    for (size_t o = 0; o < sg.operations.size(); ++o) {
      const Operation& op = sg.operations[o];
      ++stats_->operations;
      std::vector<const Tensor*> in;
      for (uint32_t k : op.inputs) {
        const Operand& operand = sg.operands[k];
        if (operand.lifetime == OperandLifeTime::SUBGRAPH) {
          in.push_back(nullptr);
          continue;
        }
        if (!env[k]) return fail("operand " + std::to_string(k) + " read before written");
        in.push_back(&*env[k]);
      }
      auto outs = evaluate(sg, op, in, depth);
      if (!outs.isOk()) {
        return std::move(outs).takeStatus().withContext("subgraph " + std::to_string(index) +
                                                        " operation " + std::to_string(o));
      }
      if (outs->size() != op.outputs.size()) return fail("output count");
      for (size_t j = 0; j < op.outputs.size(); ++j) {
        const Operand& declared = sg.operands[op.outputs[j]];
        Tensor& t = (*outs)[j];
        if (declared.type != t.type) return fail("output type differs from the declared one");
        if (!declared.dimensions.empty()) {
          bool ok = declared.dimensions.size() == t.dims.size();
          for (size_t d = 0; ok && d < t.dims.size(); ++d) {
            ok = declared.dimensions[d] == 0 || declared.dimensions[d] == t.dims[d];
          }
          if (!ok) {
            return fail("subgraph " + std::to_string(index) + " operation " + std::to_string(o) +
                        " computes " + dimsText(t.dims) + ", declared " + dimsText(declared.dimensions));
          }
        }
        env[op.outputs[j]] = std::move(t);
      }
    }
    std::vector<Tensor> outputs;
    for (uint32_t k : sg.outputIndexes) {
      if (!env[k]) return fail("output operand " + std::to_string(k) + " never written");
      outputs.push_back(*env[k]);
    }
    return outputs;
  }

 private:
  size_t referenced(const Subgraph& sg, uint32_t operand) const {
    return sg.operands[operand].subgraph + 1;
  }

  Result<std::vector<Tensor>> evaluate(const Subgraph& sg, const Operation& op,
                                       const std::vector<const Tensor*>& in, uint32_t depth) {
    const OperandType outType = sg.operands[op.outputs.front()].type;
    auto one = [](Result<Tensor> r) -> Result<std::vector<Tensor>> {
      if (!r.isOk()) return std::move(r).takeStatus();
      return std::vector<Tensor>{std::move(r).value()};
    };
    switch (op.type) {
      case Op::ADD:
      case Op::SUB:
      case Op::MUL:
      case Op::DIV: {
        if (in.size() != 3) return fail("arithmetic needs an activation");
        const int32_t act = get<int32_t>(*in[2], 0);
        if (act != 0 && in[0]->type != T::TENSOR_FLOAT32) return fail("only activation NONE is evaluated on INT32");
        auto r = binary(op.type, *in[0], *in[1], outType);
        if (!r.isOk() || act == 0) return one(std::move(r));
        Tensor t = std::move(r).value();
        for (size_t i = 0; i < count(t.dims); ++i) put<float>(t, i, activation(act, get<float>(t, i)));
        return one(std::move(t));
      }
      case Op::FULLY_CONNECTED:
        return one(fullyConnected(*in[0], *in[1], *in[2], get<int32_t>(*in[3], 0)));
      case Op::RESHAPE: {
        // The generator's shapes have no -1 entry.
        Tensor out = *in[0];
        out.dims.clear();
        for (size_t i = 0; i < count(in[1]->dims); ++i) {
          const int32_t d = get<int32_t>(*in[1], i);
          if (d < 0) return fail("RESHAPE with a -1 entry");
          out.dims.push_back(static_cast<uint32_t>(d));
        }
        if (count(out.dims) != count(in[0]->dims)) return fail("RESHAPE to a shape of another size");
        return one(std::move(out));
      }
      case Op::MAXIMUM:
      case Op::MINIMUM:
      case Op::EQUAL:
      case Op::NOT_EQUAL:
      case Op::LESS:
      case Op::LESS_EQUAL:
      case Op::GREATER:
      case Op::GREATER_EQUAL:
      case Op::LOGICAL_AND:
      case Op::LOGICAL_OR:
        return one(binary(op.type, *in[0], *in[1], outType));
      case Op::LOGICAL_NOT:
      case Op::ABS:
      case Op::NEG:
      case Op::CAST:
        return one(unary(op.type, *in[0], outType));
      case Op::SELECT:
        return one(select(*in[0], *in[1], *in[2]));
      case Op::IF: {
        const Tensor& cond = *in[0];
        if (cond.data.empty()) return fail("IF condition has no value");
        const bool taken = cond.data[0] != 0;
        ++stats_->ifTaken[taken ? 1 : 0];
        std::vector<Tensor> args;
        for (size_t i = 3; i < in.size(); ++i) args.push_back(*in[i]);
        return run(referenced(sg, op.inputs[taken ? 1 : 2]), args, depth + 1);
      }
      case Op::WHILE:
        return loop(sg, op, in, depth);
      default:
        return fail(std::string(toString(op.type)) + " is outside the generator's subset");
    }
  }

  // NNAPI's fused activations written out: RELU max(x, 0), RELU1 clamps to
  // [-1, 1], RELU6 to [0, 6]; NaN stays NaN (a comparison with it is false).
  static float activation(int32_t act, float x) {
    if (act == 0) return x;
    const float lo = act == 2 ? -1.0f : 0.0f;
    float y = x < lo ? lo : x;
    if (act == 2 && 1.0f < y) y = 1.0f;
    if (act == 3 && 6.0f < y) y = 6.0f;
    return y;
  }

  // out[b][u] = act(sum_i x[b][i] * w[u][i] + bias[u]), the sum from +0 in
  // increasing i with each product rounded (docs/isa.md, FC).
  Result<Tensor> fullyConnected(const Tensor& x, const Tensor& w, const Tensor& bias, int32_t act) {
    if (w.dims.size() != 2 || x.dims.empty()) return fail("FULLY_CONNECTED shapes");
    const size_t units = w.dims[0], inputSize = w.dims[1];
    if (inputSize == 0 || count(x.dims) % inputSize != 0 || count(bias.dims) != units) return fail("FULLY_CONNECTED shapes");
    const size_t batch = count(x.dims) / inputSize;
    Tensor out = make(T::TENSOR_FLOAT32, {static_cast<uint32_t>(batch), static_cast<uint32_t>(units)});
    for (size_t b = 0; b < batch; ++b) {
      for (size_t u = 0; u < units; ++u) {
        volatile float acc = 0.0f;  // volatile: no contraction into a fused multiply-add
        for (size_t i = 0; i < inputSize; ++i) {
          const volatile float p = get<float>(x, b * inputSize + i) * get<float>(w, u * inputSize + i);
          acc = acc + p;
        }
        put<float>(out, b * units + u, activation(act, acc + get<float>(bias, u)));
      }
    }
    return out;
  }

  Result<Tensor> unary(Op op, const Tensor& a, OperandType outType) {
    Tensor out = make(outType, a.dims);
    const size_t n = count(a.dims);
    for (size_t i = 0; i < n; ++i) {
      if (op == Op::LOGICAL_NOT) {
        put<uint8_t>(out, i, get<uint8_t>(a, i) == 0 ? 1 : 0);
      } else if (op == Op::CAST) {
        if (a.type == outType) {
          std::memcpy(out.data.data(), a.data.data(), a.data.size());
          break;
        }
        if (a.type == T::TENSOR_INT32 && outType == T::TENSOR_FLOAT32) {
          put<float>(out, i, static_cast<float>(get<int32_t>(a, i)));
        } else if (a.type == T::TENSOR_FLOAT32 && outType == T::TENSOR_INT32) {
          put<int32_t>(out, i, int32_math::saturatingFloatToInt32(get<float>(a, i)));
        } else {
          return fail("CAST between these types");
        }
      } else if (a.type == T::TENSOR_INT32) {
        const int32_t x = get<int32_t>(a, i);
        put<int32_t>(out, i, op == Op::ABS ? int32_math::wrapAbs(x) : int32_math::wrapNeg(x));
      } else if (a.type == T::TENSOR_FLOAT32) {
        const float x = get<float>(a, i);
        put<float>(out, i, op == Op::ABS ? std::fabs(x) : -x);
      } else {
        return fail(std::string(toString(op)) + " on " + std::string(toString(a.type)));
      }
    }
    return out;
  }

  Result<Tensor> select(const Tensor& mask, const Tensor& x, const Tensor& y) {
    if (mask.dims != x.dims || x.dims != y.dims || x.type != y.type) {
      return fail("SELECT needs one shape and type");
    }
    Tensor out = make(x.type, x.dims);
    const size_t size = sizeOfElement(x.type);
    for (size_t i = 0; i < count(x.dims); ++i) {
      const Tensor& from = mask.data[i] != 0 ? x : y;
      std::memcpy(out.data.data() + i * size, from.data.data() + i * size, size);
    }
    return out;
  }

  // NNAPI §4.1: io values and state go round, input-only values stay.
  Result<std::vector<Tensor>> loop(const Subgraph& sg, const Operation& op,
                                   const std::vector<const Tensor*>& in, uint32_t depth) {
    const size_t cond = referenced(sg, op.inputs[0]);
    const size_t body = referenced(sg, op.inputs[1]);
    const size_t carried = model_.subgraph(body).outputIndexes.size();
    std::vector<Tensor> values;
    for (size_t i = 2; i < in.size(); ++i) values.push_back(*in[i]);
    ++stats_->whileLoops;
    uint64_t iterations = 0;
    for (;;) {
      auto c = run(cond, values, depth + 1);
      if (!c.isOk()) return std::move(c).takeStatus();
      if (c->size() != 1 || c->front().data.empty()) return fail("WHILE condition output");
      if (c->front().data[0] == 0) break;
      if (++iterations > maxIterations_) return fail("WHILE ran more than the iteration limit");
      auto next = run(body, values, depth + 1);
      if (!next.isOk()) return std::move(next).takeStatus();
      if (next->size() != carried || carried > values.size()) return fail("WHILE body output count");
      for (size_t j = 0; j < carried; ++j) values[j] = std::move((*next)[j]);
    }
    if (iterations == 0) ++stats_->zeroIterationLoops;
    stats_->maxIterations = std::max(stats_->maxIterations, iterations);
    values.resize(op.outputs.size());
    return values;
  }

  const Model& model_;
  OracleStats local_;
  OracleStats* stats_;
  uint64_t maxIterations_;
};

}  // namespace

Result<std::vector<TensorValue>> oracleRun(const Model& model, const std::vector<TensorValue>& inputs,
                                           OracleStats* stats, uint64_t maxIterations) {
  std::vector<Tensor> args;
  for (const TensorValue& v : inputs) {
    if (v.omitted) return fail("omitted inputs are outside the generator's subset");
    args.push_back({v.type, v.dimensions, v.data});
  }
  Oracle oracle(model, stats, maxIterations);
  auto outs = oracle.run(0, args, 0);
  if (!outs.isOk()) return std::move(outs).takeStatus();
  std::vector<TensorValue> result;
  for (Tensor& t : *outs) {
    TensorValue v;
    v.type = t.type;
    v.dimensions = std::move(t.dims);
    v.data = std::move(t.data);
    result.push_back(std::move(v));
  }
  return result;
}

}  // namespace nnfab::differential
