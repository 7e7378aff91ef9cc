#include "runtime/device.h"

namespace nnfab {

runtime::Plan Device::partition(const Model& model) const {
  runtime::Plan plan;
  plan.subgraphs.resize(model.subgraphCount());
  runtime::SubgraphPlan& main = plan.subgraphs[0];
  main.planned = true;
  runtime::Step step;
  step.kind = runtime::StepKind::CPU;
  for (uint32_t i = 0; i < model.main.operations.size(); ++i) {
    step.operations.push_back(i);
    step.reasons.emplace_back();
  }
  step.inputs = model.main.inputIndexes;
  step.outputs = model.main.outputIndexes;
  main.steps.push_back(std::move(step));
  return plan;
}

}  // namespace nnfab
