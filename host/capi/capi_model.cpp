// Entry points: ANeuralNetworksModel_*. NULL checks first, in the order of
// Android's runtime, then the builder's own checks.
#include <new>

#include "capi/device_table.h"
#include "capi/handles.h"

using namespace nnfab::capi;

int ANeuralNetworksModel_create(ANeuralNetworksModel** model) {
  if (model == nullptr) return ANEURALNETWORKS_UNEXPECTED_NULL;
  auto* builder = new (std::nothrow) ModelBuilder();
  *model = handle<ANeuralNetworksModel>(builder);
  return builder != nullptr ? ANEURALNETWORKS_NO_ERROR : ANEURALNETWORKS_OUT_OF_MEMORY;
}

void ANeuralNetworksModel_free(ANeuralNetworksModel* model) { delete object(model); }

int ANeuralNetworksModel_finish(ANeuralNetworksModel* model) {
  if (model == nullptr) return ANEURALNETWORKS_UNEXPECTED_NULL;
  return object(model)->finish();
}

int ANeuralNetworksModel_addOperand(ANeuralNetworksModel* model, const ANeuralNetworksOperandType* type) {
  if (model == nullptr || type == nullptr) return ANEURALNETWORKS_UNEXPECTED_NULL;
  return object(model)->addOperand(*type);
}

int ANeuralNetworksModel_setOperandValue(ANeuralNetworksModel* model, int32_t index, const void* buffer,
                                         size_t length) {
  if (model == nullptr || (buffer == nullptr && length != 0)) return ANEURALNETWORKS_UNEXPECTED_NULL;
  return object(model)->setOperandValue(index, buffer, length);
}

int ANeuralNetworksModel_setOperandSymmPerChannelQuantParams(
    ANeuralNetworksModel* model, int32_t index, const ANeuralNetworksSymmPerChannelQuantParams* channelQuant) {
  if (model == nullptr || channelQuant == nullptr) return ANEURALNETWORKS_UNEXPECTED_NULL;
  return object(model)->setOperandSymmPerChannelQuantParams(index, *channelQuant);
}

int ANeuralNetworksModel_setOperandValueFromMemory(ANeuralNetworksModel* model, int32_t index,
                                                   const ANeuralNetworksMemory* memory, size_t offset,
                                                   size_t length) {
  if (model == nullptr || memory == nullptr) return ANEURALNETWORKS_UNEXPECTED_NULL;
  return object(model)->setOperandValueFromMemory(index, *object(memory), offset, length);
}

int ANeuralNetworksModel_setOperandValueFromModel(ANeuralNetworksModel* model, int32_t index,
                                                  const ANeuralNetworksModel* value) {
  if (model == nullptr || value == nullptr) return ANEURALNETWORKS_UNEXPECTED_NULL;
  return object(model)->setOperandValueFromModel(index, *object(value));
}

int ANeuralNetworksModel_addOperation(ANeuralNetworksModel* model, ANeuralNetworksOperationType type,
                                      uint32_t inputCount, const uint32_t* inputs, uint32_t outputCount,
                                      const uint32_t* outputs) {
  // NULL lists are rejected even with a count of 0 (as Android does).
  if (model == nullptr || inputs == nullptr || outputs == nullptr) return ANEURALNETWORKS_UNEXPECTED_NULL;
  return object(model)->addOperation(type, inputCount, inputs, outputCount, outputs);
}

int ANeuralNetworksModel_identifyInputsAndOutputs(ANeuralNetworksModel* model, uint32_t inputCount,
                                                  const uint32_t* inputs, uint32_t outputCount,
                                                  const uint32_t* outputs) {
  if (model == nullptr || inputs == nullptr || outputs == nullptr) return ANEURALNETWORKS_UNEXPECTED_NULL;
  return object(model)->identifyInputsAndOutputs(inputCount, inputs, outputCount, outputs);
}

int ANeuralNetworksModel_relaxComputationFloat32toFloat16(ANeuralNetworksModel* model, bool allow) {
  if (model == nullptr) return ANEURALNETWORKS_UNEXPECTED_NULL;
  return object(model)->relaxComputationFloat32toFloat16(allow);
}

int ANeuralNetworksModel_getSupportedOperationsForDevices(const ANeuralNetworksModel* model,
                                                          const ANeuralNetworksDevice* const* devices,
                                                          uint32_t numDevices, bool* supportedOps) {
  if (model == nullptr || devices == nullptr || supportedOps == nullptr) return ANEURALNETWORKS_UNEXPECTED_NULL;
  if (numDevices == 0) return ANEURALNETWORKS_BAD_DATA;
  const ModelBuilder& builder = *object(model);
  if (!builder.valid()) return ANEURALNETWORKS_BAD_STATE;
  std::vector<const DeviceEntry*> entries;
  if (int r = resolveDevices(devices, numDevices, &entries); r != ANEURALNETWORKS_NO_ERROR) return r;
  // The array is indexed in the order operations were added; the model
  // holds them in execution order.
  const std::vector<uint32_t>& added = builder.addedIndex();
  for (size_t k = 0; k < added.size(); ++k) supportedOps[k] = false;
  for (const DeviceEntry* entry : entries) {
    const std::vector<bool> supported = entry->device->getSupportedOperations(builder.model(), nullptr);
    for (size_t k = 0; k < added.size() && k < supported.size(); ++k) {
      supportedOps[added[k]] = supportedOps[added[k]] || supported[k];
    }
  }
  return ANEURALNETWORKS_NO_ERROR;
}
