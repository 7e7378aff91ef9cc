#include "cpu/kernels/kernel_util.h"

#include <algorithm>
#include <cstdint>

namespace nnfab::cpu {

std::string dimsToString(std::span<const uint32_t> dims) {
  std::string s = "[";
  for (size_t i = 0; i < dims.size(); ++i) {
    if (i != 0) s += ',';
    s += std::to_string(dims[i]);
  }
  return s + "]";
}

std::string opName(OperationType type) { return std::string(toString(type)); }

Result<size_t> checkedElementCount(std::span<const uint32_t> dims, size_t elementSize) {
  // Like nnfab::elementCount: an overflow before a later 0 dimension still
  // counts as too large, so the kernels and the executor agree.
  uint64_t count = 1;
  for (uint32_t d : dims) {
    count *= d;  // at most UINT32_MAX * UINT32_MAX: cannot overflow uint64
    if (count > UINT32_MAX) break;
  }
  if (count > UINT32_MAX || count * elementSize > UINT32_MAX) {
    // The same status as the executor's per-tensor limit: the model asks for
    // more than can ever be given, whichever check notices first.
    return Status(ErrorStatus::RESOURCE_EXHAUSTED_PERSISTENT,
                  "tensor of shape " + dimsToString(dims) + " is too large (over 4 GiB)");
  }
  return static_cast<size_t>(count);
}

bool hasZeroDimension(std::span<const uint32_t> dims) {
  for (uint32_t d : dims) {
    if (d == 0) return true;
  }
  return false;
}

Status checkInputs(OperationType type, std::span<const TensorArg> inputs, size_t inputCount,
                   std::span<OutputShape> outputs, bool allowZeroSized) {
  const std::string op = opName(type);
  if (inputs.size() != inputCount || outputs.size() != 1) {
    return generalFailure(op + " expects " + std::to_string(inputCount) + " inputs and 1 output, got " +
                          std::to_string(inputs.size()) + " and " + std::to_string(outputs.size()));
  }
  for (size_t i = 0; i < inputs.size(); ++i) {
    const TensorArg& in = inputs[i];
    const std::string where = op + " input " + std::to_string(i);
    if (isScalarType(in.type)) {
      if (in.data == nullptr) return generalFailure(where + " has no value");
      if (in.bytes < sizeOfElement(in.type)) return generalFailure(where + " is truncated");
      continue;
    }
    if (!allowZeroSized && hasZeroDimension(in.dims)) {
      return generalFailure(where + " is zero-sized " + dimsToString(in.dims) +
                            ", which " + op + " does not accept");
    }
    auto count = checkedElementCount(in.dims, sizeOfElement(in.type));
    if (!count) return std::move(count).takeStatus().withContext(where);
    // A tensor without elements may legitimately have no buffer.
    if (*count == 0) continue;
    if (in.data == nullptr) return generalFailure(where + " has no value");
    if (in.bytes < *count * sizeOfElement(in.type)) {
      return generalFailure(where + " has " + std::to_string(in.bytes) + " bytes, shape " +
                            dimsToString(in.dims) + " needs " +
                            std::to_string(*count * sizeOfElement(in.type)));
    }
  }
  return {};
}

Result<int32_t> readInt32Scalar(OperationType type, const TensorArg& arg, const char* what) {
  if (arg.data == nullptr) return generalFailure(opName(type) + " " + what + " has no value");
  if (arg.type != OperandType::INT32 || arg.bytes < sizeof(int32_t)) {
    return generalFailure(opName(type) + " " + what + " must be an INT32 scalar");
  }
  return load<int32_t>(arg.data, 0);
}

Result<FusedActivation> readActivation(OperationType type, const TensorArg& arg) {
  auto value = readInt32Scalar(type, arg, "activation");
  if (!value) return std::move(value).takeStatus();
  if (*value < 0 || *value > 3) {
    return generalFailure(opName(type) + ": unsupported fused activation function " +
                          std::to_string(*value));
  }
  return static_cast<FusedActivation>(*value);
}

void setOutput(OutputShape* out, OperandType type, std::span<const uint32_t> dims) {
  out->type = type;
  out->dims.assign(dims.begin(), dims.end());
  out->scale = 0.0f;
  out->zeroPoint = 0;
}

Status checkBinaryTypes(const std::string& op, const TensorArg& a, const TensorArg& b,
                        std::initializer_list<OperandType> allowed) {
  if (std::find(allowed.begin(), allowed.end(), a.type) == allowed.end()) {
    return generalFailure(op + " on " + std::string(toString(a.type)) + " is not supported");
  }
  if (b.type != a.type) {
    return generalFailure(op + " inputs have different types " + std::string(toString(a.type)) +
                          " and " + std::string(toString(b.type)));
  }
  return Status::ok();
}

}  // namespace nnfab::cpu
