// A model's main subgraph compiled as one fabric step and run through
// DeviceProgram and CoreDriver, as the runtime's FabricEngine does, but
// keeping the RunReport (cycles, iterations, instret, wall time) and the
// device memory, so a benchmark can resume a stopped run or read its
// saved context.
#pragma once

#include <array>
#include <vector>

#include "compiler/compiler.h"
#include "fabric/core_driver.h"
#include "fabric/device_program.h"
#include "model/model.h"
#include "model/status.h"
#include "nnfab_isa.h"

namespace nnfab::bench {

// The whole main subgraph as one step, for these input values' dimensions.
Result<compiler::Program> compileMain(const Model& model, const std::vector<TensorValue>& inputs);

class FabricRun {
 public:
  // Loads the program and writes the inputs into their slots.
  static Result<FabricRun> load(fabric::FabricBackend& backend, compiler::Program program,
                                const std::vector<TensorValue>& inputs);

  // One start: from the beginning, or (`resume`) from the saved context.
  Result<fabric::RunReport> run(const fabric::RunLimits& limits, bool resume = false);
  // The step's outputs after a completed run.
  Result<std::vector<TensorValue>> outputs() const;
  // The context the core saved at its last PREEMPTED / SLICE_END stop.
  Result<std::array<uint32_t, isa::kCONTEXT_BYTES / sizeof(uint32_t)>> savedContext() const;

  const compiler::Program& program() const { return program_; }

 private:
  FabricRun(fabric::FabricBackend& backend, compiler::Program program, fabric::DeviceProgram device)
      : backend_(&backend), program_(std::move(program)), device_(std::move(device)) {}

  fabric::FabricBackend* backend_;
  compiler::Program program_;
  fabric::DeviceProgram device_;
};

// Compiles, loads and runs to completion (no loop watchdog: a benchmark's
// loops are long on purpose); GENERAL_FAILURE unless the core finished.
struct CompletedRun {
  fabric::RunReport report;
  std::vector<TensorValue> outputs;
};
Result<CompletedRun> runToCompletion(fabric::FabricBackend& backend, const Model& model,
                                     const std::vector<TensorValue>& inputs);

}  // namespace nnfab::bench
