#include "runtime/fabric_engine.h"

#include <fmt/format.h>

#include <algorithm>
#include <optional>
#include <thread>

#include "fabric/core_status.h"
#include "fabric/device_memory.h"
#include "fabric/soft_reset.h"
#include "fabric/step_runner.h"
#include "fabric/latency_probe.h"
#include "fabric/urgent_thread.h"
#include "nnfab_isa.h"

namespace nnfab::runtime {
namespace {

uint64_t aligned(uint64_t bytes) {
  const uint64_t a = fabric::DeviceMemory::kAlignment;
  return (bytes + a - 1) / a * a;
}

}  // namespace

fabric::FabricBackend* FabricEngine::backend() {
  std::call_once(created_, [this] {
    backend_ = factory_ ? factory_() : nullptr;
    if (backend_) driver_ = std::make_unique<fabric::CoreDriver>(*backend_);
  });
  return backend_.get();
}

Status FabricEngine::prepareTrace() {
  if (backend() == nullptr) return Status::ok();  // no device: nothing to run on, nothing to prepare
  return driver_->prepareTrace();
}

uint64_t FabricEngine::memoryNeed(const compiler::Program& program) {
  return aligned(program.code.size() * isa::kINSTRUCTION_BYTES) + aligned(program.dataBytes) +
         aligned(isa::kCONTEXT_BYTES + fabric::kTraceAreaBytes);  // and a profiled run's trace area
}

namespace {

bool isMissedDeadline(const Status& status) {
  return status.code() == ErrorStatus::MISSED_DEADLINE_TRANSIENT ||
         status.code() == ErrorStatus::MISSED_DEADLINE_PERSISTENT;
}

// Stops the compiler's own code makes (a HALT with an error code, an
// access outside the data region): the program failed, not the device.
bool isProgramFailure(uint32_t coreStatus) {
  return coreStatus == isa::kStatusPROGRAM_ERROR || coreStatus == isa::kStatusACCESS_FAULT;
}

StepRun finalStatus(Status status) { return StepRun{std::move(status), false, {}, std::nullopt, 0}; }

// The core's own watchdogs count cycles at the device's clock. On a card
// cycles are wall time, but a model of the card (hls) can run its cycles
// faster than real time (a FLOAT32 tensor instruction is modelled at tens of
// cycles and computed in far less): it would report a loop timeout or a
// missed deadline before the time the client set has passed. The result is
// the card's; the moment is not. So a device-side timeout is reported no
// earlier than its wall-clock moment: the loop's (from the step's start,
// which no loop of the step precedes) or the deadline. On a card and on sim
// (slower than real time) that moment has passed and nothing waits.
void waitOutDeviceTimeout(uint32_t coreStatus, Clock::time_point stepStart, std::chrono::nanoseconds loopTimeout,
                          const ExecutionOptions& options) {
  std::optional<Clock::time_point> until;
  if (coreStatus == isa::kStatusLOOP_TIMEOUT) until = stepStart + loopTimeout;
  if (coreStatus == isa::kStatusEXEC_TIMEOUT || (until && options.deadline && *options.deadline < *until)) {
    until = options.deadline;
  }
  if (!until) return;
  // In slices, so that a cancellation is not held up by a 15 s loop timeout.
  while (Clock::now() < *until && !isCancelled(options)) {
    std::this_thread::sleep_for(std::min<Clock::duration>(*until - Clock::now(), std::chrono::milliseconds(1)));
  }
}
StepRun cpuMayRetry(Status status) { return StepRun{std::move(status), true, {}, std::nullopt, 0}; }

}  // namespace

StepRun FabricEngine::deviceFault(fabric::FabricBackend& device, const Status& status, bool alreadyReset) {
  if (!alreadyReset) fabric::resetCore(device);
  return finalStatus(generalFailure(fmt::format(
      "device fault on {}: {}; the core was reset and no result of this run is reported", device.name(),
      status.message())));
}

StepRun FabricEngine::run(const compiler::Program& program, const std::vector<const Value*>& inputs,
                          const ExecutionOptions& options, std::vector<Value>* outputs) {
  fabric::FabricBackend* device = backend();
  if (!device) return cpuMayRetry(Status(ErrorStatus::DEVICE_UNAVAILABLE, "the fabric backend is not available"));
  if (Status s = device->usable(); !s) return cpuMayRetry(std::move(s));
  if (const uint64_t need = memoryNeed(program); need > device->memoryBytes()) {
    return cpuMayRetry(Status(ErrorStatus::RESOURCE_EXHAUSTED_PERSISTENT,
                              fmt::format("the program needs {} bytes of device memory, {} has {}", need,
                                          device->name(), device->memoryBytes())));
  }

  // The results come back into host memory: the execution's memory limit
  // holds for them as it does for the CPU executor's tensors.
  uint64_t resultBytes = 0;
  for (const compiler::IoSlot& slot : program.outputs) resultBytes += slot.bytes;
  if (resultBytes > options.memoryLimitBytes) {
    return finalStatus(Status(ErrorStatus::RESOURCE_EXHAUSTED_PERSISTENT,
                              fmt::format("the step's results would hold {} bytes, more than the execution's "
                                          "memory limit of {} bytes",
                                          resultBytes, options.memoryLimitBytes)));
  }

  // A value that is absent is no input the program can take.
  std::vector<fabric::StepInput> stepInputs;
  stepInputs.reserve(inputs.size());
  for (const Value* value : inputs) {
    if (!value->present) return cpuMayRetry(generalFailure("a step input has no value"));
    stepInputs.push_back(fabric::StepInput{value->dims, *value->bytes});
  }

  // A HIGH step's thread runs at real-time priority (where permitted) from
  // its arrival to its release: it is woken at once when the core is
  // granted, and its own CPU work on the way is bounded (the load, the
  // inline part of an hls start, the readback); docs/qos.md "Threads on the
  // preemption path".
  const fabric::UrgentScope urgent(options.priority == Priority::HIGH);
  FabricScheduler::Ticket ticket(options);
  ticket.raiseThreadWhenNudged = true;  // this thread acquires, drives and releases
  // Loaded when the step first holds the core, so that only running and
  // parked steps hold device memory, never queued ones.
  std::optional<fabric::LoadedStep> loaded;
  fabric::RunLimits limits;
  // The fabric reads a zero loop timeout as "no watchdog"; NNAPI's zero means
  // every loop whose condition is ever true times out: one cycle does that.
  limits.loopTimeout = std::max<std::chrono::nanoseconds>(
      std::min(options.loopTimeout, kLoopTimeoutMaximum), std::chrono::nanoseconds(1));
  limits.deadline = options.deadline;
  limits.pollInterval = options_.pollInterval;
  limits.hangTimeout = options_.hangTimeout;
  limits.preemptGrace = options_.preemptGrace;
  limits.preemptRequested = [this, &ticket] { return scheduler_.shouldYield(ticket); };
  // A nudge that reached this step's thread between its grant and its start
  // (its PREEMPT write landed on the idle core) must not be lost.
  limits.yieldBeforeStart = limits.preemptRequested;

  bool resumed = false;
  const bool profiled = options.trace != nullptr;
  fabric::DeviceTrace trace;  // of every start of this step (profiled)
  bool tracedBefore = false;
  uint64_t cycles = 0;
  const Clock::time_point stepStart = Clock::now();
  std::optional<Status> deviceTimeout;  // the core's own watchdog stopped the step
  uint32_t deviceTimeoutStatus = 0;
  std::chrono::nanoseconds waited{0};
  // Every way out reports the time spent waiting for the core.
  auto done = [&waited](StepRun run) {
    run.waited = waited;
    return run;
  };
  for (;;) {
    const Clock::time_point queuedAt = Clock::now();
    Status acquired = scheduler_.acquire(ticket);
    waited += Clock::now() - queuedAt;
    if (!acquired.isOk()) return done(finalStatus(std::move(acquired)));
    if (options.priority == Priority::HIGH) fabric::latency_probe::mark(fabric::latency_probe::Mark::GRANTED);
    bool parked = false;
    // Gives the core up on every path out of this iteration.
    struct Hold {
      FabricScheduler& scheduler;
      FabricScheduler::Ticket& ticket;
      bool& park;
      ~Hold() { scheduler.release(ticket, park); }
    } hold{scheduler_, ticket, parked};

    if (!loaded) {
      auto load = fabric::LoadedStep::load(*device, program, stepInputs);
      if (!load.isOk()) {
        Status status = std::move(load).takeStatus();
        // Memory that running or parked executions hold is the answer now;
        // anything else is the fabric not taking this program.
        if (status.code() == ErrorStatus::RESOURCE_EXHAUSTED_TRANSIENT) {
          return done(finalStatus(std::move(status).withContext(
              "device memory is held by other executions (running or preempted)")));
        }
        return done(cpuMayRetry(std::move(status)));
      }
      loaded.emplace(std::move(load).value());
      if (options.priority == Priority::HIGH) fabric::latency_probe::mark(fabric::latency_probe::Mark::LOADED);
    }

    auto report = loaded->run(*driver_, limits, resumed, profiled);
    if (options.priority == Priority::HIGH) fabric::latency_probe::mark(fabric::latency_probe::Mark::CORE_DONE);
    if (!report.isOk()) {
      Status status = std::move(report).takeStatus();
      // Out of use (it failed in this run): nothing to reset, no result.
      if (isMissedDeadline(status) || !device->usable()) return done(finalStatus(std::move(status)));
      return done(deviceFault(*device, status, false));
    }
    if (!report->status.isOk()) {
      if (isMissedDeadline(report->status) && (report->coreStatus == isa::kStatusLOOP_TIMEOUT ||
                                               report->coreStatus == isa::kStatusEXEC_TIMEOUT)) {
        deviceTimeout = std::move(report->status);
        deviceTimeoutStatus = report->coreStatus;
        break;  // give the core up before waiting (Hold)
      }
      if (isMissedDeadline(report->status)) return done(finalStatus(std::move(report->status)));
      if (isProgramFailure(report->coreStatus)) return done(cpuMayRetry(std::move(report->status)));
      return done(deviceFault(*device, report->status, report->coreStatus == isa::kStatusIDLE));
    }
    if (report->trace) {
      // The first start's trace is the step's so far (no copy); later ones join it.
      if (!tracedBefore) {
        trace = std::move(*report->trace);
        tracedBefore = true;
      } else {
        trace.append(*report->trace);
      }
    }
    cycles = report->cycles;
    if (report->resumable()) {
      if (isCancelled(options)) return done(finalStatus(cancelledStatus("stopped on the fabric")));
      // Preempted or its turn ended: park with memory and context, queue again.
      resumed = true;
      parked = true;
      continue;
    }
    if (!report->completed()) {
      return done(deviceFault(*device,
                              generalFailure(fmt::format("the core stopped with {} before the program finished",
                                                         fabric::coreStatusName(report->coreStatus))),
                              false));
    }
    break;
  }
  if (options.priority == Priority::HIGH) fabric::latency_probe::mark(fabric::latency_probe::Mark::CORE_RELEASED);
  if (deviceTimeout) {
    waitOutDeviceTimeout(deviceTimeoutStatus, stepStart, limits.loopTimeout, options);
    return done(finalStatus(std::move(*deviceTimeout)));
  }

  auto values = loaded->outputs();
  if (options.priority == Priority::HIGH) fabric::latency_probe::mark(fabric::latency_probe::Mark::OUTPUTS_READ);
  if (!values.isOk()) return done(cpuMayRetry(std::move(values).takeStatus()));
  outputs->clear();
  outputs->reserve(values->size());
  for (TensorValue& v : *values) outputs->push_back(makeValue(std::move(v.dimensions), std::move(v.data)));
  StepRun ran;
  if (profiled) ran.trace = std::move(trace);
  ran.cycles = cycles;
  return done(std::move(ran));
}

}  // namespace nnfab::runtime
