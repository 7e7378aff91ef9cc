// RESHAPE (docs/nnapi-semantics.md §2.10): the output takes the shape given by the 1-D
// TENSOR_INT32 input 1 (at most one -1, inferred), the data is copied byte
// for byte, so any element type works (isSupported limits it to NNAPI's
// TENSOR_FLOAT32 within nnfab's types). Zero-sized inputs fail (§2.1).
#include <algorithm>
#include <string>

#include "cpu/kernels/kernel_util.h"

namespace nnfab::cpu {

Status prepareReshape(std::span<const TensorArg> inputs, std::span<OutputShape> outputs,
                      std::unique_ptr<PreparedKernel>* kernel) {
  constexpr OperationType kOp = OperationType::RESHAPE;
  if (Status s = checkInputs(kOp, inputs, 2, outputs, /*allowZeroSized=*/false); !s) return s;
  const TensorArg& in = inputs[0];
  const TensorArg& shape = inputs[1];
  const size_t elementSize = sizeOfElement(in.type);
  if (!isTensorType(in.type) || elementSize == 0) {
    return generalFailure("RESHAPE on " + std::string(toString(in.type)) + " is not supported");
  }
  if (in.dims.size() > 4) {
    return generalFailure("RESHAPE supports inputs up to rank 4, got " + dimsToString(in.dims));
  }
  if (shape.type != OperandType::TENSOR_INT32 || shape.dims.size() != 1) {
    return generalFailure("RESHAPE shape must be a 1-D TENSOR_INT32, got " +
                          std::string(toString(shape.type)) + " " + dimsToString(shape.dims));
  }
  auto count = checkedElementCount(in.dims, elementSize);
  if (!count) return std::move(count).takeStatus();

  const size_t rank = shape.dims[0];
  Dimensions dims(rank);
  size_t inferred = rank;  // index of the -1 entry, rank = none
  uint64_t known = 1;      // product of the other entries, capped above UINT32_MAX
  std::string requested = "[";
  for (size_t i = 0; i < rank; ++i) {
    const int32_t d = load<int32_t>(shape.data, i);
    if (i != 0) requested += ',';
    requested += std::to_string(d);
    if (d == -1 && inferred == rank) {
      inferred = i;
      continue;
    }
    if (d < 0) {
      return generalFailure("RESHAPE shape entry " + std::to_string(i) + " is " +
                            std::to_string(d) + " (only a single -1 is allowed)");
    }
    dims[i] = static_cast<uint32_t>(d);
    known = std::min<uint64_t>(known * dims[i], uint64_t{UINT32_MAX} + 1);
  }
  requested += "]";
  if (inferred != rank) {
    // The input has no 0 dimension, so count > 0 and a 0 entry can never fit.
    if (known == 0 || *count % known != 0) {
      return generalFailure("RESHAPE cannot infer -1 in " + requested + " for " +
                            std::to_string(*count) + " elements");
    }
    dims[inferred] = static_cast<uint32_t>(*count / known);
  } else if (known != *count) {
    return generalFailure("RESHAPE shape " + requested + " does not match the input's " +
                          std::to_string(*count) + " elements " + dimsToString(in.dims));
  }
  OutputShape& out = outputs[0];
  out.type = in.type;
  out.dims = std::move(dims);
  out.scale = in.scale;  // RESHAPE keeps the quantization parameters
  out.zeroPoint = in.zeroPoint;
  *kernel = std::make_unique<CopyKernel>(*count * elementSize);
  return {};
}

}  // namespace nnfab::cpu
