// ANeuralNetworksExecution: the arguments of one run of a compilation and
// its one run, in any of NNAPI's modes: synchronous (compute, burstCompute),
// asynchronous (startCompute: the client API's worker pool), and fenced
// (startComputeWithDependencies: a thread that waits for the dependencies,
// then runs). Outputs are copied into the caller's buffers before the
// execution counts as completed.
#pragma once

#include <android/NeuralNetworks.h>

#include <chrono>
#include <cstdint>
#include <mutex>
#include <optional>
#include <vector>

#include "capi/compilation.h"
#include "capi/event.h"
#include "capi/memory.h"
#include "model/execution.h"

namespace nnfab::capi {

class Burst {
 public:
  explicit Burst(const Compilation& compilation) : compilation_(compilation) {}
  const Compilation& compilation() const { return compilation_; }
  std::mutex& busy() { return busy_; }

 private:
  const Compilation& compilation_;
  std::mutex busy_;
};

class Execution {
 public:
  explicit Execution(const Compilation& compilation) : compilation_(compilation) {}

  int setArgument(bool input, int32_t index, const ANeuralNetworksOperandType* type, const void* buffer,
                  size_t length);
  int setArgumentFromMemory(bool input, int32_t index, const ANeuralNetworksOperandType* type, const Memory& memory,
                            size_t offset, size_t length);
  int setTimeout(uint64_t duration);
  int setLoopTimeout(uint64_t duration);
  int setMeasureTiming(bool measure);

  int compute();
  int burstCompute(Burst& burst);
  int startCompute(Event** event);
  int startComputeWithDependencies(const std::vector<const Event*>& dependencies, uint64_t duration, Event** event);

  int getDuration(int32_t code, uint64_t* duration) const;
  int getOutputOperandRank(int32_t index, uint32_t* rank) const;
  int getOutputOperandDimensions(int32_t index, uint32_t* dimensions) const;
  // In flight: started and not yet completed (freeing it then is ignored).
  bool inFlight() const;

 private:
  enum class Source { UNSET, BUFFER, MEMORY, OMITTED };
  struct Argument {
    Source source = Source::UNSET;
    uint8_t* data = nullptr;  // buffer or memory region
    size_t length = 0;
    const Memory* memory = nullptr;
    Dimensions dimensions;  // the model operand's, refined by the caller's type
  };

  // The operand an argument index names and the dimensions a caller's type
  // gives it: BAD_DATA when the index or the type is wrong.
  int resolve(bool input, int32_t index, const ANeuralNetworksOperandType* type, const Operand** operand,
              Dimensions* dims) const;
  // The checks every compute path makes before it starts; on success the
  // execution is started.
  int begin();
  std::vector<TensorValue> inputValues() const;
  api::ExecuteRequest request(Clock::time_point start, std::optional<Clock::time_point> extraDeadline) const;
  // Copies a result into the caller's outputs, records shapes and timing,
  // completes; the execution's result code.
  int complete(ExecutionResult result, std::optional<uint64_t> fencedDriverNs);
  // Completes without a run (a dependency failed); returns `resultCode`.
  int failWith(int resultCode);

  const Compilation& compilation_;
  std::vector<Argument> inputs_ = std::vector<Argument>(compilation_.model().main.inputIndexes.size());
  std::vector<Argument> outputs_ = std::vector<Argument>(compilation_.model().main.outputIndexes.size());
  uint64_t timeout_ = 0;
  std::chrono::nanoseconds loopTimeout_ = kLoopTimeoutDefault;
  bool measure_ = false;

  mutable std::mutex mutex_;  // what completion writes and the getters read
  bool started_ = false;
  bool completed_ = false;
  int resultCode_ = ANEURALNETWORKS_NO_ERROR;
  std::vector<Dimensions> outputShapes_;
  std::vector<bool> insufficient_;
  Timing timing_;
  std::optional<uint64_t> fencedDriverNs_;
};

}  // namespace nnfab::capi
