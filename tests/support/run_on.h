// Prepares a model on a device and executes it once: a preparation failure
// comes back as the execution's status, so tests compare one result.
#pragma once

#include <vector>

#include "model/execution.h"
#include "model/model.h"
#include "runtime/device.h"

namespace nnfab::testing {

inline ExecutionResult runOn(const Device& device, const Model& model, const std::vector<TensorValue>& inputs,
                             const ExecutionOptions& options = {}) {
  auto prepared = device.prepare(model, {});
  if (!prepared.isOk()) {
    ExecutionResult result;
    result.status = std::move(prepared).takeStatus();
    return result;
  }
  return prepared.value()->execute(inputs, options);
}

}  // namespace nnfab::testing
