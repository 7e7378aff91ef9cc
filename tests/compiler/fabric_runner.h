// Runs a model's main subgraph, compiled as one step, on the hls backend
// (through DeviceProgram and CoreDriver, as the runtime does), and on the
// CPU reference, and compares the two bit for bit.
#pragma once

#include <chrono>
#include <string>
#include <vector>

#include "compiler/compiler.h"
#include "fabric/core_driver.h"
#include "model/execution.h"
#include "model/model.h"

namespace nnfab::compiler::test {

struct FabricRun {
  bool compiled = false;
  Status compileStatus;
  Status status;  // of the run (when compiled)
  std::vector<TensorValue> outputs;
  fabric::RunReport report;
  Program program;
};

FabricRun runOnFabric(const Model& model, const std::vector<TensorValue>& inputs,
                      std::chrono::nanoseconds loopTimeout = std::chrono::seconds(10));

ExecutionResult runOnCpu(const Model& model, const std::vector<TensorValue>& inputs,
                         std::chrono::nanoseconds loopTimeout = std::chrono::seconds(10));

// "" when both succeeded with identical outputs (type, dimensions, bytes)
// or both failed with the same status code; otherwise the difference.
std::string compareWithCpu(const ExecutionResult& cpu, const FabricRun& fabric);

}  // namespace nnfab::compiler::test
