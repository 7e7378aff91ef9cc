// The models the observed-execution and `nnfab diff` tests run.
#pragma once

#include "model/model.h"

namespace nnfab::testing {

// while (k > 0) { k = k - 1; acc = acc + x } with k, n: INT32 [1] and acc,
// x: INT32 [4]. Inputs n (the trip count), acc0, x; outputs k, acc.
// Subgraph 1 is the cond (GREATER), subgraph 2 the body: operation 0 SUB,
// operation 1 ADD (on a fabric: the one elementwise TENSOR ADD instruction of
// each iteration).
Model countdownAccumulate();

}  // namespace nnfab::testing
