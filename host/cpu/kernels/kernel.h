// The CPU kernels' interface. The executor prepares a kernel whenever the
// shapes of an operation's inputs change (usually once per execution), then
// runs it as often as the operation executes (every loop iteration), so
// everything shape-dependent is computed in prepareKernel and runKernel
// neither allocates nor checks.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <string>

#include "model/model.h"
#include "model/status.h"

namespace nnfab::cpu {

// An operation input as a kernel sees it.
struct TensorArg {
  OperandType type = OperandType::TENSOR_FLOAT32;
  std::span<const uint32_t> dims;  // actual (run-time) dimensions
  float scale = 0.0f;
  int32_t zeroPoint = 0;
  const uint8_t* data = nullptr;  // nullptr: the operand has no value
  size_t bytes = 0;
};

// An operation output: on entry the declared operand (dims may hold 0 =
// unknown, or be empty = unknown rank); prepareKernel overwrites type, dims,
// scale and zeroPoint with what the operation produces for these inputs.
// The executor then checks them against the declaration.
struct OutputShape {
  OperandType type = OperandType::TENSOR_FLOAT32;
  Dimensions dims;
  float scale = 0.0f;
  int32_t zeroPoint = 0;
};

// Opaque, kernel-specific state computed by prepareKernel.
class PreparedKernel {
 public:
  virtual ~PreparedKernel() = default;
  // inputs[i] / outputs[i] point at buffers of the sizes prepared for
  // (outputs sized from the OutputShapes). Inputs may alias each other but
  // never an output.
  virtual void run(const uint8_t* const* inputs, uint8_t* const* outputs) const = 0;
};

// Whether the kernels implement this operation with these operand types
// (nnfab's subset of NNAPI; IF and WHILE are the executor's, not kernels').
// On false, *why says what is missing, e.g. "ADD on TENSOR_FLOAT16 is not
// supported by the CPU executor".
bool isSupported(const Subgraph& subgraph, const Operation& operation, std::string* why);

// Computes output shapes and a runnable kernel for these inputs. Failures are
// NNAPI's run-time OP_FAILED, i.e. GENERAL_FAILURE with a message
// (incompatible broadcast, INT32 activation not NONE, SELECT shapes differ,
// zero-sized input where the op forbids it, RESHAPE count mismatch, ...).
// Scalar parameter inputs (activation, RESHAPE's shape) are read here;
// a value that is missing (data == nullptr) is GENERAL_FAILURE.
Status prepareKernel(OperationType type, std::span<const TensorArg> inputs,
                     std::span<OutputShape> outputs, std::unique_ptr<PreparedKernel>* kernel);

// Which inputs prepareKernel reads the *values* of (scalars, shape tensors):
// the executor re-prepares when one of them may have changed.
bool isParameterInput(OperationType type, size_t inputIndex);

}  // namespace nnfab::cpu
