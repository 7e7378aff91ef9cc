// FLOOR (§2.13) and RELU (§2.14) on TENSOR_FLOAT32, rank at most 4.
// FLOOR is std::floor (NaN and ±inf pass through). RELU is NNAPI's reference
// reluFloat: min(max(0, x), FLT_MAX), so RELU(NaN) = 0 and RELU(+inf) = FLT_MAX
// (the ONNX importer maps ONNX Relu to MAXIMUM(x, 0) instead, which keeps both).
// Zero-sized inputs fail (§2.1).
#include <algorithm>
#include <cmath>
#include <limits>

#include "cpu/kernels/elementwise.h"

namespace nnfab::cpu {
namespace {

struct Floor {
  static float apply(float x) { return std::floor(x); }
};
struct Relu {
  static float apply(float x) { return std::min(std::max(0.0f, x), std::numeric_limits<float>::max()); }
};

}  // namespace

Status prepareFloorRelu(OperationType type, std::span<const TensorArg> inputs,
                        std::span<OutputShape> outputs, std::unique_ptr<PreparedKernel>* kernel) {
  if (Status s = checkInputs(type, inputs, 1, outputs, /*allowZeroSized=*/false); !s) return s;
  const TensorArg& in = inputs[0];
  if (in.type != OperandType::TENSOR_FLOAT32) {
    return generalFailure(opName(type) + " on " + std::string(toString(in.type)) + " is not supported");
  }
  if (in.dims.size() > 4) {
    return generalFailure(opName(type) + " supports inputs up to rank 4, got " + dimsToString(in.dims));
  }
  auto count = checkedElementCount(in.dims, sizeof(float));
  if (!count) return std::move(count).takeStatus();
  setOutput(&outputs[0], in.type, in.dims);
  if (type == OperationType::FLOOR) {
    *kernel = std::make_unique<UnaryKernel<Floor, float, float>>(*count);
  } else if (type == OperationType::RELU) {
    *kernel = std::make_unique<UnaryKernel<Relu, float, float>>(*count);
  } else {
    return generalFailure(opName(type) + " is not FLOOR or RELU");
  }
  return {};
}

}  // namespace nnfab::cpu
