// The shrinker must keep what it reports faithful: a reduction is a valid
// model computing exactly the kept outputs of the original.
#include <gtest/gtest.h>

#include "differential/differential.h"
#include "differential/shrink.h"
#include "runtime/device.h"
#include "api/run_model.h"
#include "validation/validate.h"

namespace nnfab {
namespace {

ExecutionResult runCpu(const Model& model, const std::vector<TensorValue>& inputs) {
  RunOptions options;
  options.device = findDevice("cpu");
  return runModel(model, inputs, options);
}

TEST(Shrink, EachSingleOutputReductionIsValidAndComputesThatOutput) {
  size_t reducedSomething = 0;
  for (uint64_t seed = 0; seed < 60; ++seed) {
    const differential::Case c = differential::makeCase(seed);
    const ExecutionResult full = runCpu(c.model, c.inputs);
    ASSERT_TRUE(full.status.isOk()) << "seed " << seed;
    for (size_t i = 0; i < c.model.main.outputIndexes.size(); ++i) {
      const differential::Reduced r = differential::keepOutputs(c.model, c.inputs, {i});
      const Status valid = validateModel(r.model);
      ASSERT_TRUE(valid.isOk()) << "seed " << seed << " output " << i << ": " << valid.message();
      ASSERT_TRUE(validateInputs(r.model, r.inputs).isOk()) << "seed " << seed << " output " << i;
      const ExecutionResult one = runCpu(r.model, r.inputs);
      ExecutionResult expected;
      expected.outputs = {full.outputs[i]};
      EXPECT_EQ(differential::compareResults(expected, one), "") << "seed " << seed << " output " << i;
      EXPECT_LE(differential::operationCount(r.model), differential::operationCount(c.model));
      if (differential::operationCount(r.model) < differential::operationCount(c.model)) ++reducedSomething;
    }
  }
  EXPECT_GT(reducedSomething, 30u);
}

TEST(Shrink, InputsTurnedIntoConstantsComputeTheSame) {
  for (uint64_t seed = 0; seed < 40; ++seed) {
    const differential::Case c = differential::makeCase(seed);
    if (c.model.main.inputIndexes.empty()) continue;
    const ExecutionResult full = runCpu(c.model, c.inputs);
    const differential::Reduced r = differential::inputsToConstants(
        {c.model, c.inputs}, std::vector<bool>(c.model.main.inputIndexes.size(), true));
    EXPECT_TRUE(r.model.main.inputIndexes.empty());
    EXPECT_TRUE(r.inputs.empty());
    ASSERT_TRUE(validateModel(r.model).isOk()) << "seed " << seed << ": " << validateModel(r.model).message();
    EXPECT_EQ(differential::compareResults(full, runCpu(r.model, r.inputs)), "") << "seed " << seed;
  }
}

TEST(Shrink, PicksTheSmallestFailingReduction) {
  const differential::Case c = differential::makeCase(6);
  ASSERT_GT(c.model.main.outputIndexes.size(), 1u);
  // "Fails" whenever the reduction still has an output: the smallest wins.
  const differential::Reduced r = differential::shrink(
      c.model, c.inputs, [](const differential::Reduced& x) { return !x.model.main.outputIndexes.empty(); });
  EXPECT_EQ(r.model.main.outputIndexes.size(), 1u);
  for (size_t i = 0; i < c.model.main.outputIndexes.size(); ++i) {
    EXPECT_LE(differential::operationCount(r.model),
              differential::operationCount(differential::keepOutputs(c.model, c.inputs, {i}).model));
  }
  // Nothing fails: the case comes back whole.
  const differential::Reduced same =
      differential::shrink(c.model, c.inputs, [](const differential::Reduced&) { return false; });
  EXPECT_EQ(differential::operationCount(same.model), differential::operationCount(c.model));
}

}  // namespace
}  // namespace nnfab
