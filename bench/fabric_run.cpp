#include "fabric_run.h"

#include "compiler/compiler.h"
#include "fabric/step_runner.h"

namespace nnfab::bench {

Result<CompletedRun> runToCompletion(fabric::FabricBackend& backend, const Model& model,
                                     const std::vector<TensorValue>& inputs) {
  auto program = compiler::compileMain(model, inputs);
  if (!program.isOk()) return std::move(program).takeStatus().withContext("compiling the benchmark model");
  fabric::RunLimits limits;  // loopTimeout 0: no loop watchdog
  auto outcome = fabric::runStep(backend, *program, inputs, limits);
  if (!outcome.isOk()) return std::move(outcome).takeStatus();
  if (Status s = outcome->finished(); !s.isOk()) return s;
  return CompletedRun{outcome->report, std::move(outcome->outputs)};
}

}  // namespace nnfab::bench
