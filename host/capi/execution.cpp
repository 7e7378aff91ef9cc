#include "capi/execution.h"

#include <algorithm>
#include <cstring>
#include <limits>
#include <thread>

#include "api/execution.h"
#include "capi/operand_type.h"
#include "capi/result_code.h"

namespace nnfab::capi {
namespace {

bool fullySpecified(OperandType type, const Dimensions& dims) {
  if (isScalarType(type)) return true;
  return !dims.empty() && std::none_of(dims.begin(), dims.end(), [](uint32_t d) { return d == 0; });
}

uint64_t nanosSince(Clock::time_point start) {
  return static_cast<uint64_t>(std::chrono::duration_cast<std::chrono::nanoseconds>(Clock::now() - start).count());
}

}  // namespace

int Execution::resolve(bool input, int32_t index, const ANeuralNetworksOperandType* type, const Operand** operand,
                       Dimensions* dims) const {
  const Subgraph& main = compilation_.model().main;
  const auto& ios = input ? main.inputIndexes : main.outputIndexes;
  const auto i = static_cast<uint32_t>(index);
  if (i >= ios.size()) return ANEURALNETWORKS_BAD_DATA;
  *operand = &main.operands[ios[i]];
  *dims = (*operand)->dimensions;
  if (type == nullptr) return ANEURALNETWORKS_NO_ERROR;
  if (int rc = checkOperandType(*type)) return rc;
  if (type->type != static_cast<int32_t>((*operand)->type)) return ANEURALNETWORKS_BAD_DATA;
  if (type->dimensionCount == 0) return ANEURALNETWORKS_NO_ERROR;  // nothing to refine
  const Dimensions given = dimensionsOf(*type);
  if (!dims->empty()) {
    if (given.size() != dims->size()) return ANEURALNETWORKS_BAD_DATA;
    for (size_t k = 0; k < given.size(); ++k) {
      if ((*dims)[k] != 0 && given[k] != (*dims)[k]) return ANEURALNETWORKS_BAD_DATA;
    }
  }
  *dims = given;
  return ANEURALNETWORKS_NO_ERROR;
}

int Execution::setArgument(bool input, int32_t index, const ANeuralNetworksOperandType* type, const void* buffer,
                           size_t length) {
  if (started_) return ANEURALNETWORKS_BAD_STATE;
  const Operand* operand = nullptr;
  Dimensions dims;
  if (int rc = resolve(input, index, type, &operand, &dims)) return rc;
  const bool omitted = buffer == nullptr;
  if (input && !omitted && !fullySpecified(operand->type, dims)) return ANEURALNETWORKS_BAD_DATA;
  if (length > std::numeric_limits<uint32_t>::max()) return ANEURALNETWORKS_BAD_DATA;
  Argument& arg = (input ? inputs_ : outputs_)[static_cast<uint32_t>(index)];
  if (arg.source != Source::UNSET) return ANEURALNETWORKS_BAD_STATE;
  if (!omitted && length == 0) return ANEURALNETWORKS_BAD_DATA;
  if (!omitted && fullySpecified(operand->type, dims) && length != byteSize(operand->type, dims)) {
    return ANEURALNETWORKS_BAD_DATA;
  }
  arg.source = omitted ? Source::OMITTED : Source::BUFFER;
  arg.data = static_cast<uint8_t*>(const_cast<void*>(buffer));
  arg.length = length;
  arg.dimensions = std::move(dims);
  return ANEURALNETWORKS_NO_ERROR;
}

int Execution::setArgumentFromMemory(bool input, int32_t index, const ANeuralNetworksOperandType* type,
                                     const Memory& memory, size_t offset, size_t length) {
  if (started_) return ANEURALNETWORKS_BAD_STATE;
  const Operand* operand = nullptr;
  Dimensions dims;
  if (int rc = resolve(input, index, type, &operand, &dims)) return rc;
  if (memory.isDevice()) {
    if (offset != 0 || length != 0) return ANEURALNETWORKS_BAD_DATA;
    if (!memory.hasRole({&compilation_, input, static_cast<uint32_t>(index)})) return ANEURALNETWORKS_BAD_DATA;
    const Dimensions& fixed = memory.dimensions();
    if (!dims.empty() && dims.size() != fixed.size()) return ANEURALNETWORKS_BAD_DATA;
    for (size_t k = 0; k < dims.size(); ++k) {
      if (dims[k] != 0 && dims[k] != fixed[k]) return ANEURALNETWORKS_BAD_DATA;
    }
    dims = fixed;
    length = memory.size();
  } else {
    if (input && !fullySpecified(operand->type, dims)) return ANEURALNETWORKS_BAD_DATA;
    if (int rc = memory.checkRegion(offset, length)) return rc;
    if (input ? !memory.readable() : !memory.writable()) return ANEURALNETWORKS_BAD_DATA;
  }
  Argument& arg = (input ? inputs_ : outputs_)[static_cast<uint32_t>(index)];
  if (arg.source != Source::UNSET) return ANEURALNETWORKS_BAD_STATE;
  if (!memory.isDevice() && fullySpecified(operand->type, dims) && length != byteSize(operand->type, dims)) {
    return ANEURALNETWORKS_BAD_DATA;
  }
  arg.source = Source::MEMORY;
  arg.memory = &memory;
  arg.data = memory.data() + offset;
  arg.length = length;
  arg.dimensions = std::move(dims);
  return ANEURALNETWORKS_NO_ERROR;
}

int Execution::setTimeout(uint64_t duration) {
  if (!compilation_.singleDevice()) return ANEURALNETWORKS_BAD_DATA;  // before the state (CTS order)
  if (started_) return ANEURALNETWORKS_BAD_STATE;
  timeout_ = duration;
  return ANEURALNETWORKS_NO_ERROR;
}

int Execution::setLoopTimeout(uint64_t duration) {
  if (started_) return ANEURALNETWORKS_BAD_STATE;
  const auto maximum = static_cast<uint64_t>(kLoopTimeoutMaximum.count());
  loopTimeout_ = std::chrono::nanoseconds(std::min(duration, maximum));  // silently clamped
  return ANEURALNETWORKS_NO_ERROR;
}

int Execution::setMeasureTiming(bool measure) {
  if (!compilation_.singleDevice()) return ANEURALNETWORKS_BAD_DATA;
  if (started_) return ANEURALNETWORKS_BAD_STATE;
  measure_ = measure;
  return ANEURALNETWORKS_NO_ERROR;
}

int Execution::begin() {
  if (started_) return ANEURALNETWORKS_BAD_STATE;
  for (const Argument& arg : inputs_) {
    if (arg.source == Source::UNSET) return ANEURALNETWORKS_BAD_DATA;
  }
  for (const Argument& arg : inputs_) {
    if (arg.memory != nullptr && arg.memory->isDevice() && !arg.memory->initialized()) return ANEURALNETWORKS_OP_FAILED;
  }
  for (const Argument& arg : outputs_) {
    if (arg.source == Source::UNSET) return ANEURALNETWORKS_BAD_DATA;
  }
  std::lock_guard<std::mutex> lock(mutex_);
  started_ = true;
  return ANEURALNETWORKS_NO_ERROR;
}

std::vector<TensorValue> Execution::inputValues() const {
  const Subgraph& main = compilation_.model().main;
  std::vector<TensorValue> values(inputs_.size());
  for (size_t i = 0; i < inputs_.size(); ++i) {
    const Argument& arg = inputs_[i];
    TensorValue& value = values[i];
    value.type = main.operands[main.inputIndexes[i]].type;
    value.dimensions = arg.dimensions;
    value.omitted = arg.source == Source::OMITTED;
    if (!value.omitted) value.data.assign(arg.data, arg.data + arg.length);
  }
  return values;
}

api::ExecuteRequest Execution::request(Clock::time_point start, std::optional<Clock::time_point> extraDeadline) const {
  api::ExecuteRequest request;
  request.deadline = deadlineAfter(start, timeout_);
  if (extraDeadline && (!request.deadline || *extraDeadline < *request.deadline)) request.deadline = extraDeadline;
  request.loopTimeout = loopTimeout_;
  return request;
}

int Execution::complete(ExecutionResult result, std::optional<uint64_t> fencedDriverNs) {
  std::vector<Dimensions> shapes(outputs_.size());
  std::vector<bool> insufficient(outputs_.size(), false);
  int rc = toResultCode(result.status);
  if (rc == ANEURALNETWORKS_NO_ERROR) {
    for (size_t i = 0; i < outputs_.size() && i < result.outputs.size(); ++i) {
      const TensorValue& value = result.outputs[i];
      shapes[i] = value.dimensions;
      const Argument& arg = outputs_[i];
      if (arg.source == Source::OMITTED) continue;
      if (value.data.size() > arg.length) {
        insufficient[i] = true;
        rc = ANEURALNETWORKS_OUTPUT_INSUFFICIENT_SIZE;
        continue;
      }
      // An empty result's data() may be null, which memcpy must not get.
      if (!value.data.empty()) std::memcpy(arg.data, value.data.data(), value.data.size());
    }
  }
  // Device memory written by the run is initialized exactly when it succeeded.
  for (const Argument& arg : outputs_) {
    if (arg.memory != nullptr && arg.memory->isDevice()) arg.memory->setInitialized(rc == ANEURALNETWORKS_NO_ERROR);
  }
  std::lock_guard<std::mutex> lock(mutex_);
  completed_ = true;
  resultCode_ = rc;
  outputShapes_ = std::move(shapes);
  insufficient_ = std::move(insufficient);
  timing_ = result.timing;
  fencedDriverNs_ = fencedDriverNs;
  return rc;
}

int Execution::failWith(int resultCode) {
  for (const Argument& arg : outputs_) {
    if (arg.memory != nullptr && arg.memory->isDevice()) arg.memory->setInitialized(false);
  }
  std::lock_guard<std::mutex> lock(mutex_);
  completed_ = true;
  resultCode_ = resultCode;
  outputShapes_.assign(outputs_.size(), {});
  insufficient_.assign(outputs_.size(), false);
  return resultCode;
}

int Execution::compute() {
  if (int rc = begin()) return rc;
  const Clock::time_point start = Clock::now();
  return complete(compilation_.prepared().execute(inputValues(), request(start, std::nullopt)), std::nullopt);
}

int Execution::burstCompute(Burst& burst) {
  if (&burst.compilation() != &compilation_) return ANEURALNETWORKS_BAD_DATA;
  std::unique_lock<std::mutex> busy(burst.busy(), std::try_to_lock);
  if (!busy.owns_lock()) return ANEURALNETWORKS_BAD_STATE;  // in use by another thread
  return compute();
}

int Execution::startCompute(Event** event) {
  if (int rc = begin()) return rc;
  auto* done = new Event();
  const Clock::time_point start = Clock::now();
  auto running = compilation_.prepared().executeAsync(
      inputValues(), request(start, std::nullopt),
      [this, done](const ExecutionResult& result) { done->signal(complete(result, std::nullopt)); });
  done->hold(std::move(running));
  *event = done;
  return ANEURALNETWORKS_NO_ERROR;
}

int Execution::startComputeWithDependencies(const std::vector<const Event*>& dependencies, uint64_t duration,
                                            Event** event) {
  if (started_) return ANEURALNETWORKS_BAD_STATE;
  if (duration > 0 && !compilation_.singleDevice()) return ANEURALNETWORKS_BAD_DATA;
  for (const Argument& arg : outputs_) {
    if (arg.source == Source::UNSET) return ANEURALNETWORKS_BAD_DATA;
    const Subgraph& main = compilation_.model().main;
    const Operand& operand = main.operands[main.outputIndexes[static_cast<size_t>(&arg - outputs_.data())]];
    if (arg.source != Source::OMITTED && !fullySpecified(operand.type, arg.dimensions)) return ANEURALNETWORKS_BAD_DATA;
  }
  if (int rc = begin()) return rc;
  auto* done = new Event();
  const Clock::time_point start = Clock::now();
  // Linux has no sync fences to hand to a device: a thread stands in for
  // the fence wait, and starts the run when every dependency has signalled.
  done->own(std::thread([this, done, dependencies, duration, start] {
    for (const Event* dependency : dependencies) {
      if (int rc = dependency->wait(); rc != ANEURALNETWORKS_NO_ERROR) {
        done->signal(failWith(rc));  // a failed dependency fails this execution with its status
        return;
      }
    }
    const Clock::time_point released = Clock::now();
    ExecutionResult result =
        compilation_.prepared().execute(inputValues(), request(start, deadlineAfter(released, duration)));
    done->signal(complete(std::move(result), nanosSince(released)));
  }));
  *event = done;
  return ANEURALNETWORKS_NO_ERROR;
}

int Execution::getDuration(int32_t code, uint64_t* duration) const {
  if (code < ANEURALNETWORKS_DURATION_ON_HARDWARE || code > ANEURALNETWORKS_FENCED_DURATION_IN_DRIVER) {
    return ANEURALNETWORKS_BAD_DATA;  // before the state (CTS order)
  }
  *duration = std::numeric_limits<uint64_t>::max();
  std::lock_guard<std::mutex> lock(mutex_);
  if (!completed_ || resultCode_ != ANEURALNETWORKS_NO_ERROR || !measure_) return ANEURALNETWORKS_BAD_STATE;
  std::optional<uint64_t> value;
  switch (code) {
    case ANEURALNETWORKS_DURATION_ON_HARDWARE:
    case ANEURALNETWORKS_FENCED_DURATION_ON_HARDWARE:  // the run after the fence is the hardware run
      value = timing_.onDeviceNs;
      break;
    case ANEURALNETWORKS_DURATION_IN_DRIVER:
      value = timing_.inDriverNs;
      break;
    default:  // FENCED_DURATION_IN_DRIVER: from the dependencies' release to completion
      value = fencedDriverNs_ ? fencedDriverNs_ : timing_.inDriverNs;
      break;
  }
  if (value) *duration = *value;
  return ANEURALNETWORKS_NO_ERROR;
}

int Execution::getOutputOperandRank(int32_t index, uint32_t* rank) const {
  std::lock_guard<std::mutex> lock(mutex_);
  if (!completed_ || (resultCode_ != ANEURALNETWORKS_NO_ERROR && resultCode_ != ANEURALNETWORKS_OUTPUT_INSUFFICIENT_SIZE)) {
    return ANEURALNETWORKS_BAD_STATE;
  }
  const auto i = static_cast<uint32_t>(index);
  if (i >= outputShapes_.size()) return ANEURALNETWORKS_BAD_DATA;
  *rank = static_cast<uint32_t>(outputShapes_[i].size());
  return insufficient_[i] ? ANEURALNETWORKS_OUTPUT_INSUFFICIENT_SIZE : ANEURALNETWORKS_NO_ERROR;
}

int Execution::getOutputOperandDimensions(int32_t index, uint32_t* dimensions) const {
  std::lock_guard<std::mutex> lock(mutex_);
  if (!completed_ || (resultCode_ != ANEURALNETWORKS_NO_ERROR && resultCode_ != ANEURALNETWORKS_OUTPUT_INSUFFICIENT_SIZE)) {
    return ANEURALNETWORKS_BAD_STATE;
  }
  const auto i = static_cast<uint32_t>(index);
  if (i >= outputShapes_.size()) return ANEURALNETWORKS_BAD_DATA;
  if (outputShapes_[i].empty()) return ANEURALNETWORKS_BAD_DATA;  // a scalar has no dimensions
  std::copy(outputShapes_[i].begin(), outputShapes_[i].end(), dimensions);
  return insufficient_[i] ? ANEURALNETWORKS_OUTPUT_INSUFFICIENT_SIZE : ANEURALNETWORKS_NO_ERROR;
}

bool Execution::inFlight() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return started_ && !completed_;
}

}  // namespace nnfab::capi
