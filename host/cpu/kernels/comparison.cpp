// EQUAL, NOT_EQUAL, LESS, LESS_EQUAL, GREATER, GREATER_EQUAL (docs/nnapi-semantics.md §2.3) on
// TENSOR_FLOAT32 (IEEE), TENSOR_INT32 (signed) and TENSOR_BOOL8 (raw bytes),
// with broadcasting; the result is TENSOR_BOOL8 0/1. Zero-sized inputs fail.
#include "cpu/kernels/elementwise.h"

namespace nnfab::cpu {
namespace {

template <typename Op>
std::unique_ptr<PreparedKernel> makeKernel(OperandType type, BroadcastPlan plan) {
  switch (type) {
    case OperandType::TENSOR_INT32:
      return makeBinaryKernel<Op, int32_t, uint8_t>(std::move(plan));
    case OperandType::TENSOR_BOOL8:
      return makeBinaryKernel<Op, uint8_t, uint8_t>(std::move(plan));
    default:
      break;
  }
  return makeBinaryKernel<Op, float, uint8_t>(std::move(plan));
}

}  // namespace

Status prepareComparison(OperationType type, std::span<const TensorArg> inputs,
                         std::span<OutputShape> outputs, std::unique_ptr<PreparedKernel>* kernel) {
  if (Status s = checkInputs(type, inputs, 2, outputs, /*allowZeroSized=*/false); !s) return s;
  const std::string op = opName(type);
  const TensorArg& a = inputs[0];
  const TensorArg& b = inputs[1];
  if (Status s = checkBinaryTypes(op, a, b, {OperandType::TENSOR_FLOAT32, OperandType::TENSOR_INT32,
                                             OperandType::TENSOR_BOOL8}); !s) return s;
  BroadcastPlan plan;
  if (Status s = prepareBroadcastOutput(a, b, OperandType::TENSOR_BOOL8, &outputs[0], &plan); !s) {
    return std::move(s).withContext(op);
  }
  switch (type) {
    case OperationType::LESS:
      *kernel = makeKernel<ops::Less>(a.type, std::move(plan));
      break;
    case OperationType::LESS_EQUAL:
      *kernel = makeKernel<ops::LessEqual>(a.type, std::move(plan));
      break;
    case OperationType::GREATER:
      *kernel = makeKernel<ops::Greater>(a.type, std::move(plan));
      break;
    case OperationType::GREATER_EQUAL:
      *kernel = makeKernel<ops::GreaterEqual>(a.type, std::move(plan));
      break;
    case OperationType::EQUAL:
      *kernel = makeKernel<ops::Equal>(a.type, std::move(plan));
      break;
    case OperationType::NOT_EQUAL:
      *kernel = makeKernel<ops::NotEqual>(a.type, std::move(plan));
      break;
    default:
      return generalFailure(op + " is not a comparison");
  }
  return {};
}

}  // namespace nnfab::cpu
