// In-memory model mirroring NN HAL 1.3: a main subgraph, referenced subgraphs,
// operands with their constant values inline. The JSON reader builds it, the
// validator checks it, the executors run it; nothing here checks validity.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "model/types.h"

namespace nnfab {

using Dimensions = std::vector<uint32_t>;

struct ChannelQuant {
  std::vector<float> scales;
  uint32_t channelDim = 0;
};

struct Operand {
  OperandType type = OperandType::TENSOR_FLOAT32;
  Dimensions dimensions;  // 0 = unknown size; empty on a tensor = unknown rank
  float scale = 0.0f;
  int32_t zeroPoint = 0;
  OperandLifeTime lifetime = OperandLifeTime::TEMPORARY_VARIABLE;
  // CONSTANT_COPY / CONSTANT_REFERENCE: the value in the element type's native
  // little-endian layout (float, int32_t, uint8_t 0/1 for booleans, uint16_t
  // bit pattern for FLOAT16, ...), row-major.
  std::vector<uint8_t> value;
  // SUBGRAPH lifetime: index into Model::referenced.
  uint32_t subgraph = 0;
  std::optional<ChannelQuant> channelQuant;
};

struct Operation {
  OperationType type = OperationType::ADD;
  std::vector<uint32_t> inputs;
  std::vector<uint32_t> outputs;
};

struct Subgraph {
  std::vector<Operand> operands;
  std::vector<Operation> operations;
  std::vector<uint32_t> inputIndexes;
  std::vector<uint32_t> outputIndexes;
};

struct Model {
  Subgraph main;
  std::vector<Subgraph> referenced;
  bool relaxComputationFloat32toFloat16 = false;

  // Subgraph by the index used in messages: 0 = main, i + 1 = referenced[i].
  const Subgraph& subgraph(size_t index) const { return index == 0 ? main : referenced[index - 1]; }
  size_t subgraphCount() const { return referenced.size() + 1; }
};

// A tensor value crossing the API: an input of a request or an output of a
// result. Bytes use the same layout as Operand::value.
struct TensorValue {
  OperandType type = OperandType::TENSOR_FLOAT32;
  Dimensions dimensions;
  std::vector<uint8_t> data;
  bool omitted = false;  // {"omitted": true}: no value at all
};

// Element count of fully specified dimensions, nullopt on overflow of
// uint32 byte sizes (NNAPI's limit). An empty list counts as 1 (a scalar).
std::optional<uint64_t> elementCount(const Dimensions& dims);
// True when the rank is known (for tensors) and no dimension is 0.
bool isFullySpecified(const Operand& operand);

}  // namespace nnfab
