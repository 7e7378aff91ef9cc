#include "runtime/device.h"

#include <fmt/format.h>

namespace nnfab {

Status checkPrepareOptions(const PrepareOptions& options) {
  const auto raw = static_cast<int32_t>(options.priority);
  if (raw < static_cast<int32_t>(Priority::LOW) || raw > static_cast<int32_t>(Priority::HIGH)) {
    return invalidArgument(fmt::format("priority {} is not LOW (0), MEDIUM (1) or HIGH (2)", raw));
  }
  if (options.deadline && Clock::now() >= *options.deadline) {
    return Status(ErrorStatus::MISSED_DEADLINE_PERSISTENT,
                  "the preparation deadline passed before preparation started");
  }
  return Status::ok();
}

Status checkPrepareFinishedInTime(const PrepareOptions& options) {
  if (options.deadline && Clock::now() > *options.deadline) {
    return Status(ErrorStatus::MISSED_DEADLINE_TRANSIENT,
                  "the preparation deadline passed during preparation");
  }
  return Status::ok();
}

runtime::Plan Device::partition(const Model& model) const {
  runtime::Plan plan;
  plan.subgraphs.resize(model.subgraphCount());
  runtime::SubgraphPlan& main = plan.subgraphs[0];
  main.planned = true;
  runtime::Step step;
  step.kind = runtime::StepKind::CPU;
  for (uint32_t i = 0; i < model.main.operations.size(); ++i) {
    step.operations.push_back(i);
    step.reasons.emplace_back();  // the text plan names no reason: the device is the CPU
    step.codes.push_back(runtime::ReasonCode::NO_FABRIC);
  }
  step.inputs = model.main.inputIndexes;
  step.outputs = model.main.outputIndexes;
  main.steps.push_back(std::move(step));
  return plan;
}

}  // namespace nnfab
