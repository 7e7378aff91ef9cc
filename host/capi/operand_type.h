// The checks NNAPI applies to an ANeuralNetworksOperandType, whether it
// declares a model operand (addOperand) or refines an execution argument
// (setInput/setOutput): known code, dims pointer matching the rank, no dims
// on scalars, quantization parameters in range, byte size within uint32.
#pragma once

#include <android/NeuralNetworks.h>

#include <cstdint>
#include <optional>

#include "model/model.h"

namespace nnfab::capi {

// BAD_DATA or NO_ERROR.
int checkOperandType(const ANeuralNetworksOperandType& type);
// Bytes of a fully specified operand; 0 when a dimension or the rank is
// unknown; nullopt above UINT32_MAX.
std::optional<uint64_t> byteSize(OperandType type, const Dimensions& dims);
Dimensions dimensionsOf(const ANeuralNetworksOperandType& type);

}  // namespace nnfab::capi
