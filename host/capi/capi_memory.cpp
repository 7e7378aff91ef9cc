// Entry points: ANeuralNetworksMemory_* and ANeuralNetworksMemoryDesc_*.
#include <new>

#include "capi/handles.h"

using namespace nnfab::capi;

int ANeuralNetworksMemory_createFromFd(size_t size, int protect, int fd, size_t offset,
                                       ANeuralNetworksMemory** memory) {
  if (memory == nullptr) return ANEURALNETWORKS_UNEXPECTED_NULL;  // Android crashes here
  *memory = nullptr;
  Memory* created = nullptr;
  const int rc = Memory::fromFd(size, protect, fd, offset, &created);
  *memory = handle<ANeuralNetworksMemory>(created);
  return rc;
}

int ANeuralNetworksMemory_createFromAHardwareBuffer(const AHardwareBuffer* ahwb, ANeuralNetworksMemory** memory) {
  if (ahwb == nullptr || memory == nullptr) return ANEURALNETWORKS_UNEXPECTED_NULL;
  *memory = nullptr;
  return ANEURALNETWORKS_OP_FAILED;  // AHardwareBuffer exists only on Android
}

void ANeuralNetworksMemory_free(ANeuralNetworksMemory* memory) { delete object(memory); }

int ANeuralNetworksMemoryDesc_create(ANeuralNetworksMemoryDesc** desc) {
  if (desc == nullptr) return ANEURALNETWORKS_UNEXPECTED_NULL;
  auto* created = new (std::nothrow) MemoryDesc();
  *desc = handle<ANeuralNetworksMemoryDesc>(created);
  return created != nullptr ? ANEURALNETWORKS_NO_ERROR : ANEURALNETWORKS_OUT_OF_MEMORY;
}

void ANeuralNetworksMemoryDesc_free(ANeuralNetworksMemoryDesc* desc) { delete object(desc); }

int ANeuralNetworksMemoryDesc_addInputRole(ANeuralNetworksMemoryDesc* desc,
                                           const ANeuralNetworksCompilation* compilation, uint32_t index,
                                           float frequency) {
  if (desc == nullptr || compilation == nullptr) return ANEURALNETWORKS_UNEXPECTED_NULL;
  return object(desc)->addRole(object(compilation), true, index, frequency);
}

int ANeuralNetworksMemoryDesc_addOutputRole(ANeuralNetworksMemoryDesc* desc,
                                            const ANeuralNetworksCompilation* compilation, uint32_t index,
                                            float frequency) {
  if (desc == nullptr || compilation == nullptr) return ANEURALNETWORKS_UNEXPECTED_NULL;
  return object(desc)->addRole(object(compilation), false, index, frequency);
}

int ANeuralNetworksMemoryDesc_setDimensions(ANeuralNetworksMemoryDesc* desc, uint32_t rank,
                                            const uint32_t* dimensions) {
  if (desc == nullptr || (dimensions == nullptr && rank > 0)) return ANEURALNETWORKS_UNEXPECTED_NULL;
  return object(desc)->setDimensions(rank, dimensions);
}

int ANeuralNetworksMemoryDesc_finish(ANeuralNetworksMemoryDesc* desc) {
  if (desc == nullptr) return ANEURALNETWORKS_UNEXPECTED_NULL;
  return object(desc)->finish();
}

int ANeuralNetworksMemory_createFromDesc(const ANeuralNetworksMemoryDesc* desc, ANeuralNetworksMemory** memory) {
  if (memory != nullptr) *memory = nullptr;
  if (desc == nullptr || memory == nullptr) return ANEURALNETWORKS_UNEXPECTED_NULL;
  Memory* created = nullptr;
  const int rc = Memory::fromDesc(*object(desc), &created);
  *memory = handle<ANeuralNetworksMemory>(created);
  return rc;
}

int ANeuralNetworksMemory_copy(const ANeuralNetworksMemory* src, const ANeuralNetworksMemory* dst) {
  if (src == nullptr || dst == nullptr) return ANEURALNETWORKS_UNEXPECTED_NULL;
  return Memory::copy(*object(src), const_cast<Memory&>(*object(dst)));
}
