#include "runtime/fabric_engine.h"

#include <fmt/format.h>

#include <algorithm>
#include <optional>

#include "fabric/core_status.h"
#include "fabric/device_memory.h"
#include "fabric/device_program.h"
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

uint64_t FabricEngine::memoryNeed(const compiler::Program& program) {
  return aligned(program.code.size() * isa::kINSTRUCTION_BYTES) + aligned(program.dataBytes) +
         aligned(isa::kCONTEXT_BYTES);
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

StepRun finalStatus(Status status) { return StepRun{std::move(status), false}; }
StepRun cpuMayRetry(Status status) { return StepRun{std::move(status), true}; }

}  // namespace

StepRun FabricEngine::deviceFault(fabric::FabricBackend& device, const Status& status, bool alreadyReset) {
  if (!alreadyReset) device.reset();
  return finalStatus(generalFailure(fmt::format(
      "device fault on {}: {}; the core was reset and no result of this run is reported", device.name(),
      status.message())));
}

StepRun FabricEngine::run(const compiler::Program& program, const std::vector<const Value*>& inputs,
                          const ExecutionOptions& options, std::vector<Value>* outputs) {
  fabric::FabricBackend* device = backend();
  if (!device) return cpuMayRetry(Status(ErrorStatus::DEVICE_UNAVAILABLE, "the fabric backend is not available"));
  if (inputs.size() != program.inputs.size()) {
    return cpuMayRetry(generalFailure(fmt::format("the program has {} inputs, the step supplies {}",
                                                  program.inputs.size(), inputs.size())));
  }
  if (const uint64_t need = memoryNeed(program); need > device->memoryBytes()) {
    return cpuMayRetry(Status(ErrorStatus::RESOURCE_EXHAUSTED_PERSISTENT,
                              fmt::format("the program needs {} bytes of device memory, {} has {}", need,
                                          device->name(), device->memoryBytes())));
  }

  FabricScheduler::Ticket ticket(options);
  // Loaded when the step first holds the core, so that only running and
  // parked steps hold device memory, never queued ones.
  std::optional<fabric::DeviceProgram> loaded;
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

  bool resumed = false;
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
    bool parked = false;
    // Gives the core up on every path out of this iteration.
    struct Hold {
      FabricScheduler& scheduler;
      FabricScheduler::Ticket& ticket;
      bool& park;
      ~Hold() { scheduler.release(ticket, park); }
    } hold{scheduler_, ticket, parked};

    if (!loaded) {
      auto load = fabric::DeviceProgram::load(*device, program.code, program.dataImage, program.dataBytes);
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
      for (size_t i = 0; i < inputs.size(); ++i) {
        const compiler::IoSlot& slot = program.inputs[i];
        const Value& value = *inputs[i];
        if (!value.present || value.dims != slot.dimensions || value.bytes->size() != slot.bytes) {
          return done(cpuMayRetry(
              generalFailure(fmt::format("input {} (operand {}) does not match its slot", i, slot.operand))));
        }
        if (Status s = loaded->writeData(slot.offset, value.bytes->data(), slot.bytes); !s.isOk()) {
          return done(cpuMayRetry(std::move(s)));
        }
      }
    }

    auto report = driver_->run(resumed ? loaded->resumed() : loaded->loaded(), limits);
    if (!report.isOk()) {
      Status status = std::move(report).takeStatus();
      if (isMissedDeadline(status)) return done(finalStatus(std::move(status)));
      return done(deviceFault(*device, status, false));
    }
    if (!report->status.isOk()) {
      if (isMissedDeadline(report->status)) return done(finalStatus(std::move(report->status)));
      if (isProgramFailure(report->coreStatus)) return done(cpuMayRetry(std::move(report->status)));
      return done(deviceFault(*device, report->status, report->coreStatus == isa::kStatusIDLE));
    }
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

  outputs->clear();
  outputs->reserve(program.outputs.size());
  for (const compiler::IoSlot& slot : program.outputs) {
    Bytes bytes(slot.bytes);
    if (Status s = loaded->readData(slot.offset, bytes.data(), slot.bytes); !s.isOk()) {
      return done(cpuMayRetry(std::move(s)));
    }
    outputs->push_back(makeValue(slot.dimensions, std::move(bytes)));
  }
  return done(StepRun{});
}

}  // namespace nnfab::runtime
