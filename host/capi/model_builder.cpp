#include "capi/model_builder.h"

#include <algorithm>
#include <cstring>
#include <limits>
#include <map>
#include <set>

#include "capi/memory.h"
#include "capi/operand_type.h"
#include "validation/validate.h"
#include "validation/validate_internal.h"

namespace nnfab::capi {
namespace {

constexpr size_t kMaxCopiedValue = ANEURALNETWORKS_MAX_SIZE_OF_IMMEDIATELY_COPIED_VALUES;

// The exact byte size a constant of this operand must have; nullopt when the
// operand is a tensor that is not fully specified.
std::optional<uint64_t> constantSize(const Operand& operand) {
  if (!isScalarType(operand.type) && !isFullySpecified(operand)) return std::nullopt;
  return byteSize(operand.type, operand.dimensions);
}

}  // namespace

int ModelBuilder::checkModifiable() const {
  return finished_ || invalid_ ? ANEURALNETWORKS_BAD_STATE : ANEURALNETWORKS_NO_ERROR;
}

int ModelBuilder::addOperand(const ANeuralNetworksOperandType& type) {
  if (int rc = checkModifiable()) return rc;
  if (int rc = checkOperandType(type)) return rc;
  if (subgraph_.operands.size() >= 0xFFFFFFFEu) return ANEURALNETWORKS_BAD_DATA;
  Operand operand;
  operand.type = static_cast<OperandType>(type.type);
  operand.dimensions = dimensionsOf(type);
  operand.scale = type.scale;
  operand.zeroPoint = type.zeroPoint;
  subgraph_.operands.push_back(std::move(operand));
  references_.push_back(nullptr);
  return ANEURALNETWORKS_NO_ERROR;
}

int ModelBuilder::setOperandValue(int32_t index, const void* buffer, size_t length) {
  if (int rc = checkModifiable()) return rc;
  const auto i = static_cast<uint32_t>(index);
  if (i >= subgraph_.operands.size()) return ANEURALNETWORKS_BAD_DATA;
  Operand& operand = subgraph_.operands[i];
  if (buffer == nullptr) {  // (NULL, 0): an omitted optional operand
    operand.lifetime = OperandLifeTime::NO_VALUE;
    operand.value.clear();
    return ANEURALNETWORKS_NO_ERROR;
  }
  const auto size = constantSize(operand);
  if (!size) return ANEURALNETWORKS_BAD_DATA;
  if (length > std::numeric_limits<uint32_t>::max() || length != *size) return ANEURALNETWORKS_BAD_DATA;
  const auto* bytes = static_cast<const uint8_t*>(buffer);
  references_[i] = nullptr;
  std::erase_if(deferred_, [i](const DeferredValue& d) { return d.operand == i; });
  if (length <= kMaxCopiedValue) {
    operand.lifetime = OperandLifeTime::CONSTANT_COPY;
    operand.value.assign(bytes, bytes + length);
  } else {
    operand.lifetime = OperandLifeTime::CONSTANT_REFERENCE;
    operand.value.clear();
    deferred_.push_back({i, bytes, length});
  }
  return ANEURALNETWORKS_NO_ERROR;
}

int ModelBuilder::setOperandValueFromMemory(int32_t index, const Memory& memory, size_t offset, size_t length) {
  if (int rc = checkModifiable()) return rc;
  const auto i = static_cast<uint32_t>(index);
  if (i >= subgraph_.operands.size()) return ANEURALNETWORKS_BAD_DATA;
  Operand& operand = subgraph_.operands[i];
  const auto size = constantSize(operand);
  if (!size || length != *size) return ANEURALNETWORKS_BAD_DATA;
  if (memory.isDevice()) return ANEURALNETWORKS_BAD_DATA;  // never a constant
  if (int rc = memory.checkRegion(offset, length)) return rc;
  if (!memory.readable()) return ANEURALNETWORKS_BAD_DATA;
  references_[i] = nullptr;
  std::erase_if(deferred_, [i](const DeferredValue& d) { return d.operand == i; });
  operand.lifetime = OperandLifeTime::CONSTANT_REFERENCE;
  operand.value.clear();
  deferred_.push_back({i, memory.data() + offset, length});
  return ANEURALNETWORKS_NO_ERROR;
}

int ModelBuilder::setOperandValueFromModel(int32_t index, const ModelBuilder& value) {
  if (int rc = checkModifiable()) return rc;
  // The value model's state comes before the index (CTS relies on the order).
  if (!value.valid()) return ANEURALNETWORKS_BAD_STATE;
  const auto i = static_cast<uint32_t>(index);
  if (i >= subgraph_.operands.size()) return ANEURALNETWORKS_BAD_DATA;
  Operand& operand = subgraph_.operands[i];
  // Android accepts any operand type here and fails at addOperation; a model
  // can only be the value of a MODEL operand, so nnfab says so at once.
  if (operand.type != OperandType::SUBGRAPH) return ANEURALNETWORKS_BAD_DATA;
  std::erase_if(deferred_, [i](const DeferredValue& d) { return d.operand == i; });
  operand.lifetime = OperandLifeTime::SUBGRAPH;
  operand.value.clear();
  references_[i] = &value;
  return ANEURALNETWORKS_NO_ERROR;
}

int ModelBuilder::setOperandSymmPerChannelQuantParams(int32_t index,
                                                      const ANeuralNetworksSymmPerChannelQuantParams& params) {
  if (int rc = checkModifiable()) return rc;
  const auto i = static_cast<uint32_t>(index);
  if (i >= subgraph_.operands.size()) return ANEURALNETWORKS_BAD_DATA;
  Operand& operand = subgraph_.operands[i];
  if (operand.type != OperandType::TENSOR_QUANT8_SYMM_PER_CHANNEL) return ANEURALNETWORKS_BAD_DATA;
  if (params.channelDim >= operand.dimensions.size() || params.scales == nullptr) return ANEURALNETWORKS_BAD_DATA;
  const uint32_t extent = operand.dimensions[params.channelDim];
  if (extent == 0 || params.scaleCount != extent) return ANEURALNETWORKS_BAD_DATA;
  for (uint32_t k = 0; k < params.scaleCount; ++k) {
    if (!(params.scales[k] > 0)) return ANEURALNETWORKS_BAD_DATA;
  }
  operand.channelQuant = ChannelQuant{std::vector<float>(params.scales, params.scales + params.scaleCount),
                                      params.channelDim};
  return ANEURALNETWORKS_NO_ERROR;
}

int ModelBuilder::addOperation(int32_t type, uint32_t inputCount, const uint32_t* inputs, uint32_t outputCount,
                               const uint32_t* outputs) {
  if (int rc = checkModifiable()) return rc;
  if (type < 0 || type >= kNumberOfOperationTypes) return ANEURALNETWORKS_BAD_DATA;
  Operation operation;
  operation.type = static_cast<OperationType>(type);
  operation.inputs.assign(inputs, inputs + inputCount);
  operation.outputs.assign(outputs, outputs + outputCount);
  for (uint32_t index : operation.inputs) {
    if (index >= subgraph_.operands.size()) return ANEURALNETWORKS_BAD_DATA;
  }
  for (uint32_t index : operation.outputs) {
    if (index >= subgraph_.operands.size()) return ANEURALNETWORKS_BAD_DATA;
  }
  // The operation's own rules, now (NNAPI validates each operation as it
  // is added): a model holding just this operation, with the subgraphs it
  // references.
  Model probe = flatten();
  probe.main.operations = {operation};
  if (!validation::validateOperations(probe, 0, ValidationMode::RUNTIME)) return ANEURALNETWORKS_BAD_DATA;
  subgraph_.operations.push_back(std::move(operation));
  return ANEURALNETWORKS_NO_ERROR;
}

int ModelBuilder::identifyInputsAndOutputs(uint32_t inputCount, const uint32_t* inputs, uint32_t outputCount,
                                           const uint32_t* outputs) {
  if (int rc = checkModifiable()) return rc;
  // A second call replaces the first one's choice.
  for (Operand& operand : subgraph_.operands) {
    if (operand.lifetime == OperandLifeTime::SUBGRAPH_INPUT || operand.lifetime == OperandLifeTime::SUBGRAPH_OUTPUT) {
      operand.lifetime = OperandLifeTime::TEMPORARY_VARIABLE;
    }
  }
  subgraph_.inputIndexes.clear();
  subgraph_.outputIndexes.clear();
  // Every named operand must be a plain temporary named once: no constant,
  // no duplicate, nothing both input and output.
  std::set<uint32_t> seen;
  auto acceptable = [&](uint32_t index) {
    return index < subgraph_.operands.size() &&
           subgraph_.operands[index].lifetime == OperandLifeTime::TEMPORARY_VARIABLE && seen.insert(index).second;
  };
  for (uint32_t k = 0; k < inputCount; ++k) {
    if (!acceptable(inputs[k])) return ANEURALNETWORKS_BAD_DATA;
  }
  for (uint32_t k = 0; k < outputCount; ++k) {
    if (!acceptable(outputs[k])) return ANEURALNETWORKS_BAD_DATA;
  }
  subgraph_.inputIndexes.assign(inputs, inputs + inputCount);
  subgraph_.outputIndexes.assign(outputs, outputs + outputCount);
  for (uint32_t index : subgraph_.inputIndexes) subgraph_.operands[index].lifetime = OperandLifeTime::SUBGRAPH_INPUT;
  for (uint32_t index : subgraph_.outputIndexes) subgraph_.operands[index].lifetime = OperandLifeTime::SUBGRAPH_OUTPUT;
  return ANEURALNETWORKS_NO_ERROR;
}

int ModelBuilder::relaxComputationFloat32toFloat16(bool allow) {
  if (int rc = checkModifiable()) return rc;
  relax_ = allow;
  return ANEURALNETWORKS_NO_ERROR;
}

int ModelBuilder::finish() {
  if (int rc = checkModifiable()) return rc;
  for (const DeferredValue& d : deferred_) subgraph_.operands[d.operand].value.assign(d.data, d.data + d.length);
  deferred_.clear();
  finished_ = true;
  if (!sortOperations()) {
    invalid_ = true;  // a cycle, or an operand read that nothing writes
    return ANEURALNETWORKS_BAD_DATA;
  }
  Model model = flatten();
  if (!validateModel(model, ValidationMode::RUNTIME)) {
    invalid_ = true;  // poisoned: every later call on it is BAD_STATE
    return ANEURALNETWORKS_BAD_DATA;
  }
  model_ = std::move(model);
  return ANEURALNETWORKS_NO_ERROR;
}

bool ModelBuilder::sortOperations() {
  // Kahn's algorithm, stable in the order of addition: nnfab's models (as
  // HAL models) list operations in execution order; NNAPI callers may add
  // them in any order.
  const size_t count = subgraph_.operations.size();
  std::vector<bool> written(subgraph_.operands.size(), true);
  for (const Operation& operation : subgraph_.operations) {
    for (uint32_t out : operation.outputs) written[out] = false;  // written later, by this one
  }
  std::vector<bool> scheduled(count, false);
  addedIndex_.clear();
  bool progress = true;
  while (addedIndex_.size() < count && progress) {
    progress = false;
    for (size_t k = 0; k < count; ++k) {
      if (scheduled[k]) continue;
      const Operation& operation = subgraph_.operations[k];
      const bool ready =
          std::all_of(operation.inputs.begin(), operation.inputs.end(), [&](uint32_t in) { return written[in]; });
      if (!ready) continue;
      scheduled[k] = true;
      progress = true;
      addedIndex_.push_back(static_cast<uint32_t>(k));
      for (uint32_t out : operation.outputs) written[out] = true;
    }
  }
  if (addedIndex_.size() < count) return false;
  std::vector<Operation> sorted;
  sorted.reserve(count);
  for (uint32_t k : addedIndex_) sorted.push_back(subgraph_.operations[k]);
  subgraph_.operations = std::move(sorted);
  return true;
}

Model ModelBuilder::flatten() const {
  Model model;
  model.relaxComputationFloat32toFloat16 = relax_;
  std::map<const ModelBuilder*, uint32_t> indexOf;  // builder -> index into model.referenced
  std::vector<const ModelBuilder*> order;
  auto withReferences = [&](const ModelBuilder& builder) {
    Subgraph subgraph = builder.subgraph_;
    for (size_t i = 0; i < subgraph.operands.size(); ++i) {
      const ModelBuilder* ref = builder.references_[i];
      if (ref == nullptr) continue;
      auto [it, added] = indexOf.emplace(ref, static_cast<uint32_t>(order.size()));
      if (added) order.push_back(ref);
      subgraph.operands[i].subgraph = it->second;
    }
    return subgraph;
  };
  model.main = withReferences(*this);
  for (size_t k = 0; k < order.size(); ++k) {  // order grows while we walk it: no recursion
    Subgraph subgraph = withReferences(*order[k]);
    model.referenced.push_back(std::move(subgraph));
  }
  return model;
}

}  // namespace nnfab::capi
