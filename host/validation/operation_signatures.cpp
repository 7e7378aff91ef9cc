// Operand counts and types of nnfab's non-control-flow operations, as NNAPI's
// per-operation validate functions check them (§2). Only what NNAPI checks at
// model level is checked here: e.g. an INT32 ADD with a non-zero activation is
// a valid model that fails at execution. Shape rules that NNAPI leaves to
// prepare time (broadcast compatibility, SELECT shapes) are not checked.
#include <fmt/format.h>

#include <array>
#include <span>

#include "validation/validate_internal.h"

namespace nnfab::validation {
namespace {

using T = OperandType;
using TypeList = std::span<const OperandType>;

constexpr std::array kArithmeticTypes = {T::TENSOR_FLOAT32, T::TENSOR_FLOAT16,
                                         T::TENSOR_QUANT8_ASYMM, T::TENSOR_QUANT8_ASYMM_SIGNED,
                                         T::TENSOR_INT32};
// DIV has no quantized variant.
constexpr std::array kDivTypes = {T::TENSOR_FLOAT32, T::TENSOR_FLOAT16, T::TENSOR_INT32};
constexpr std::array kComparisonTypes = {T::TENSOR_BOOL8,        T::TENSOR_FLOAT16,
                                         T::TENSOR_FLOAT32,      T::TENSOR_INT32,
                                         T::TENSOR_QUANT8_ASYMM, T::TENSOR_QUANT8_ASYMM_SIGNED};
constexpr std::array kBoolTypes = {T::TENSOR_BOOL8};
// SELECT, MAXIMUM, MINIMUM.
constexpr std::array kSelectTypes = {T::TENSOR_FLOAT16, T::TENSOR_FLOAT32, T::TENSOR_INT32,
                                     T::TENSOR_QUANT8_ASYMM, T::TENSOR_QUANT8_ASYMM_SIGNED};
constexpr std::array kAbsNegTypes = {T::TENSOR_FLOAT16, T::TENSOR_FLOAT32, T::TENSOR_INT32};
// CAST between any two of these (1.2); the identity cast of kCastIdentityTypes (1.3).
constexpr std::array kCastConvertibleTypes = {T::TENSOR_FLOAT16, T::TENSOR_FLOAT32, T::TENSOR_INT32,
                                              T::TENSOR_QUANT8_ASYMM};
constexpr std::array kCastIdentityTypes = {T::TENSOR_BOOL8, T::TENSOR_QUANT16_ASYMM,
                                           T::TENSOR_QUANT16_SYMM, T::TENSOR_QUANT8_ASYMM_SIGNED,
                                           T::TENSOR_QUANT8_SYMM};
// RESHAPE and FULLY_CONNECTED: no TENSOR_INT32 data.
constexpr std::array kReshapeTypes = {T::TENSOR_FLOAT32, T::TENSOR_FLOAT16, T::TENSOR_QUANT8_ASYMM,
                                      T::TENSOR_QUANT8_ASYMM_SIGNED};
constexpr std::array kFullyConnectedTypes = kReshapeTypes;
// SLICE (1.2; the signed 8-bit variant 1.3).
constexpr std::array kSliceTypes = {T::TENSOR_FLOAT32, T::TENSOR_FLOAT16, T::TENSOR_INT32,
                                    T::TENSOR_QUANT8_ASYMM, T::TENSOR_QUANT8_ASYMM_SIGNED};
// FLOOR: floats only; RELU: floats and 8-bit quantized.
constexpr std::array kFloorTypes = {T::TENSOR_FLOAT32, T::TENSOR_FLOAT16};
constexpr std::array kReluTypes = kReshapeTypes;

// The broadcast arithmetic ops and RESHAPE reject a known rank above 4.
constexpr size_t kMaxRank = 4;

bool contains(TypeList list, OperandType t) {
  for (OperandType candidate : list) {
    if (candidate == t) return true;
  }
  return false;
}

std::string typeNames(TypeList list) {
  std::string names;
  for (OperandType t : list) {
    if (!names.empty()) names += ", ";
    names += toString(t);
  }
  return names;
}

std::string opName(const OperationView& op) { return std::string(toString(op.operation().type)); }

Status checkCounts(const OperationView& op, size_t inputs, size_t outputs) {
  if (op.inputCount() == inputs && op.outputCount() == outputs) return Status::ok();
  return op.error(fmt::format("{} takes {} inputs and {} outputs, got {} inputs and {} outputs",
                              opName(op), inputs, outputs, op.inputCount(), op.outputCount()));
}

// The type that selects the operation's variant must be one of `allowed`.
Status checkVariantType(const OperationView& op, size_t input, TypeList allowed) {
  const OperandType t = op.input(input).type;
  if (contains(allowed, t)) return Status::ok();
  return op.inputError(input, fmt::format("unsupported type {} for {} (allowed: {})", toString(t),
                                          opName(op), typeNames(allowed)));
}

// Every input and output has exactly the listed type.
Status checkTypes(const OperationView& op, TypeList inputs, TypeList outputs) {
  for (size_t i = 0; i < inputs.size(); ++i) {
    if (op.input(i).type != inputs[i]) {
      return op.inputError(
          i, fmt::format("type {}, expected {}", toString(op.input(i).type), toString(inputs[i])));
    }
  }
  for (size_t i = 0; i < outputs.size(); ++i) {
    if (op.output(i).type != outputs[i]) {
      return op.outputError(i, fmt::format("type {}, expected {}", toString(op.output(i).type),
                                           toString(outputs[i])));
    }
  }
  return Status::ok();
}

Status checkRankAtMost4(const OperationView& op, size_t input) {
  const size_t rank = op.input(input).dimensions.size();
  if (rank <= kMaxRank) return Status::ok();
  return op.inputError(input, fmt::format("rank {} exceeds {} for {}", rank, kMaxRank, opName(op)));
}

// ADD, SUB, MUL, DIV: {T, T, INT32 activation} -> {T}.
Status validateBroadcastArithmetic(const OperationView& op) {
  if (Status s = checkCounts(op, 3, 1); !s) return s;
  const bool isDiv = op.operation().type == OperationType::DIV;
  const TypeList allowed = isDiv ? TypeList(kDivTypes) : TypeList(kArithmeticTypes);
  if (Status s = checkVariantType(op, 0, allowed); !s) return s;
  const OperandType t = op.input(0).type;
  if (op.operation().type == OperationType::MUL && t == T::TENSOR_QUANT8_ASYMM) {
    const float product = op.input(0).scale * op.input(1).scale;
    if (!(op.output(0).scale > product)) {
      return op.outputError(0, fmt::format("TENSOR_QUANT8_ASYMM MUL needs an output scale "
                                           "greater than the product of the input scales ({}), "
                                           "got {}",
                                           product, op.output(0).scale));
    }
  }
  // NNAPI checks the rank limit only when both ranks are known.
  if (!op.input(0).dimensions.empty() && !op.input(1).dimensions.empty()) {
    if (Status s = checkRankAtMost4(op, 0); !s) return s;
    if (Status s = checkRankAtMost4(op, 1); !s) return s;
  }
  const std::array inputs = {t, t, T::INT32};
  const std::array outputs = {t};
  return checkTypes(op, inputs, outputs);
}

// EQUAL ... LESS_EQUAL: {T, T} -> {TENSOR_BOOL8}.
Status validateComparison(const OperationView& op) {
  if (Status s = checkCounts(op, 2, 1); !s) return s;
  if (Status s = checkVariantType(op, 0, kComparisonTypes); !s) return s;
  const OperandType t = op.input(0).type;
  const std::array inputs = {t, t};
  const std::array outputs = {T::TENSOR_BOOL8};
  return checkTypes(op, inputs, outputs);
}

// Same type in and out: LOGICAL_AND/OR (2 inputs), LOGICAL_NOT, ABS, NEG (1),
// MAXIMUM, MINIMUM (2).
Status validateSameType(const OperationView& op, size_t inputCount, TypeList allowed) {
  if (Status s = checkCounts(op, inputCount, 1); !s) return s;
  if (Status s = checkVariantType(op, 0, allowed); !s) return s;
  const OperandType t = op.input(0).type;
  const std::array twoInputs = {t, t};
  const std::array output = {t};
  return checkTypes(op, TypeList(twoInputs).first(inputCount), output);
}

// SELECT: {TENSOR_BOOL8 mask, T, T} -> {T}; the variant is chosen by input 1.
Status validateSelect(const OperationView& op) {
  if (Status s = checkCounts(op, 3, 1); !s) return s;
  if (Status s = checkVariantType(op, 1, kSelectTypes); !s) return s;
  const OperandType t = op.input(1).type;
  const std::array inputs = {T::TENSOR_BOOL8, t, t};
  const std::array outputs = {t};
  return checkTypes(op, inputs, outputs);
}

bool hasZeroDimension(const Dimensions& dims) {
  for (uint32_t d : dims) {
    if (d == 0) return true;
  }
  return false;
}

Status validateCast(const OperationView& op) {
  if (Status s = checkCounts(op, 1, 1); !s) return s;
  const OperandType in = op.input(0).type;
  const OperandType out = op.output(0).type;
  OperandType expectedOut = in;
  if (contains(kCastConvertibleTypes, in) && contains(kCastConvertibleTypes, out)) {
    expectedOut = out;
  } else if (!contains(kCastIdentityTypes, in)) {
    return op.inputError(
        0, fmt::format("unsupported CAST from {} to {} (conversions among {}; identity for {})",
                       toString(in), toString(out), typeNames(kCastConvertibleTypes),
                       typeNames(kCastIdentityTypes)));
  }
  // NNAPI compares shapes only when both are given and the output's is
  // complete (an output with a 0 dimension is resolved at prepare time).
  const Dimensions& inDims = op.input(0).dimensions;
  const Dimensions& outDims = op.output(0).dimensions;
  if (!inDims.empty() && !outDims.empty() && !hasZeroDimension(outDims) && inDims != outDims) {
    return op.outputError(0, fmt::format("CAST output dimensions {} differ from input "
                                         "dimensions {}",
                                         dimensionsToString(outDims), dimensionsToString(inDims)));
  }
  const std::array inputs = {in};
  const std::array outputs = {expectedOut};
  return checkTypes(op, inputs, outputs);
}

// RESHAPE: {T, TENSOR_INT32 shape} -> {T}.
Status validateReshape(const OperationView& op) {
  if (Status s = checkCounts(op, 2, 1); !s) return s;
  if (Status s = checkVariantType(op, 0, kReshapeTypes); !s) return s;
  if (Status s = checkRankAtMost4(op, 0); !s) return s;
  const OperandType t = op.input(0).type;
  const std::array inputs = {t, T::TENSOR_INT32};
  const std::array outputs = {t};
  return checkTypes(op, inputs, outputs);
}

uint64_t elementsOrZero(const Dimensions& dims) {
  uint64_t count = 1;
  for (uint32_t d : dims) count *= d;  // operand validation bounded the product
  return count;
}

// FULLY_CONNECTED shapes, checked by NNAPI when input, weights and bias all
// have a known rank; unknown (0) sizes skip the size relations.
Status validateFullyConnectedShapes(const OperationView& op) {
  const Dimensions& input = op.input(0).dimensions;
  const Dimensions& weights = op.input(1).dimensions;
  const Dimensions& bias = op.input(2).dimensions;
  if (input.empty() || weights.empty() || bias.empty()) return Status::ok();
  if (input.size() < 2 || input.size() > kMaxRank) {
    return op.inputError(
        0, fmt::format("FULLY_CONNECTED input rank must be 2 to 4, got {}", input.size()));
  }
  if (weights.size() != 2) {
    return op.inputError(
        1, fmt::format("FULLY_CONNECTED weights rank must be 2, got {}", weights.size()));
  }
  if (bias.size() != 1) {
    return op.inputError(2,
                         fmt::format("FULLY_CONNECTED bias rank must be 1, got {}", bias.size()));
  }
  const uint64_t inputElements = elementsOrZero(input);
  const uint32_t numUnits = weights[0];
  const uint32_t inputSize = weights[1];
  const uint64_t batch = inputSize == 0 ? 0 : inputElements / inputSize;
  if (batch != 0 && batch * inputSize != inputElements) {
    return op.inputError(0, fmt::format("FULLY_CONNECTED input has {} elements, not a multiple "
                                        "of the input size {}",
                                        inputElements, inputSize));
  }
  if (numUnits != 0 && bias[0] != 0 && bias[0] != numUnits) {
    return op.inputError(2, fmt::format("FULLY_CONNECTED bias length {} differs from the "
                                        "number of units {}",
                                        bias[0], numUnits));
  }
  return Status::ok();
}

// {input T, weights T, bias T (TENSOR_INT32 for quantized T), INT32 activation} -> {T}.
Status validateFullyConnected(const OperationView& op) {
  if (Status s = checkCounts(op, 4, 1); !s) return s;
  if (Status s = checkVariantType(op, 0, kFullyConnectedTypes); !s) return s;
  const OperandType t = op.input(0).type;
  const bool quantized = t == T::TENSOR_QUANT8_ASYMM || t == T::TENSOR_QUANT8_ASYMM_SIGNED;
  const std::array inputs = {t, t, quantized ? T::TENSOR_INT32 : t, T::INT32};
  const std::array outputs = {t};
  if (Status s = checkTypes(op, inputs, outputs); !s) return s;
  return validateFullyConnectedShapes(op);
}

// SLICE: {T, TENSOR_INT32 begin, TENSOR_INT32 size} -> {T}.
Status validateSlice(const OperationView& op) {
  if (Status s = checkCounts(op, 3, 1); !s) return s;
  if (Status s = checkVariantType(op, 0, kSliceTypes); !s) return s;
  if (Status s = checkRankAtMost4(op, 0); !s) return s;
  const OperandType t = op.input(0).type;
  const std::array inputs = {t, T::TENSOR_INT32, T::TENSOR_INT32};
  const std::array outputs = {t};
  return checkTypes(op, inputs, outputs);
}

// FLOOR, RELU: {T} -> {T}, rank at most 4.
Status validateUnaryFloat(const OperationView& op, TypeList allowed) {
  if (Status s = validateSameType(op, 1, allowed); !s) return s;
  return checkRankAtMost4(op, 0);
}

}  // namespace

Status validateOperationSignature(const OperationView& op) {
  switch (op.operation().type) {
    case OperationType::ADD:
    case OperationType::SUB:
    case OperationType::MUL:
    case OperationType::DIV:
      return validateBroadcastArithmetic(op);
    case OperationType::EQUAL:
    case OperationType::NOT_EQUAL:
    case OperationType::LESS:
    case OperationType::LESS_EQUAL:
    case OperationType::GREATER:
    case OperationType::GREATER_EQUAL:
      return validateComparison(op);
    case OperationType::LOGICAL_AND:
    case OperationType::LOGICAL_OR:
      return validateSameType(op, 2, kBoolTypes);
    case OperationType::LOGICAL_NOT:
      return validateSameType(op, 1, kBoolTypes);
    case OperationType::ABS:
    case OperationType::NEG:
      return validateSameType(op, 1, kAbsNegTypes);
    case OperationType::MAXIMUM:
    case OperationType::MINIMUM:
      return validateSameType(op, 2, kSelectTypes);
    case OperationType::SELECT:
      return validateSelect(op);
    case OperationType::CAST:
      return validateCast(op);
    case OperationType::RESHAPE:
      return validateReshape(op);
    case OperationType::FULLY_CONNECTED:
      return validateFullyConnected(op);
    case OperationType::SLICE:
      return validateSlice(op);
    case OperationType::FLOOR:
      return validateUnaryFloat(op, kFloorTypes);
    case OperationType::RELU:
      return validateUnaryFloat(op, kReluTypes);
    default:
      // Not one of nnfab's operations: the generic checks are all that apply
      // here; whether a device runs it is decided when partitioning.
      return Status::ok();
  }
}

}  // namespace nnfab::validation
