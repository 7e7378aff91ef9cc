// A step's operations as a model of their own, for the CPU executor: the
// step's inputs become the main inputs and its outputs the main outputs (in
// the step's order), constants stay constants, and the subgraphs its IF/WHILE
// operations reference (transitively) come along, renumbered.
#pragma once

#include "model/model.h"
#include "runtime/plan.h"

namespace nnfab::runtime {

Model extractStepModel(const Model& model, const Step& step);

}  // namespace nnfab::runtime
