// MAXIMUM, MINIMUM (docs/nnapi-semantics.md §2.8) on TENSOR_FLOAT32 / TENSOR_INT32 with
// broadcasting. NaN handling is NNAPI's reference std::max / std::min
// (see ops::Max in elementwise.h). Zero-sized inputs fail (§2.1).
#include "cpu/kernels/elementwise.h"

namespace nnfab::cpu {
namespace {

template <typename Op>
std::unique_ptr<PreparedKernel> makeKernel(OperandType type, BroadcastPlan plan) {
  if (type == OperandType::TENSOR_INT32) {
    return makeBinaryKernel<Op, int32_t, int32_t>(std::move(plan));
  }
  return makeBinaryKernel<Op, float, float>(std::move(plan));
}

}  // namespace

Status prepareMinMax(OperationType type, std::span<const TensorArg> inputs,
                     std::span<OutputShape> outputs, std::unique_ptr<PreparedKernel>* kernel) {
  if (Status s = checkInputs(type, inputs, 2, outputs, /*allowZeroSized=*/false); !s) return s;
  const std::string op = opName(type);
  const TensorArg& a = inputs[0];
  const TensorArg& b = inputs[1];
  if (Status s = checkBinaryTypes(op, a, b, {OperandType::TENSOR_FLOAT32, OperandType::TENSOR_INT32}); !s) return s;
  BroadcastPlan plan;
  if (Status s = prepareBroadcastOutput(a, b, a.type, &outputs[0], &plan); !s) {
    return std::move(s).withContext(op);
  }
  if (type == OperationType::MAXIMUM) {
    *kernel = makeKernel<ops::Max>(a.type, std::move(plan));
  } else if (type == OperationType::MINIMUM) {
    *kernel = makeKernel<ops::Min>(a.type, std::move(plan));
  } else {
    return generalFailure(op + " is not MAXIMUM or MINIMUM");
  }
  return {};
}

}  // namespace nnfab::cpu
