// Models only the benchmarks need (the counter loops and the endless loop
// come from host/models/loop_models.h, shared with the tests).
#pragma once

#include <cstdint>

#include "model/model.h"

namespace nnfab::bench {

// for i in [0, n): t = IF c THEN i + 1 ELSE i - 1; acc = acc + t.
// Inputs n (TENSOR_INT32 [1]) and c (TENSOR_BOOL8 [1], loop-invariant, so the
// condition is ready in a register); outputs (i, acc). With `withIf` false
// the body computes t = i + 1 (`thenBranch`) or t = i - 1 directly and c is
// unused: the same loop without the IF.
Model ifInLoop(bool withIf, bool thenBranch = true);

// c = ADD(a, b) over TENSOR_INT32 [elements], inputs a and b.
Model elementwiseAdd(uint32_t elements);

// c = ADD(a, b) over TENSOR_INT32 [1]: the smallest execution there is.
Model tinyAdd();

}  // namespace nnfab::bench

namespace nnfab::bench {

// FULLY_CONNECTED of a [batch, inputSize] input with constant [units,
// inputSize] weights and bias, no activation: the fc group's layer.
Model fullyConnected(uint32_t batch, uint32_t units, uint32_t inputSize);
// examples/while_fib.json: a [1, 2] FLOAT32 state advanced by a 2x2
// FULLY_CONNECTED n times (input: n).
Model whileFib();
// examples/rnn_loop.json's shape: h = RELU(FC(h) + FC(x)) over a [1, hidden]
// state for `steps` iterations (inputs: x [1, hidden], steps [1]).
Model rnnLoop(uint32_t hidden);

}  // namespace nnfab::bench
