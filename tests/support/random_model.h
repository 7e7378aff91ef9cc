// A generator of random, valid NN HAL 1.3 models over TENSOR_INT32 and
// TENSOR_BOOL8 (optionally TENSOR_FLOAT32) with nested IF and WHILE, and of
// matching random inputs: the source of the differential tests, which run
// each model on every device and require identical results.
//
// Every model is valid (validateModel RUNTIME; DRIVER too unless it has a
// dynamic IF, see dynamicIfPercent) and every
// WHILE terminates for any input values: a loop counter starts at
// max(x, low) (or min(x, high) when counting down) and is compared with a
// bound that is a small constant or min(y, small constant), so no loop runs
// more than maxLoopTrips iterations whatever the inputs are.
//
// Reproducibility: everything is drawn from std::mt19937_64, whose output
// sequence the C++ standard fixes, through RandomSource's own integer
// mapping. std::uniform_int_distribution is not used because its mapping is
// implementation-defined (libstdc++ and libc++ give different values), which
// would make a failing seed irreproducible on another standard library.
// Nor may two arguments of one call both draw: the compiler picks the order
// in which it evaluates arguments (g++ and clang++ differ), so such a call
// gives two models for one seed. Draw into locals first, in the order g++
// had chosen, so every seed keeps the model it had; a braced list's elements
// are evaluated in order and may each draw.
#pragma once

#include <cstdint>
#include <random>
#include <span>
#include <vector>

#include "model/model.h"

namespace nnfab::testing {

// Portable draws from a std::mt19937_64.
class RandomSource {
 public:
  explicit RandomSource(uint64_t seed) : engine_(seed) {}
  // Draws from `bytes` first, eight per draw, so that a fuzzer's input steers
  // every choice; then from an engine seeded by the bytes, so that a short
  // input still yields a whole model. The bytes must outlive the source.
  explicit RandomSource(std::span<const uint8_t> bytes);
  uint64_t next() {
    if (offset_ < bytes_.size()) return fromBytes();
    return engine_();
  }
  // Uniform in [0, n); n > 0. Rejection sampling, so no modulo bias.
  uint64_t below(uint64_t n);
  // Uniform in [lo, hi], inclusive.
  int64_t range(int64_t lo, int64_t hi);
  // True with probability percent / 100.
  bool percent(uint32_t p) { return below(100) < p; }
  template <typename T>
  const T& pick(const std::vector<T>& items) {
    return items[below(items.size())];
  }

 private:
  uint64_t fromBytes();

  std::mt19937_64 engine_;
  std::span<const uint8_t> bytes_;
  size_t offset_ = 0;
};

struct RandomModelOptions {
  // Nesting depth of IF/WHILE: 0 = no control flow, 3 = an IF in a WHILE in a WHILE.
  uint32_t maxDepth = 3;
  // Random operations per subgraph before its outputs are produced (at least 1 in main).
  uint32_t maxOperations = 6;
  // Tensor shapes: every shape is broadcast-compatible with one random shape
  // per model of rank 1..maxRank and dimensions 1..maxDimension.
  uint32_t maxRank = 4;
  uint32_t maxDimension = 6;
  uint32_t maxInputs = 3;   // main inputs: 0..maxInputs
  uint32_t maxOutputs = 3;  // main outputs: 1..maxOutputs
  // Percentage of operations that are IF or WHILE (while depth allows).
  uint32_t controlFlowPercent = 30;
  // Upper bound of a WHILE's counter bound; iterations never exceed this + 2.
  uint32_t maxLoopBound = 5;
  // Referenced subgraphs stop being created beyond this many.
  uint32_t maxSubgraphs = 24;
  // Mix in TENSOR_FLOAT32 values: ADD/SUB/MUL/MAXIMUM/MINIMUM/comparisons on
  // floats and CAST INT32<->FLOAT32, so partitioning between fabric and CPU
  // is exercised.
  bool float32 = false;
  // With float32: FLOAT32 edge values (±0, subnormals, ±inf, NaN, overflow,
  // halfway-rounding values) in constants, float DIV, fused activations,
  // ABS/NEG and FULLY_CONNECTED (+ RESHAPE): the FLOAT32 fabric's tests.
  bool floatEdges = false;
  // Percentage of main-subgraph IFs whose branches give differently shaped
  // outputs, declared with unknown rank and used only as main outputs. Valid
  // under NNAPI's runtime rules, not its driver rules: the runtime must run
  // such an IF on the CPU.
  uint32_t dynamicIfPercent = 10;
  // Percentage of temporaries (never IF/WHILE operands or referenced
  // subgraph inputs/outputs) declared with unknown dimensions, so that
  // devices must infer shapes.
  uint32_t unknownShapePercent = 10;
};

Model randomModel(uint64_t seed, const RandomModelOptions& options = {});
// The same generator drawing from `rng` (e.g. a fuzzer's bytes).
Model randomModel(RandomSource rng, const RandomModelOptions& options = {});

struct RandomInputOptions {
  // BOOL8 inputs also take bytes other than 0 and 1 (NNAPI: non-zero is true),
  // which the JSON formats cannot express.
  bool nonCanonicalBools = false;
  // FLOAT32 inputs also take the edge values (RandomModelOptions::floatEdges).
  bool floatEdges = false;
};

// One value per main input, of its declared type and dimensions, with INT32
// edge values (INT32_MIN, INT32_MAX, -1, 0, 1) mixed in.
std::vector<TensorValue> randomInputs(const Model& model, RandomSource& rng,
                                      const RandomInputOptions& options = {});

}  // namespace nnfab::testing
