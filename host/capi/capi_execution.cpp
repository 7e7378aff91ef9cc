// Entry points: ANeuralNetworksExecution_* and ANeuralNetworksEvent_*.
#include <new>

#include "capi/handles.h"

using namespace nnfab::capi;

int ANeuralNetworksExecution_create(ANeuralNetworksCompilation* compilation, ANeuralNetworksExecution** execution) {
  if (compilation == nullptr || execution == nullptr) return ANEURALNETWORKS_UNEXPECTED_NULL;
  *execution = nullptr;
  if (!object(compilation)->valid()) return ANEURALNETWORKS_BAD_STATE;
  auto* created = new (std::nothrow) Execution(*object(compilation));
  if (created == nullptr) return ANEURALNETWORKS_OUT_OF_MEMORY;
  *execution = handle<ANeuralNetworksExecution>(created);
  return ANEURALNETWORKS_NO_ERROR;
}

void ANeuralNetworksExecution_free(ANeuralNetworksExecution* execution) {
  if (execution == nullptr) return;
  // Freeing a running execution is the caller's bug; like Android's runtime
  // nnfab leaves it alone (its completion still needs it).
  if (object(execution)->inFlight()) return;
  delete object(execution);
}

int ANeuralNetworksExecution_setInput(ANeuralNetworksExecution* execution, int32_t index,
                                      const ANeuralNetworksOperandType* type, const void* buffer, size_t length) {
  if (execution == nullptr || (buffer == nullptr && length != 0)) return ANEURALNETWORKS_UNEXPECTED_NULL;
  return object(execution)->setArgument(true, index, type, buffer, length);
}

int ANeuralNetworksExecution_setOutput(ANeuralNetworksExecution* execution, int32_t index,
                                       const ANeuralNetworksOperandType* type, void* buffer, size_t length) {
  if (execution == nullptr || (buffer == nullptr && length != 0)) return ANEURALNETWORKS_UNEXPECTED_NULL;
  return object(execution)->setArgument(false, index, type, buffer, length);
}

int ANeuralNetworksExecution_setInputFromMemory(ANeuralNetworksExecution* execution, int32_t index,
                                                const ANeuralNetworksOperandType* type,
                                                const ANeuralNetworksMemory* memory, size_t offset, size_t length) {
  if (execution == nullptr || memory == nullptr) return ANEURALNETWORKS_UNEXPECTED_NULL;
  return object(execution)->setArgumentFromMemory(true, index, type, *object(memory), offset, length);
}

int ANeuralNetworksExecution_setOutputFromMemory(ANeuralNetworksExecution* execution, int32_t index,
                                                 const ANeuralNetworksOperandType* type,
                                                 const ANeuralNetworksMemory* memory, size_t offset, size_t length) {
  if (execution == nullptr || memory == nullptr) return ANEURALNETWORKS_UNEXPECTED_NULL;
  return object(execution)->setArgumentFromMemory(false, index, type, *object(memory), offset, length);
}

int ANeuralNetworksExecution_compute(ANeuralNetworksExecution* execution) {
  if (execution == nullptr) return ANEURALNETWORKS_UNEXPECTED_NULL;
  return object(execution)->compute();
}

int ANeuralNetworksExecution_startCompute(ANeuralNetworksExecution* execution, ANeuralNetworksEvent** event) {
  if (event == nullptr) return ANEURALNETWORKS_UNEXPECTED_NULL;
  *event = nullptr;
  if (execution == nullptr) return ANEURALNETWORKS_UNEXPECTED_NULL;
  Event* created = nullptr;
  const int rc = object(execution)->startCompute(&created);
  *event = handle<ANeuralNetworksEvent>(created);
  return rc;
}

int ANeuralNetworksExecution_startComputeWithDependencies(ANeuralNetworksExecution* execution,
                                                          const ANeuralNetworksEvent* const* dependencies,
                                                          uint32_t num_dependencies, uint64_t duration,
                                                          ANeuralNetworksEvent** event) {
  if (event == nullptr) return ANEURALNETWORKS_UNEXPECTED_NULL;
  *event = nullptr;
  if (execution == nullptr || (dependencies == nullptr && num_dependencies > 0)) {
    return ANEURALNETWORKS_UNEXPECTED_NULL;
  }
  std::vector<const Event*> waitFor;
  for (uint32_t i = 0; i < num_dependencies; ++i) {
    if (dependencies[i] == nullptr) return ANEURALNETWORKS_UNEXPECTED_NULL;
    waitFor.push_back(object(dependencies[i]));
  }
  Event* created = nullptr;
  const int rc = object(execution)->startComputeWithDependencies(waitFor, duration, &created);
  *event = handle<ANeuralNetworksEvent>(created);
  return rc;
}

int ANeuralNetworksExecution_burstCompute(ANeuralNetworksExecution* execution, ANeuralNetworksBurst* burst) {
  if (execution == nullptr || burst == nullptr) return ANEURALNETWORKS_UNEXPECTED_NULL;
  return object(execution)->burstCompute(*object(burst));
}

int ANeuralNetworksExecution_setMeasureTiming(ANeuralNetworksExecution* execution, bool measure) {
  if (execution == nullptr) return ANEURALNETWORKS_UNEXPECTED_NULL;
  return object(execution)->setMeasureTiming(measure);
}

int ANeuralNetworksExecution_getDuration(const ANeuralNetworksExecution* execution, int32_t durationCode,
                                         uint64_t* duration) {
  if (execution == nullptr || duration == nullptr) return ANEURALNETWORKS_UNEXPECTED_NULL;
  return object(execution)->getDuration(durationCode, duration);
}

int ANeuralNetworksExecution_getOutputOperandRank(ANeuralNetworksExecution* execution, int32_t index,
                                                  uint32_t* rank) {
  if (execution == nullptr || rank == nullptr) return ANEURALNETWORKS_UNEXPECTED_NULL;
  return object(execution)->getOutputOperandRank(index, rank);
}

int ANeuralNetworksExecution_getOutputOperandDimensions(ANeuralNetworksExecution* execution, int32_t index,
                                                        uint32_t* dimensions) {
  if (execution == nullptr || dimensions == nullptr) return ANEURALNETWORKS_UNEXPECTED_NULL;
  return object(execution)->getOutputOperandDimensions(index, dimensions);
}

int ANeuralNetworksExecution_setTimeout(ANeuralNetworksExecution* execution, uint64_t duration) {
  if (execution == nullptr) return ANEURALNETWORKS_UNEXPECTED_NULL;
  return object(execution)->setTimeout(duration);
}

int ANeuralNetworksExecution_setLoopTimeout(ANeuralNetworksExecution* execution, uint64_t duration) {
  if (execution == nullptr) return ANEURALNETWORKS_UNEXPECTED_NULL;
  return object(execution)->setLoopTimeout(duration);
}

int ANeuralNetworksEvent_wait(ANeuralNetworksEvent* event) {
  if (event == nullptr) return ANEURALNETWORKS_UNEXPECTED_NULL;
  return object(event)->wait();
}

void ANeuralNetworksEvent_free(ANeuralNetworksEvent* event) { delete object(event); }  // waits first

int ANeuralNetworksEvent_createFromSyncFenceFd(int sync_fence_fd, ANeuralNetworksEvent** event) {
  if (event == nullptr) return ANEURALNETWORKS_UNEXPECTED_NULL;
  *event = nullptr;
  if (sync_fence_fd <= 0) return ANEURALNETWORKS_BAD_DATA;
  // Sync fences are Android's (sync_file from a driver); the Linux build
  // has no device that signals one (docs/c-api.md).
  return ANEURALNETWORKS_OP_FAILED;
}

int ANeuralNetworksEvent_getSyncFenceFd(const ANeuralNetworksEvent* event, int* sync_fence_fd) {
  if (sync_fence_fd == nullptr) return ANEURALNETWORKS_UNEXPECTED_NULL;
  *sync_fence_fd = -1;
  if (event == nullptr) return ANEURALNETWORKS_UNEXPECTED_NULL;
  return ANEURALNETWORKS_OP_FAILED;  // no event is backed by a fence (Android's code for that case)
}
