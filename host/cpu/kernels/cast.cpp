// CAST (docs/nnapi-semantics.md §2.6) within nnfab's types: TENSOR_FLOAT32 <-> TENSOR_INT32 and
// the identity casts of TENSOR_FLOAT32, TENSOR_INT32 and TENSOR_BOOL8. The
// output type is the declared one (OutputShape on entry). Scale and zero
// point are ignored, as in NNAPI. Zero-sized inputs fail (§2.1).
//
// float -> int32 truncates toward zero like NNAPI's static_cast and defines
// the cases where that is undefined: NaN -> 0, out of range saturates to
// INT32_MIN / INT32_MAX (int32_math::saturatingFloatToInt32).
// int32 -> float rounds to nearest even (static_cast under the default
// rounding mode), e.g. 16777217 -> 16777216.0f.
#include "cpu/kernels/elementwise.h"

namespace nnfab::cpu {
namespace {

bool isCastType(OperandType t) {
  return t == OperandType::TENSOR_FLOAT32 || t == OperandType::TENSOR_INT32 ||
         t == OperandType::TENSOR_BOOL8;
}

}  // namespace

Status prepareCast(std::span<const TensorArg> inputs, std::span<OutputShape> outputs,
                   std::unique_ptr<PreparedKernel>* kernel) {
  constexpr OperationType kOp = OperationType::CAST;
  if (Status s = checkInputs(kOp, inputs, 1, outputs, /*allowZeroSized=*/false); !s) return s;
  const TensorArg& in = inputs[0];
  const OperandType from = in.type;
  const OperandType to = outputs[0].type;
  // BOOL8 casts only to itself; FLOAT32 and INT32 to either.
  const bool ok = isCastType(from) && isCastType(to) &&
                  (from == to || (from != OperandType::TENSOR_BOOL8 && to != OperandType::TENSOR_BOOL8));
  if (!ok) {
    return generalFailure("CAST from " + std::string(toString(from)) + " to " +
                          std::string(toString(to)) + " is not supported");
  }
  auto count = checkedElementCount(in.dims, sizeOfElement(from));
  if (!count) return std::move(count).takeStatus();
  setOutput(&outputs[0], to, in.dims);
  if (from == to) {
    *kernel = std::make_unique<CopyKernel>(*count * sizeOfElement(from));
  } else if (from == OperandType::TENSOR_FLOAT32) {
    *kernel = std::make_unique<UnaryKernel<ops::FloatToInt32, float, int32_t>>(*count);
  } else {
    *kernel = std::make_unique<UnaryKernel<ops::Int32ToFloat, int32_t, float>>(*count);
  }
  return {};
}

}  // namespace nnfab::cpu
