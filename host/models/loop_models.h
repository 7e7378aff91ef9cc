// Control-flow models that `nnfab bench` measures and the tests run.
#pragma once

#include "model/model.h"

namespace nnfab::models {

// while (i < n) i = i + 1; input n (TENSOR_INT32 [1]), output i. With
// `accumulate`, also acc = acc + i each iteration, outputs (i, acc).
Model counterLoop(bool accumulate = false);

// A loop whose condition is always true (i >= 0 while i grows from 1, wrapping
// never reached within any timeout): input i0, output i.
Model infiniteLoop();

// Outer loop over i < n with an inner loop over j < i adding 1 to acc:
// acc = n(n-1)/2. Input n, outputs (i, acc).
Model nestedLoops();

// `depth` nested IFs, each branch of level k an IF of level k+1; the innermost
// adds 1. Input x, output x + 1.
Model deepIfChain(uint32_t depth);

// `depth` nested WHILEs, each running once; the innermost body adds 1 to x.
// Input x, output x + 1.
Model deepWhileChain(uint32_t depth);

}  // namespace nnfab::models
