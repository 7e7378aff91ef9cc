// One model execution on the modelled card, end to end: the main subgraph
// compiled as one fabric step (what the runtime compiles when the
// partitioner gives the fabric the whole model), run by the host model on a
// freshly elaborated Platform, with the time projection.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "compiler/compiler.h"
#include "fabric/core_driver.h"
#include "model/model.h"
#include "platform.h"
#include "projection.h"

namespace nnfab::sim {

struct PlatformRun {
  Status status;
  std::vector<TensorValue> outputs;
  std::optional<fabric::RunReport> report;
  Projection projection;
};

// The step every operation of main in order, main's inputs and outputs, for
// the inputs' dimensions; an error when the fabric cannot run the model.
Result<compiler::Program> compileMainStep(const Model& model, const std::vector<TensorValue>& inputs);

// Elaborates and simulates. SystemC elaborates once per process: a second
// call needs a fresh simulation context (tests/systemc/fresh_simulation.h).
PlatformRun runOnPlatform(const PlatformOptions& options, const compiler::Program& program,
                          const std::vector<TensorValue>& inputs, const fabric::RunLimits& limits);

// "" when `actual` has the same outputs as `expected` (type, dimensions,
// bytes), else the first difference.
std::string compareOutputs(const std::vector<TensorValue>& expected, const std::vector<TensorValue>& actual);

}  // namespace nnfab::sim
