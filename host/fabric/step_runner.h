// One compiled step on a fabric device, the one way every caller moves a step
// through a core: load the program and its data image, write the inputs into
// their slots, run (and resume) it through CoreDriver, read the outputs back.
// The runtime's FabricEngine, `nnfab bench`, the SystemC host model and the
// tests all use it.
#pragma once

#include <array>
#include <cstdint>
#include <span>
#include <vector>

#include "compiler/compiler.h"
#include "fabric/core_driver.h"
#include "fabric/device_program.h"
#include "model/model.h"
#include "model/status.h"
#include "nnfab_isa.h"

namespace nnfab::fabric {

// One input value as a step receives it (no copy).
struct StepInput {
  std::span<const uint32_t> dims;
  std::span<const uint8_t> bytes;
};
std::vector<StepInput> stepInputs(const std::vector<TensorValue>& values);

class LoadedStep {
 public:
  // GENERAL_FAILURE when the inputs do not match the program's slots (count,
  // dimensions, size); DeviceProgram::load's status when the program does not
  // fit the device (RESOURCE_EXHAUSTED_*). `program` must outlive the step.
  static Result<LoadedStep> load(FabricBackend& backend, const compiler::Program& program,
                                 std::span<const StepInput> inputs);

  // One start through `driver`: from the beginning, or (`resume`) from the
  // context saved at a PREEMPTED / SLICE_END stop; `trace`: with MODE.TRACE
  // (the report carries the trace ring and class cycles).
  Result<RunReport> run(CoreDriver& driver, const RunLimits& limits, bool resume = false, bool trace = false);
  // The outputs, after a run that completed.
  Result<std::vector<TensorValue>> outputs() const;
  // The context the core saved at its last PREEMPTED / SLICE_END stop.
  Result<std::array<uint32_t, isa::kCONTEXT_BYTES / sizeof(uint32_t)>> savedContext() const;

  const compiler::Program& program() const { return *program_; }
  const DeviceProgram& device() const { return device_; }

 private:
  LoadedStep(FabricBackend& backend, const compiler::Program& program, DeviceProgram device)
      : backend_(&backend), program_(&program), device_(std::move(device)) {}

  FabricBackend* backend_;
  const compiler::Program* program_;
  DeviceProgram device_;
};

// A step run once from the beginning: the report whenever the core ran, the
// outputs when it completed.
struct StepOutcome {
  RunReport report;
  std::vector<TensorValue> outputs;
  // OK when the core completed; else its failure, or GENERAL_FAILURE naming
  // the stop (e.g. PREEMPTED) that left the program unfinished.
  Status finished() const;
};
// Errors: the step could not be loaded or the core not started.
Result<StepOutcome> runStep(FabricBackend& backend, const compiler::Program& program,
                            const std::vector<TensorValue>& inputs, const RunLimits& limits);

}  // namespace nnfab::fabric
