// One fabric backend instance as the runtime uses it: created on first use,
// shared by every prepared model of its device, and running one program at a
// time (executions are serialised on it until the QoS scheduler exists).
// Runs a compiled step: load the program, copy the inputs into their IoSlots,
// run it through CoreDriver with the execution's loop timeout and deadline,
// copy the outputs back.
#pragma once

#include <functional>
#include <memory>
#include <mutex>
#include <vector>

#include "compiler/compiler.h"
#include "fabric/core_driver.h"
#include "fabric/fabric_backend.h"
#include "model/execution.h"
#include "model/status.h"
#include "runtime/value.h"

namespace nnfab::runtime {

class FabricEngine {
 public:
  using Factory = std::function<std::unique_ptr<fabric::FabricBackend>()>;
  explicit FabricEngine(Factory factory) : factory_(std::move(factory)) {}

  // The backend (created on first call); nullptr if the factory gave none.
  fabric::FabricBackend* backend();

  // Device memory one run of `program` occupies: program, data region and
  // context area, each rounded to the allocation alignment.
  static uint64_t memoryNeed(const compiler::Program& program);

  // inputs[i] feeds program.inputs[i] (present, with the slot's dimensions).
  // NONE with one value per program output; MISSED_DEADLINE_* when the loop
  // timeout or the deadline ended the run; any other status means the fabric
  // could not run it (the caller falls back to the CPU).
  Status run(const compiler::Program& program, const std::vector<const Value*>& inputs,
             const ExecutionOptions& options, std::vector<Value>* outputs);

 private:
  Factory factory_;
  std::once_flag created_;
  std::unique_ptr<fabric::FabricBackend> backend_;
  std::unique_ptr<fabric::CoreDriver> driver_;
  std::mutex runMutex_;
};

}  // namespace nnfab::runtime
