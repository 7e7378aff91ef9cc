// ANeuralNetworksModel: one subgraph built call by call, with NNAPI's
// checks at each call (operation signatures, IF/WHILE against the models
// they reference, at addOperation). Models referenced through
// setOperandValueFromModel stay separate builders; toModel() flattens a main
// model and everything it reaches into nnfab's Model (main + referenced).
#pragma once

#include <android/NeuralNetworks.h>

#include <cstdint>
#include <vector>

#include "model/model.h"

namespace nnfab::capi {

class Memory;

class ModelBuilder {
 public:
  int addOperand(const ANeuralNetworksOperandType& type);
  int setOperandValue(int32_t index, const void* buffer, size_t length);
  int setOperandValueFromMemory(int32_t index, const Memory& memory, size_t offset, size_t length);
  int setOperandValueFromModel(int32_t index, const ModelBuilder& value);
  int setOperandSymmPerChannelQuantParams(int32_t index, const ANeuralNetworksSymmPerChannelQuantParams& params);
  int addOperation(int32_t type, uint32_t inputCount, const uint32_t* inputs, uint32_t outputCount,
                   const uint32_t* outputs);
  int identifyInputsAndOutputs(uint32_t inputCount, const uint32_t* inputs, uint32_t outputCount,
                               const uint32_t* outputs);
  int relaxComputationFloat32toFloat16(bool allow);
  int finish();

  // BAD_STATE for a finished or invalid model (every mutator's first check).
  int checkModifiable() const;
  bool finished() const { return finished_; }
  bool valid() const { return finished_ && !invalid_; }
  // Only after a successful finish(): the model with everything it references.
  const Model& model() const { return model_; }
  // Per operation of model().main (execution order): the index it was added as.
  const std::vector<uint32_t>& addedIndex() const { return addedIndex_; }

 private:
  // Values >128 bytes and memory regions are read at finish (NNAPI's
  // contract: the buffer or memory outlives the model).
  struct DeferredValue {
    uint32_t operand;
    const uint8_t* data;
    size_t length;
  };

  // This subgraph with the referenced builders flattened (main = this one).
  Model flatten() const;
  // Puts the operations in execution order; false for a cycle or an operand
  // read but never written.
  bool sortOperations();

  Subgraph subgraph_;
  std::vector<const ModelBuilder*> references_;  // per operand: the model it holds, or null
  std::vector<DeferredValue> deferred_;
  bool relax_ = false;
  bool finished_ = false;
  bool invalid_ = false;
  Model model_;
  std::vector<uint32_t> addedIndex_;
};

}  // namespace nnfab::capi
