// NNAPI (HAL 1.3) validation of models and requests, as
// docs/nnapi-semantics.md §2-§5 describes it. Failures are
// INVALID_ARGUMENT with a message naming subgraph, operation and operand,
// e.g. "subgraph 2 (referenced[1]), operation 0 (WHILE), input 3 (operand 5): ...".
#pragma once

#include <vector>

#include "model/model.h"
#include "model/status.h"

namespace nnfab {

enum class ValidationMode {
  // The NNAPI runtime's rules: control-flow operands of unknown size allowed.
  RUNTIME,
  // The HAL driver's rules: every IF/WHILE operand fully specified.
  DRIVER,
};

Status validateModel(const Model& model, ValidationMode mode = ValidationMode::RUNTIME);

// Request inputs against a valid model: count, rank and known dimensions,
// no unknown (0) dimension left, byte size matching type and dimensions.
Status validateInputs(const Model& model, const std::vector<TensorValue>& inputs);

}  // namespace nnfab
