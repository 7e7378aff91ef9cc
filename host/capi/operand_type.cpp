#include "capi/operand_type.h"

#include <limits>

namespace nnfab::capi {
namespace {

// Quantization rules per code (NNAPI's validateOperandType).
bool quantizationValid(OperandType type, float scale, int32_t zeroPoint) {
  switch (type) {
    case OperandType::TENSOR_QUANT8_ASYMM:
      return scale > 0 && zeroPoint >= 0 && zeroPoint <= 255;
    case OperandType::TENSOR_QUANT8_ASYMM_SIGNED:
      return scale > 0 && zeroPoint >= -128 && zeroPoint <= 127;
    case OperandType::TENSOR_QUANT16_ASYMM:
      return scale > 0 && zeroPoint >= 0 && zeroPoint <= 65535;
    case OperandType::TENSOR_QUANT8_SYMM:
    case OperandType::TENSOR_QUANT16_SYMM:
      return scale > 0 && zeroPoint == 0;
    case OperandType::TENSOR_INT32:
      return true;  // the reference runtime does not check these
    default:
      return scale == 0 && zeroPoint == 0;
  }
}

}  // namespace

Dimensions dimensionsOf(const ANeuralNetworksOperandType& type) {
  if (type.dimensionCount == 0 || type.dimensions == nullptr) return {};
  return Dimensions(type.dimensions, type.dimensions + type.dimensionCount);
}

std::optional<uint64_t> byteSize(OperandType type, const Dimensions& dims) {
  uint64_t bytes = sizeOfElement(type);
  if (isScalarType(type)) return bytes;
  if (dims.empty()) return 0;
  bool unknown = false;
  for (uint32_t d : dims) {
    if (d == 0) {
      unknown = true;
      continue;
    }
    bytes *= d;
    if (bytes > std::numeric_limits<uint32_t>::max()) return std::nullopt;
  }
  return unknown ? 0 : bytes;
}

int checkOperandType(const ANeuralNetworksOperandType& type) {
  if (!isValidOperandType(type.type)) return ANEURALNETWORKS_BAD_DATA;
  const auto code = static_cast<OperandType>(type.type);
  if ((type.dimensionCount == 0) != (type.dimensions == nullptr)) return ANEURALNETWORKS_BAD_DATA;
  if (isScalarType(code) && type.dimensionCount != 0) return ANEURALNETWORKS_BAD_DATA;
  if (!quantizationValid(code, type.scale, type.zeroPoint)) return ANEURALNETWORKS_BAD_DATA;
  if (!byteSize(code, dimensionsOf(type))) return ANEURALNETWORKS_BAD_DATA;
  return ANEURALNETWORKS_NO_ERROR;
}

}  // namespace nnfab::capi
