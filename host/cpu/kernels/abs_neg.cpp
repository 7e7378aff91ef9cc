// ABS, NEG (docs/nnapi-semantics.md §2.7) on TENSOR_FLOAT32 / TENSOR_INT32. INT32_MIN wraps to
// itself (isa/int32_semantics.h); float ABS/NEG only flip the sign bit (NaN stays NaN,
// NEG(0) = -0). Zero-sized inputs fail (§2.1).
#include "cpu/kernels/elementwise.h"

namespace nnfab::cpu {
namespace {

template <typename Op>
std::unique_ptr<PreparedKernel> makeKernel(OperandType type, size_t count) {
  if (type == OperandType::TENSOR_INT32) return std::make_unique<UnaryKernel<Op, int32_t, int32_t>>(count);
  return std::make_unique<UnaryKernel<Op, float, float>>(count);
}

}  // namespace

Status prepareAbsNeg(OperationType type, std::span<const TensorArg> inputs,
                     std::span<OutputShape> outputs, std::unique_ptr<PreparedKernel>* kernel) {
  if (Status s = checkInputs(type, inputs, 1, outputs, /*allowZeroSized=*/false); !s) return s;
  const TensorArg& in = inputs[0];
  if (in.type != OperandType::TENSOR_FLOAT32 && in.type != OperandType::TENSOR_INT32) {
    return generalFailure(opName(type) + " on " + std::string(toString(in.type)) +
                          " is not supported");
  }
  auto count = checkedElementCount(in.dims, sizeOfElement(in.type));
  if (!count) return std::move(count).takeStatus();
  setOutput(&outputs[0], in.type, in.dims);
  if (type == OperationType::ABS) {
    *kernel = makeKernel<ops::Abs>(in.type, *count);
  } else if (type == OperationType::NEG) {
    *kernel = makeKernel<ops::Neg>(in.type, *count);
  } else {
    return generalFailure(opName(type) + " is not ABS or NEG");
  }
  return {};
}

}  // namespace nnfab::cpu
