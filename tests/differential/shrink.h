// Shrinking a failing random case to a small model that still fails, for
// bug reports: keep one main output at a time, drop every operation,
// operand, input and subgraph that output does not depend on, then turn
// inputs into constants.
#pragma once

#include <functional>
#include <vector>

#include "model/model.h"

namespace nnfab::differential {

struct Reduced {
  Model model;
  std::vector<TensorValue> inputs;
};

// The model with only the main outputs listed in `keep` (in that order),
// without dead operations, unused operands, unused main inputs (and their
// values) and unreferenced subgraphs. Valid when `model` is.
Reduced keepOutputs(const Model& model, const std::vector<TensorValue>& inputs,
                    const std::vector<size_t>& keep);

// The main inputs flagged in `which` turned into constants holding their
// values (the same computation, without host-to-device input copies).
Reduced inputsToConstants(const Reduced& reduced, const std::vector<bool>& which);

// The smallest single-output reduction for which `stillFails` holds (or the
// whole case pruned of dead code when no single output fails alone), with
// as many inputs turned into constants as keep it failing.
Reduced shrink(const Model& model, const std::vector<TensorValue>& inputs,
               const std::function<bool(const Reduced&)>& stillFails);

// Operations in all subgraphs: the size shrink() minimises.
size_t operationCount(const Model& model);

}  // namespace nnfab::differential
