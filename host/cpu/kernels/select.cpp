// SELECT (docs/nnapi-semantics.md §2.5): out[i] = mask[i] ? x[i] : y[i], no broadcasting: mask,
// x and y must have identical dimensions, x and y the same type
// (TENSOR_FLOAT32 or TENSOR_INT32). Zero-sized inputs fail (§2.1).
#include <algorithm>

#include "cpu/kernels/elementwise.h"

namespace nnfab::cpu {
namespace {

// Selects whole 4-byte elements as bit patterns: exact for float (NaN
// payloads and -0 survive) and int32 alike.
class SelectKernel final : public PreparedKernel {
 public:
  explicit SelectKernel(size_t count) : count_(count) {}
  void run(const uint8_t* const* in, uint8_t* const* out) const override {
    const uint8_t* mask = in[0];
    const uint8_t* x = in[1];
    const uint8_t* y = in[2];
    uint8_t* __restrict o = out[0];
    for (size_t i = 0; i < count_; ++i) {
      store<uint32_t>(o, i, mask[i] != 0 ? load<uint32_t>(x, i) : load<uint32_t>(y, i));
    }
  }

 private:
  size_t count_;
};

}  // namespace

Status prepareSelect(std::span<const TensorArg> inputs, std::span<OutputShape> outputs,
                     std::unique_ptr<PreparedKernel>* kernel) {
  constexpr OperationType kOp = OperationType::SELECT;
  if (Status s = checkInputs(kOp, inputs, 3, outputs, /*allowZeroSized=*/false); !s) return s;
  const TensorArg& mask = inputs[0];
  const TensorArg& x = inputs[1];
  const TensorArg& y = inputs[2];
  if (mask.type != OperandType::TENSOR_BOOL8) {
    return generalFailure("SELECT mask is " + std::string(toString(mask.type)) +
                          ", must be TENSOR_BOOL8");
  }
  if (x.type != OperandType::TENSOR_FLOAT32 && x.type != OperandType::TENSOR_INT32) {
    return generalFailure("SELECT on " + std::string(toString(x.type)) + " is not supported");
  }
  if (y.type != x.type) {
    return generalFailure("SELECT inputs have different types " + std::string(toString(x.type)) +
                          " and " + std::string(toString(y.type)));
  }
  // std::equal, not std::ranges: clang 14 (fuzz builds) cannot compile libstdc++ 12's <ranges>.
  if (!std::equal(mask.dims.begin(), mask.dims.end(), x.dims.begin(), x.dims.end()) ||
      !std::equal(x.dims.begin(), x.dims.end(), y.dims.begin(), y.dims.end())) {
    return generalFailure("SELECT needs identical shapes, got mask " + dimsToString(mask.dims) +
                          ", x " + dimsToString(x.dims) + ", y " + dimsToString(y.dims));
  }
  auto count = checkedElementCount(x.dims, sizeOfElement(x.type));
  if (!count) return std::move(count).takeStatus();
  setOutput(&outputs[0], x.type, x.dims);
  *kernel = std::make_unique<SelectKernel>(*count);
  return {};
}

}  // namespace nnfab::cpu
