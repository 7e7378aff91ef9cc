// ADD, SUB, MUL, DIV (docs/nnapi-semantics.md §2.2): TENSOR_FLOAT32 with a fused activation,
// TENSOR_INT32 with activation NONE only and nnfab's wrap-around / floor
// division semantics (isa/int32_semantics.h). Zero-sized inputs are allowed.
#include "cpu/kernels/elementwise.h"

namespace nnfab::cpu {
namespace {

template <typename Op>
std::unique_ptr<PreparedKernel> makeFloatKernel(FusedActivation act, BroadcastPlan plan) {
  switch (act) {
    case FusedActivation::NONE:
      break;
    case FusedActivation::RELU:
      return makeBinaryKernel<ops::Activated<Op, ops::ActRelu>, float, float>(std::move(plan));
    case FusedActivation::RELU1:
      return makeBinaryKernel<ops::Activated<Op, ops::ActRelu1>, float, float>(std::move(plan));
    case FusedActivation::RELU6:
      return makeBinaryKernel<ops::Activated<Op, ops::ActRelu6>, float, float>(std::move(plan));
  }
  return makeBinaryKernel<Op, float, float>(std::move(plan));
}

template <typename Op>
std::unique_ptr<PreparedKernel> makeKernel(OperandType type, FusedActivation act,
                                           BroadcastPlan plan) {
  if (type == OperandType::TENSOR_INT32) {
    return makeBinaryKernel<Op, int32_t, int32_t>(std::move(plan));
  }
  return makeFloatKernel<Op>(act, std::move(plan));
}

}  // namespace

Status prepareArithmetic(OperationType type, std::span<const TensorArg> inputs,
                         std::span<OutputShape> outputs, std::unique_ptr<PreparedKernel>* kernel) {
  if (Status s = checkInputs(type, inputs, 3, outputs, /*allowZeroSized=*/true); !s) return s;
  const std::string op = opName(type);
  const TensorArg& a = inputs[0];
  const TensorArg& b = inputs[1];
  if (Status s = checkBinaryTypes(op, a, b, {OperandType::TENSOR_FLOAT32, OperandType::TENSOR_INT32}); !s) return s;
  if (a.dims.size() > 4 || b.dims.size() > 4) {
    return generalFailure(op + " supports tensors up to rank 4, got " + dimsToString(a.dims) +
                          " and " + dimsToString(b.dims));
  }
  auto act = readActivation(type, inputs[2]);
  if (!act) return std::move(act).takeStatus();
  if (a.type == OperandType::TENSOR_INT32 && *act != FusedActivation::NONE) {
    return generalFailure(op + " on TENSOR_INT32 requires activation NONE, got " +
                          std::to_string(static_cast<int32_t>(*act)));
  }
  BroadcastPlan plan;
  if (Status s = prepareBroadcastOutput(a, b, a.type, &outputs[0], &plan); !s) {
    return std::move(s).withContext(op);
  }
  switch (type) {
    case OperationType::ADD:
      *kernel = makeKernel<ops::Add>(a.type, *act, std::move(plan));
      break;
    case OperationType::SUB:
      *kernel = makeKernel<ops::Sub>(a.type, *act, std::move(plan));
      break;
    case OperationType::MUL:
      *kernel = makeKernel<ops::Mul>(a.type, *act, std::move(plan));
      break;
    case OperationType::DIV:
      *kernel = makeKernel<ops::Div>(a.type, *act, std::move(plan));
      break;
    default:
      return generalFailure(op + " is not an arithmetic operation");
  }
  return {};
}

}  // namespace nnfab::cpu
