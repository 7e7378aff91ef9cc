// One fabric backend instance as the runtime uses it: created on first use,
// shared by every prepared model of its device, its one core shared by
// their executions through the FabricScheduler (docs/qos.md). Runs a
// compiled step: wait for the core, load the program, copy the inputs into
// their IoSlots, run it through CoreDriver with the execution's loop timeout
// and deadline, park it (device memory and saved context kept) whenever the
// scheduler preempts it and resume it exactly later, copy the outputs back.
#pragma once

#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <vector>

#include "compiler/compiler.h"
#include "fabric/core_driver.h"
#include "fabric/fabric_backend.h"
#include "model/execution.h"
#include "model/status.h"
#include "runtime/fabric_scheduler.h"
#include "runtime/value.h"

namespace nnfab::runtime {

struct EngineOptions {
  SchedulerOptions scheduler;
  // How often the host looks at a running core (watchdogs, preemption):
  // bounds the preemption latency.
  std::chrono::nanoseconds pollInterval = std::chrono::microseconds(250);
  // A running core that retires no instruction (INSTRET) for this long is
  // hung: the host watchdog fails the step and resets the core.
  std::chrono::nanoseconds hangTimeout = std::chrono::seconds(10);
  // How long a running core may take to reach an instruction boundary after
  // the host asked it to stop (scheduler preemption, watchdogs) before it is
  // reset as faulty. Generous: a simulated core (sim, above all under a
  // sanitizer) may take that long for one instruction.
  std::chrono::nanoseconds preemptGrace = std::chrono::seconds(2);
};

// What became of a fabric step.
struct StepRun {
  Status status;
  // The fabric could not take this program (it never fits, a program
  // fault the compiler's code reports as a failed run): the CPU executor
  // may run the step instead. False for everything that is the
  // execution's answer: a missed deadline or loop timeout, a cancel,
  // memory held by other executions, a device fault.
  bool cpuMayRetry = false;
  // Wall time the step spent waiting for the core (queued or parked): not
  // its own, so loop timeouts do not count it (docs/qos.md).
  std::chrono::nanoseconds waited{0};
  // A profiled execution (ExecutionOptions::trace): the step's trace over
  // all its starts, and its CYCLES, when it completed on the fabric.
  std::optional<fabric::DeviceTrace> trace;
  uint64_t cycles = 0;
};

class FabricEngine {
 public:
  using Factory = std::function<std::unique_ptr<fabric::FabricBackend>()>;
  explicit FabricEngine(Factory factory, EngineOptions options = {})
      : factory_(std::move(factory)), options_(options), scheduler_(options.scheduler) {
    // A step the holder must yield to stops the holder's core at once where
    // the backend offers it, and wakes the holder's driver (its waitDone)
    // instead of leaving both to its next poll.
    scheduler_.setNudge([this] {
      if (fabric::FabricBackend* device = backend()) {
        device->requestPreempt();
        device->wakeWaiter();
      }
    });
  }

  // The backend (created on first call); nullptr if the factory gave none.
  fabric::FabricBackend* backend();

  // Sets up the driver's trace readout ahead of profiled runs
  // (fabric::CoreDriver::prepareTrace; PrepareOptions::profiled).
  Status prepareTrace();

  // Device memory one run of `program` occupies: program, data region and
  // context area, each rounded to the allocation alignment.
  static uint64_t memoryNeed(const compiler::Program& program);

  // inputs[i] feeds program.inputs[i] (present, with the slot's dimensions).
  // NONE with one value per program output.
  StepRun run(const compiler::Program& program, const std::vector<const Value*>& inputs,
              const ExecutionOptions& options, std::vector<Value>* outputs);

  FabricScheduler& scheduler() { return scheduler_; }
  const EngineOptions& options() const { return options_; }

 private:
  // A fault of the device itself (hang, bus error, illegal instruction...):
  // the core is reset so that the next step finds it ready.
  StepRun deviceFault(fabric::FabricBackend& device, const Status& status, bool alreadyReset);

  Factory factory_;
  const EngineOptions options_;
  std::once_flag created_;
  std::unique_ptr<fabric::FabricBackend> backend_;
  std::unique_ptr<fabric::CoreDriver> driver_;
  FabricScheduler scheduler_;
};

}  // namespace nnfab::runtime
