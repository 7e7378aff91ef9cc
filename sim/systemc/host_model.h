// The host running one execution of a compiled program on the platform, with
// the runtime's own code and in FabricEngine::run's order: DeviceProgram::load
// (program, data image, zeroed rest of the data region, context), the inputs
// into their IoSlots, CoreDriver::run (registers, AP_START, wait for done,
// status and counters), the outputs back. Runs as a SystemC thread and stops
// the simulation when it is done.
#pragma once

#include <optional>
#include <vector>

#include <systemc>

#include "compiler/compiler.h"
#include "fabric/core_driver.h"
#include "model/execution.h"
#include "model/status.h"

namespace nnfab::sim {

struct HostJob {
  compiler::Program program;
  std::vector<TensorValue> inputs;  // program.inputs order
  fabric::RunLimits limits;
};

struct HostOutcome {
  Status status;
  std::optional<fabric::RunReport> report;  // when the core was started
  std::vector<TensorValue> outputs;
  sc_core::sc_time begin, end;
};

class HostModel : public sc_core::sc_module {
 public:
  SC_HAS_PROCESS(HostModel);

  // Starts once `startAfter` is notified (the card's power-on), if given.
  HostModel(sc_core::sc_module_name name, fabric::FabricBackend& backend, HostJob job,
            const sc_core::sc_event* startAfter = nullptr);

  bool finished() const { return finished_; }
  const HostOutcome& outcome() const { return outcome_; }

 private:
  void main();
  Status execute();

  fabric::FabricBackend& backend_;
  const HostJob job_;
  const sc_core::sc_event* startAfter_;
  HostOutcome outcome_;
  bool finished_ = false;
};

}  // namespace nnfab::sim
