// Benchmarks run a model's main subgraph compiled as one fabric step, through
// the fabric's step runner (host/fabric/step_runner.h) on a fresh backend.
#pragma once

#include <vector>

#include "fabric/core_driver.h"
#include "fabric/fabric_backend.h"
#include "model/model.h"
#include "model/status.h"

namespace nnfab::bench {

// Compiles, loads and runs to completion (no loop watchdog: a benchmark's
// loops are long on purpose); GENERAL_FAILURE unless the core finished.
struct CompletedRun {
  fabric::RunReport report;
  std::vector<TensorValue> outputs;
};
Result<CompletedRun> runToCompletion(fabric::FabricBackend& backend, const Model& model,
                                     const std::vector<TensorValue>& inputs);

}  // namespace nnfab::bench
