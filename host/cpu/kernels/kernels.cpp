// Entry points of kernel.h: which operations and operand types the CPU
// kernels implement, and dispatch of prepareKernel to the families.
#include <string>

#include "cpu/kernels/kernel.h"
#include "cpu/kernels/kernel_util.h"

namespace nnfab::cpu {
namespace {

using T = OperandType;

bool isFloatOrInt(T t) { return t == T::TENSOR_FLOAT32 || t == T::TENSOR_INT32; }

// Checks an operation's operand types against a signature, producing
// "ADD on TENSOR_FLOAT16 is not supported by the CPU executor"-style reasons.
class SignatureCheck {
 public:
  SignatureCheck(const Subgraph& subgraph, const Operation& operation, std::string* why)
      : subgraph_(subgraph), operation_(operation), why_(why), name_(opName(operation.type)) {}

  // Counts, and operand indexes in range (so in()/out() are safe after it).
  bool arity(size_t inputs, size_t outputs) {
    if (operation_.inputs.size() != inputs || operation_.outputs.size() != outputs) {
      return fail(name_ + " expects " + std::to_string(inputs) + " inputs and " +
                  std::to_string(outputs) + " outputs");
    }
    for (uint32_t index : operation_.inputs) {
      if (index >= subgraph_.operands.size()) return fail(name_ + " refers to a missing operand");
    }
    for (uint32_t index : operation_.outputs) {
      if (index >= subgraph_.operands.size()) return fail(name_ + " refers to a missing operand");
    }
    return true;
  }
  T in(size_t i) const { return subgraph_.operands[operation_.inputs[i]].type; }
  T out(size_t i) const { return subgraph_.operands[operation_.outputs[i]].type; }

  bool unsupported(T type) {
    return fail(name_ + " on " + std::string(toString(type)) + " is not supported by the CPU executor");
  }
  // Input i must have type `want`.
  bool input(size_t i, T want) {
    if (in(i) == want) return true;
    return fail(name_ + " input " + std::to_string(i) + " is " + std::string(toString(in(i))) +
                ", expected " + std::string(toString(want)));
  }
  bool output(T want) {
    if (out(0) == want) return true;
    return fail(name_ + " output is " + std::string(toString(out(0))) + ", expected " +
                std::string(toString(want)));
  }
  bool fail(const std::string& message) {
    if (why_ != nullptr) *why_ = message;
    return false;
  }

 private:
  const Subgraph& subgraph_;
  const Operation& operation_;
  std::string* why_;
  std::string name_;
};

bool supportedBinary(SignatureCheck& c, bool (*typeOk)(T), T outType, bool sameOut) {
  const T t = c.in(0);
  if (!typeOk(t)) return c.unsupported(t);
  return c.input(1, t) && c.output(sameOut ? t : outType);
}

bool isCompared(T t) { return isFloatOrInt(t) || t == T::TENSOR_BOOL8; }
bool isBool8(T t) { return t == T::TENSOR_BOOL8; }

}  // namespace

bool isSupported(const Subgraph& subgraph, const Operation& operation, std::string* why) {
  SignatureCheck c(subgraph, operation, why);
  switch (operation.type) {
    case OperationType::ADD:
    case OperationType::SUB:
    case OperationType::MUL:
    case OperationType::DIV:
      return c.arity(3, 1) && supportedBinary(c, isFloatOrInt, T::TENSOR_FLOAT32, true) &&
             c.input(2, T::INT32);
    case OperationType::MAXIMUM:
    case OperationType::MINIMUM:
      return c.arity(2, 1) && supportedBinary(c, isFloatOrInt, T::TENSOR_FLOAT32, true);
    case OperationType::LESS:
    case OperationType::LESS_EQUAL:
    case OperationType::GREATER:
    case OperationType::GREATER_EQUAL:
    case OperationType::EQUAL:
    case OperationType::NOT_EQUAL:
      return c.arity(2, 1) && supportedBinary(c, isCompared, T::TENSOR_BOOL8, false);
    case OperationType::LOGICAL_AND:
    case OperationType::LOGICAL_OR:
      return c.arity(2, 1) && supportedBinary(c, isBool8, T::TENSOR_BOOL8, true);
    case OperationType::LOGICAL_NOT:
      if (!c.arity(1, 1)) return false;
      if (!isBool8(c.in(0))) return c.unsupported(c.in(0));
      return c.output(T::TENSOR_BOOL8);
    case OperationType::ABS:
    case OperationType::NEG:
      if (!c.arity(1, 1)) return false;
      if (!isFloatOrInt(c.in(0))) return c.unsupported(c.in(0));
      return c.output(c.in(0));
    case OperationType::SELECT:
      if (!c.arity(3, 1) || !c.input(0, T::TENSOR_BOOL8)) return false;
      if (!isFloatOrInt(c.in(1))) return c.unsupported(c.in(1));
      return c.input(2, c.in(1)) && c.output(c.in(1));
    case OperationType::CAST: {
      if (!c.arity(1, 1)) return false;
      const T from = c.in(0), to = c.out(0);
      if (isFloatOrInt(from) && isFloatOrInt(to)) return true;
      if (from == T::TENSOR_BOOL8 && to == T::TENSOR_BOOL8) return true;
      return c.fail("CAST from " + std::string(toString(from)) + " to " +
                    std::string(toString(to)) + " is not supported by the CPU executor");
    }
    case OperationType::RESHAPE:
      if (!c.arity(2, 1)) return false;
      if (c.in(0) != T::TENSOR_FLOAT32) return c.unsupported(c.in(0));
      return c.input(1, T::TENSOR_INT32) && c.output(T::TENSOR_FLOAT32);
    case OperationType::FULLY_CONNECTED:
      if (!c.arity(4, 1)) return false;
      if (c.in(0) != T::TENSOR_FLOAT32) return c.unsupported(c.in(0));
      return c.input(1, T::TENSOR_FLOAT32) && c.input(2, T::TENSOR_FLOAT32) &&
             c.input(3, T::INT32) && c.output(T::TENSOR_FLOAT32);
    case OperationType::SLICE:
      if (!c.arity(3, 1)) return false;
      if (!isFloatOrInt(c.in(0))) return c.unsupported(c.in(0));
      return c.input(1, T::TENSOR_INT32) && c.input(2, T::TENSOR_INT32) && c.output(c.in(0));
    case OperationType::FLOOR:
    case OperationType::RELU:
      if (!c.arity(1, 1)) return false;
      if (c.in(0) != T::TENSOR_FLOAT32) return c.unsupported(c.in(0));
      return c.output(T::TENSOR_FLOAT32);
    case OperationType::IF:
    case OperationType::WHILE:
      return c.fail(opName(operation.type) +
                    " is control flow, run by the executor, not by a CPU kernel");
    default:
      return c.fail(opName(operation.type) + " is not supported by the CPU executor");
  }
}

Status prepareKernel(OperationType type, std::span<const TensorArg> inputs,
                     std::span<OutputShape> outputs, std::unique_ptr<PreparedKernel>* kernel) {
  switch (type) {
    case OperationType::ADD:
    case OperationType::SUB:
    case OperationType::MUL:
    case OperationType::DIV:
      return prepareArithmetic(type, inputs, outputs, kernel);
    case OperationType::MAXIMUM:
    case OperationType::MINIMUM:
      return prepareMinMax(type, inputs, outputs, kernel);
    case OperationType::ABS:
    case OperationType::NEG:
      return prepareAbsNeg(type, inputs, outputs, kernel);
    case OperationType::LESS:
    case OperationType::LESS_EQUAL:
    case OperationType::GREATER:
    case OperationType::GREATER_EQUAL:
    case OperationType::EQUAL:
    case OperationType::NOT_EQUAL:
      return prepareComparison(type, inputs, outputs, kernel);
    case OperationType::LOGICAL_AND:
    case OperationType::LOGICAL_OR:
    case OperationType::LOGICAL_NOT:
      return prepareLogical(type, inputs, outputs, kernel);
    case OperationType::SELECT:
      return prepareSelect(inputs, outputs, kernel);
    case OperationType::CAST:
      return prepareCast(inputs, outputs, kernel);
    case OperationType::RESHAPE:
      return prepareReshape(inputs, outputs, kernel);
    case OperationType::FULLY_CONNECTED:
      return prepareFullyConnected(inputs, outputs, kernel);
    case OperationType::SLICE:
      return prepareSlice(inputs, outputs, kernel);
    case OperationType::FLOOR:
    case OperationType::RELU:
      return prepareFloorRelu(type, inputs, outputs, kernel);
    default:
      return generalFailure(opName(type) + " has no CPU kernel");
  }
}

bool isParameterInput(OperationType type, size_t inputIndex) {
  switch (type) {
    case OperationType::ADD:
    case OperationType::SUB:
    case OperationType::MUL:
    case OperationType::DIV:
      return inputIndex == 2;  // fused activation
    case OperationType::FULLY_CONNECTED:
      return inputIndex == 3;  // fused activation
    case OperationType::RESHAPE:
      return inputIndex == 1;  // target shape
    case OperationType::SLICE:
      return inputIndex == 1 || inputIndex == 2;  // begin, size
    default:
      return false;
  }
}

}  // namespace nnfab::cpu
