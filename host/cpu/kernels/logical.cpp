// LOGICAL_AND, LOGICAL_OR (broadcasting) and LOGICAL_NOT (docs/nnapi-semantics.md §2.4) on
// TENSOR_BOOL8: non-zero bytes are true, results are exactly 0 or 1.
// Zero-sized inputs fail (§2.1).
#include "cpu/kernels/elementwise.h"

namespace nnfab::cpu {
namespace {

Status requireBool8(OperationType type, const TensorArg& in, size_t index) {
  if (in.type == OperandType::TENSOR_BOOL8) return {};
  return generalFailure(opName(type) + " input " + std::to_string(index) + " is " +
                        std::string(toString(in.type)) + ", only TENSOR_BOOL8 is supported");
}

}  // namespace

Status prepareLogical(OperationType type, std::span<const TensorArg> inputs,
                      std::span<OutputShape> outputs, std::unique_ptr<PreparedKernel>* kernel) {
  const bool unary = type == OperationType::LOGICAL_NOT;
  if (Status s = checkInputs(type, inputs, unary ? 1 : 2, outputs, /*allowZeroSized=*/false); !s) {
    return s;
  }
  for (size_t i = 0; i < inputs.size(); ++i) {
    if (Status s = requireBool8(type, inputs[i], i); !s) return s;
  }
  if (unary) {
    auto count = checkedElementCount(inputs[0].dims, 1);
    if (!count) return std::move(count).takeStatus();
    setOutput(&outputs[0], OperandType::TENSOR_BOOL8, inputs[0].dims);
    *kernel = std::make_unique<UnaryKernel<ops::LogicalNot, uint8_t, uint8_t>>(*count);
    return {};
  }
  BroadcastPlan plan;
  if (Status s = prepareBroadcastOutput(inputs[0], inputs[1], OperandType::TENSOR_BOOL8,
                                        &outputs[0], &plan);
      !s) {
    return std::move(s).withContext(opName(type));
  }
  if (type == OperationType::LOGICAL_AND) {
    *kernel = makeBinaryKernel<ops::LogicalAnd, uint8_t, uint8_t>(std::move(plan));
  } else if (type == OperationType::LOGICAL_OR) {
    *kernel = makeBinaryKernel<ops::LogicalOr, uint8_t, uint8_t>(std::move(plan));
  } else {
    return generalFailure(opName(type) + " is not a logical operation");
  }
  return {};
}

}  // namespace nnfab::cpu
