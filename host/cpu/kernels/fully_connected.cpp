// FULLY_CONNECTED (docs/nnapi-semantics.md §2.9), TENSOR_FLOAT32 only:
//   out[b][u] = act(sum_i in[b][i] * w[u][i] + bias[u])
// with the input flattened to [batch, input_size]. A zero-sized input is
// allowed (batch 0 gives an empty output); zero-sized weights are not.
//
// Exactness: every output is computed in one fixed order, the one of
// TFLite's reference kernel: products rounded to float, summed strictly
// from i = 0 upward starting at +0.0f, then the bias added, then the
// activation. No reassociation, no FMA (the library builds with
// -ffp-contract=off), so any backend can reproduce the result bit for bit.
// Speed comes from computing several outputs at once (independent
// accumulators), never from splitting one sum.
#include "cpu/kernels/elementwise.h"

namespace nnfab::cpu {
namespace {

struct Geometry {
  size_t batch;
  size_t units;
  size_t inputSize;
};

// Outputs [b0, b0+NB) x [u0, u0+NU): NB*NU independent dot products that
// share their input and weight loads.
template <typename Act, size_t NB, size_t NU>
inline void block(const uint8_t* x, const uint8_t* w, const uint8_t* bias, uint8_t* __restrict out,
                  const Geometry& g, size_t b0, size_t u0) {
  const size_t n = g.inputSize;
  float acc[NB][NU] = {};
  for (size_t i = 0; i < n; ++i) {
    float xv[NB];
    for (size_t b = 0; b < NB; ++b) xv[b] = load<float>(x, (b0 + b) * n + i);
    for (size_t u = 0; u < NU; ++u) {
      const float wv = load<float>(w, (u0 + u) * n + i);
      for (size_t b = 0; b < NB; ++b) acc[b][u] += xv[b] * wv;
    }
  }
  for (size_t b = 0; b < NB; ++b) {
    for (size_t u = 0; u < NU; ++u) {
      store<float>(out, (b0 + b) * g.units + u0 + u, Act::apply(acc[b][u] + load<float>(bias, u0 + u)));
    }
  }
}

template <typename Act, size_t NB>
inline void rows(const uint8_t* x, const uint8_t* w, const uint8_t* bias, uint8_t* __restrict out,
                 const Geometry& g, size_t b0) {
  constexpr size_t kUnits = 4;
  size_t u = 0;
  for (; u + kUnits <= g.units; u += kUnits) block<Act, NB, kUnits>(x, w, bias, out, g, b0, u);
  for (; u < g.units; ++u) block<Act, NB, 1>(x, w, bias, out, g, b0, u);
}

template <typename Act>
class FullyConnectedKernel final : public PreparedKernel {
 public:
  explicit FullyConnectedKernel(Geometry g) : g_(g) {}
  void run(const uint8_t* const* in, uint8_t* const* out) const override {
    constexpr size_t kBatch = 2;
    size_t b = 0;
    for (; b + kBatch <= g_.batch; b += kBatch) rows<Act, kBatch>(in[0], in[1], in[2], out[0], g_, b);
    for (; b < g_.batch; ++b) rows<Act, 1>(in[0], in[1], in[2], out[0], g_, b);
  }

 private:
  Geometry g_;
};

Status requireFloat(const TensorArg& arg, const char* what) {
  if (arg.type == OperandType::TENSOR_FLOAT32) return {};
  return generalFailure(std::string("FULLY_CONNECTED ") + what + " is " +
                        std::string(toString(arg.type)) + ", only TENSOR_FLOAT32 is supported");
}

}  // namespace

Status prepareFullyConnected(std::span<const TensorArg> inputs, std::span<OutputShape> outputs,
                             std::unique_ptr<PreparedKernel>* kernel) {
  constexpr OperationType kOp = OperationType::FULLY_CONNECTED;
  if (Status s = checkInputs(kOp, inputs, 4, outputs, /*allowZeroSized=*/true); !s) return s;
  const TensorArg& in = inputs[0];
  const TensorArg& weights = inputs[1];
  const TensorArg& bias = inputs[2];
  if (Status s = requireFloat(in, "input"); !s) return s;
  if (Status s = requireFloat(weights, "weights"); !s) return s;
  if (Status s = requireFloat(bias, "bias"); !s) return s;
  if (in.dims.size() < 2 || in.dims.size() > 4) {
    return generalFailure("FULLY_CONNECTED input must have rank 2 to 4, got " + dimsToString(in.dims));
  }
  if (weights.dims.size() != 2) {
    return generalFailure("FULLY_CONNECTED weights must have rank 2, got " +
                          dimsToString(weights.dims));
  }
  Geometry g{0, weights.dims[0], weights.dims[1]};
  if (bias.dims.size() != 1 || bias.dims[0] != g.units) {
    return generalFailure("FULLY_CONNECTED bias must be [" + std::to_string(g.units) + "], got " +
                          dimsToString(bias.dims));
  }
  auto act = readActivation(kOp, inputs[3]);
  if (!act) return std::move(act).takeStatus();
  auto count = checkedElementCount(in.dims, sizeof(float));
  if (!count) return std::move(count).takeStatus();
  // As in NNAPI, only the batch may be 0 (input_size 0 would leave it
  // undetermined).
  if (g.units == 0 || g.inputSize == 0) {
    return generalFailure("FULLY_CONNECTED weights " + dimsToString(weights.dims) +
                          " must not be zero-sized (only the batch may be 0)");
  }
  if (*count % g.inputSize != 0) {
    return generalFailure("FULLY_CONNECTED input " + dimsToString(in.dims) +
                          " does not flatten to rows of input_size " + std::to_string(g.inputSize));
  }
  g.batch = *count / g.inputSize;
  const uint32_t outDims[2] = {static_cast<uint32_t>(g.batch), static_cast<uint32_t>(g.units)};
  auto outCount = checkedElementCount(outDims, sizeof(float));
  if (!outCount) return std::move(outCount).takeStatus();
  setOutput(&outputs[0], OperandType::TENSOR_FLOAT32, outDims);
  if (*outCount == 0) {
    *kernel = std::make_unique<NoopKernel>();
    return {};
  }
  switch (*act) {
    case FusedActivation::NONE:
      *kernel = std::make_unique<FullyConnectedKernel<ops::ActNone>>(g);
      break;
    case FusedActivation::RELU:
      *kernel = std::make_unique<FullyConnectedKernel<ops::ActRelu>>(g);
      break;
    case FusedActivation::RELU1:
      *kernel = std::make_unique<FullyConnectedKernel<ops::ActRelu1>>(g);
      break;
    case FusedActivation::RELU6:
      *kernel = std::make_unique<FullyConnectedKernel<ops::ActRelu6>>(g);
      break;
  }
  return {};
}

}  // namespace nnfab::cpu
