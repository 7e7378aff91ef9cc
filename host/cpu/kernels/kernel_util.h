// Helpers shared by the kernel families: prepare-time checks and messages,
// unaligned-safe element access, and the per-family prepare entry points that
// kernels.cpp dispatches to.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <memory>
#include <initializer_list>
#include <span>
#include <string>

#include "cpu/kernels/kernel.h"
#include "model/model.h"
#include "model/status.h"

namespace nnfab::cpu {

// "[2,3]" for messages.
std::string dimsToString(std::span<const uint32_t> dims);
// "ADD" etc.
std::string opName(OperationType type);

// Element count of a run-time shape, or RESOURCE_EXHAUSTED_PERSISTENT when the
// count or the byte size (with elementSize) does not fit in uint32 (NNAPI's
// size limit).
Result<size_t> checkedElementCount(std::span<const uint32_t> dims, size_t elementSize);

bool hasZeroDimension(std::span<const uint32_t> dims);

// Arity, presence of values, and (unless the operation accepts zero-sized
// tensors) the absence of 0 dimensions on every input; docs/nnapi-semantics.md §2.1.
Status checkInputs(OperationType type, std::span<const TensorArg> inputs, size_t inputCount,
                   std::span<OutputShape> outputs, bool allowZeroSized);

// Both operands of a binary operation have the same type, one of `allowed`.
Status checkBinaryTypes(const std::string& op, const TensorArg& a, const TensorArg& b,
                        std::initializer_list<OperandType> allowed);

// An INT32 scalar parameter (data must be present).
Result<int32_t> readInt32Scalar(OperationType type, const TensorArg& arg, const char* what);

// The fused activation code, checked to be one of NONE/RELU/RELU1/RELU6.
Result<FusedActivation> readActivation(OperationType type, const TensorArg& arg);

// Fills an OutputShape for a non-quantized result.
void setOutput(OutputShape* out, OperandType type, std::span<const uint32_t> dims);

// Element access through memcpy: buffers need no particular alignment, and
// compilers turn these into plain (vectorizable) loads and stores.
template <typename T>
inline T load(const uint8_t* p, size_t i) {
  T v;
  std::memcpy(&v, p + i * sizeof(T), sizeof(T));
  return v;
}
template <typename T>
inline void store(uint8_t* p, size_t i, T v) {
  std::memcpy(p + i * sizeof(T), &v, sizeof(T));
}

// The kernel of an operation whose output has no elements.
class NoopKernel final : public PreparedKernel {
 public:
  void run(const uint8_t* const*, uint8_t* const*) const override {}
};

// Copies input 0 to output 0 byte for byte (identity CAST, RESHAPE).
class CopyKernel final : public PreparedKernel {
 public:
  explicit CopyKernel(size_t bytes) : bytes_(bytes) {}
  void run(const uint8_t* const* in, uint8_t* const* out) const override {
    std::memcpy(out[0], in[0], bytes_);
  }

 private:
  size_t bytes_;
};

// Per-family prepare functions (type checks included: prepareKernel may be
// called with anything).
Status prepareArithmetic(OperationType type, std::span<const TensorArg> inputs,
                         std::span<OutputShape> outputs, std::unique_ptr<PreparedKernel>* kernel);
Status prepareMinMax(OperationType type, std::span<const TensorArg> inputs,
                     std::span<OutputShape> outputs, std::unique_ptr<PreparedKernel>* kernel);
Status prepareAbsNeg(OperationType type, std::span<const TensorArg> inputs,
                     std::span<OutputShape> outputs, std::unique_ptr<PreparedKernel>* kernel);
Status prepareComparison(OperationType type, std::span<const TensorArg> inputs,
                         std::span<OutputShape> outputs, std::unique_ptr<PreparedKernel>* kernel);
Status prepareLogical(OperationType type, std::span<const TensorArg> inputs,
                      std::span<OutputShape> outputs, std::unique_ptr<PreparedKernel>* kernel);
Status prepareSelect(std::span<const TensorArg> inputs, std::span<OutputShape> outputs,
                     std::unique_ptr<PreparedKernel>* kernel);
Status prepareCast(std::span<const TensorArg> inputs, std::span<OutputShape> outputs,
                   std::unique_ptr<PreparedKernel>* kernel);
Status prepareReshape(std::span<const TensorArg> inputs, std::span<OutputShape> outputs,
                      std::unique_ptr<PreparedKernel>* kernel);
Status prepareSlice(std::span<const TensorArg> inputs, std::span<OutputShape> outputs,
                    std::unique_ptr<PreparedKernel>* kernel);
Status prepareFloorRelu(OperationType type, std::span<const TensorArg> inputs,
                        std::span<OutputShape> outputs, std::unique_ptr<PreparedKernel>* kernel);
Status prepareFullyConnected(std::span<const TensorArg> inputs, std::span<OutputShape> outputs,
                             std::unique_ptr<PreparedKernel>* kernel);

}  // namespace nnfab::cpu
