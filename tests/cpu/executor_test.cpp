// The CPU executor end to end: control flow, nesting, timeouts, deadlines,
// dynamic shapes, missing values, concurrency.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <cmath>
#include <limits>
#include <thread>

#include "cpu/cpu_executor.h"
#include "support/loop_models.h"
#include "support/model_builder.h"

namespace nnfab::cpu {
namespace {

using namespace std::chrono_literals;
using testing::bools;
using testing::floats;
using testing::int32s;
using testing::SubgraphBuilder;
using testing::values;
constexpr auto I32 = OperandType::TENSOR_INT32;
constexpr auto F32 = OperandType::TENSOR_FLOAT32;
constexpr auto B8 = OperandType::TENSOR_BOOL8;

std::unique_ptr<CpuExecutor> prepareOrDie(Model model) {
  auto prepared = CpuExecutor::prepare(std::move(model));
  EXPECT_TRUE(prepared.isOk()) << prepared.status().message();
  return prepared.isOk() ? std::move(prepared).value() : nullptr;
}

ExecutionResult run(const CpuExecutor& executor, std::vector<TensorValue> inputs,
                    ExecutionOptions options = {}) {
  return executor.execute(inputs, options);
}

TEST(CpuExecutor, CounterLoopCountsToN) {
  auto executor = prepareOrDie(testing::counterLoop(true));
  ASSERT_TRUE(executor);
  for (int32_t n : {0, 1, 2, 10, 1000}) {
    const ExecutionResult result = run(*executor, {int32s({1}, {n})});
    ASSERT_TRUE(result.status.isOk()) << result.status.message();
    ASSERT_EQ(result.outputs.size(), 2u);
    EXPECT_EQ(values<int32_t>(result.outputs[0]), std::vector<int32_t>{n});
    EXPECT_EQ(values<int32_t>(result.outputs[1]), std::vector<int32_t>{n * (n - 1) / 2}) << n;
    EXPECT_EQ(result.outputs[0].dimensions, Dimensions{1});
    EXPECT_TRUE(result.timing.onDeviceNs.has_value());
  }
}

TEST(CpuExecutor, ZeroIterationsReturnInitialValues) {
  auto executor = prepareOrDie(testing::counterLoop(true));
  ASSERT_TRUE(executor);
  const ExecutionResult result = run(*executor, {int32s({1}, {-5})});
  ASSERT_TRUE(result.status.isOk()) << result.status.message();
  EXPECT_EQ(values<int32_t>(result.outputs[0]), std::vector<int32_t>{0});
  EXPECT_EQ(values<int32_t>(result.outputs[1]), std::vector<int32_t>{0});
}

TEST(CpuExecutor, NestedLoops) {
  auto executor = prepareOrDie(testing::nestedLoops());
  ASSERT_TRUE(executor);
  for (int32_t n : {0, 1, 5, 40}) {
    const ExecutionResult result = run(*executor, {int32s({1}, {n})});
    ASSERT_TRUE(result.status.isOk()) << result.status.message();
    EXPECT_EQ(values<int32_t>(result.outputs[1]), std::vector<int32_t>{n * (n - 1) / 2}) << n;
  }
}

TEST(CpuExecutor, DeepIfNestingDoesNotUseTheCStack) {
  auto executor = prepareOrDie(testing::deepIfChain(20000));
  ASSERT_TRUE(executor);
  const ExecutionResult result = run(*executor, {int32s({1}, {41})});
  ASSERT_TRUE(result.status.isOk()) << result.status.message();
  EXPECT_EQ(values<int32_t>(result.outputs[0]), std::vector<int32_t>{42});
}

TEST(CpuExecutor, DeepWhileNesting) {
  auto executor = prepareOrDie(testing::deepWhileChain(2000));
  ASSERT_TRUE(executor);
  const ExecutionResult result = run(*executor, {int32s({1}, {7})});
  ASSERT_TRUE(result.status.isOk()) << result.status.message();
  EXPECT_EQ(values<int32_t>(result.outputs[0]), std::vector<int32_t>{8});
}

TEST(CpuExecutor, InfiniteLoopHitsTheLoopTimeout) {
  auto executor = prepareOrDie(testing::infiniteLoop());
  ASSERT_TRUE(executor);
  ExecutionOptions options;
  options.loopTimeout = 50ms;
  const auto start = Clock::now();
  const ExecutionResult result = run(*executor, {int32s({1}, {1})}, options);
  const auto elapsed = Clock::now() - start;
  EXPECT_EQ(result.status.code(), ErrorStatus::MISSED_DEADLINE_TRANSIENT) << result.status.message();
  EXPECT_NE(result.status.message().find("timed out"), std::string::npos);
  EXPECT_TRUE(result.outputs.empty());
  EXPECT_GE(elapsed, 50ms);
  EXPECT_LT(elapsed, 5s);  // generous: only catches a hang
}

TEST(CpuExecutor, LoopTimeoutIsPerWhileInstance) {
  // 40 outer iterations, each running an inner loop of 40 iterations: the
  // whole run takes longer than one inner loop, but no single loop instance
  // exceeds a timeout that is long compared to a loop's own duration.
  auto executor = prepareOrDie(testing::nestedLoops());
  ASSERT_TRUE(executor);
  ExecutionOptions options;
  options.loopTimeout = 1s;
  const ExecutionResult result = run(*executor, {int32s({1}, {40})}, options);
  ASSERT_TRUE(result.status.isOk()) << result.status.message();
}

TEST(CpuExecutor, LoopTimeoutIsClampedToTheMaximum) {
  auto executor = prepareOrDie(testing::counterLoop());
  ASSERT_TRUE(executor);
  ExecutionOptions options;
  options.loopTimeout = std::chrono::hours(1000000);  // must not overflow time arithmetic
  const ExecutionResult result = run(*executor, {int32s({1}, {3})}, options);
  ASSERT_TRUE(result.status.isOk()) << result.status.message();
}

TEST(CpuExecutor, DeadlineAlreadyPassedIsPersistent) {
  auto executor = prepareOrDie(testing::counterLoop());
  ASSERT_TRUE(executor);
  ExecutionOptions options;
  options.deadline = Clock::now() - 1ms;
  const ExecutionResult result = run(*executor, {int32s({1}, {3})}, options);
  EXPECT_EQ(result.status.code(), ErrorStatus::MISSED_DEADLINE_PERSISTENT);
}

TEST(CpuExecutor, DeadlineDuringALoopIsTransient) {
  auto executor = prepareOrDie(testing::infiniteLoop());
  ASSERT_TRUE(executor);
  ExecutionOptions options;
  options.loopTimeout = 10s;
  options.deadline = Clock::now() + 50ms;
  const auto start = Clock::now();
  const ExecutionResult result = run(*executor, {int32s({1}, {1})}, options);
  EXPECT_EQ(result.status.code(), ErrorStatus::MISSED_DEADLINE_TRANSIENT) << result.status.message();
  EXPECT_NE(result.status.message().find("deadline"), std::string::npos);
  EXPECT_LT(Clock::now() - start, 5s);
}

// main: IF(c, then, else, x) where the branches produce different shapes:
// then = x + [1, 2] (shape [2]), else = x + [1, 2, 3] (shape [3]).
Model ifWithDynamicShapes() {
  Model model;
  for (int width : {2, 3}) {
    SubgraphBuilder branch;
    const uint32_t x = branch.input(I32, {1});
    std::vector<int32_t> addend(static_cast<size_t>(width));
    for (int k = 0; k < width; ++k) addend[static_cast<size_t>(k)] = k + 1;
    const uint32_t c = branch.int32Tensor({static_cast<uint32_t>(width)}, addend);
    const uint32_t y = branch.output(I32, {0});
    branch.op(OperationType::ADD, {x, c, branch.scalar(0)}, {y});
    model.referenced.push_back(branch.build());
  }
  SubgraphBuilder main;
  const uint32_t cond = main.input(B8, {1});
  const uint32_t x = main.input(I32, {1});
  const uint32_t t = main.subgraphRef(0), e = main.subgraphRef(1);
  const uint32_t y = main.output(I32, {0});
  main.op(OperationType::IF, {cond, t, e, x}, {y});
  model.main = main.build();
  return model;
}

TEST(CpuExecutor, IfOutputTakesTheShapeOfTheTakenBranch) {
  auto executor = prepareOrDie(ifWithDynamicShapes());
  ASSERT_TRUE(executor);
  ExecutionResult result = run(*executor, {bools({1}, {1}), int32s({1}, {10})});
  ASSERT_TRUE(result.status.isOk()) << result.status.message();
  EXPECT_EQ(result.outputs[0].dimensions, Dimensions{2});
  EXPECT_EQ(values<int32_t>(result.outputs[0]), (std::vector<int32_t>{11, 12}));
  result = run(*executor, {bools({1}, {0}), int32s({1}, {10})});
  ASSERT_TRUE(result.status.isOk()) << result.status.message();
  EXPECT_EQ(result.outputs[0].dimensions, Dimensions{3});
  EXPECT_EQ(values<int32_t>(result.outputs[0]), (std::vector<int32_t>{11, 12, 13}));
}

// A loop-carried tensor declared with an unknown dimension that grows from
// [1] to [2] in the first iteration (x = x + y, y of shape [2]).
Model loopWithGrowingTensor() {
  Model model;
  SubgraphBuilder cond;
  const uint32_t ci = cond.input(I32, {1});
  cond.input(F32, {0});
  cond.input(I32, {1});
  cond.input(F32, {2});
  const uint32_t co = cond.output(B8, {1});
  cond.op(OperationType::LESS, {ci, 2}, {co});
  model.referenced.push_back(cond.build());
  SubgraphBuilder body;
  const uint32_t i = body.input(I32, {1});
  const uint32_t x = body.input(F32, {0});
  body.input(I32, {1});
  const uint32_t y = body.input(F32, {2});
  const uint32_t iNext = body.output(I32, {1});
  const uint32_t xNext = body.output(F32, {0});
  body.op(OperationType::ADD, {i, body.int32Tensor({1}, {1}), body.scalar(0)}, {iNext});
  body.op(OperationType::ADD, {x, y, body.scalar(0)}, {xNext});
  model.referenced.push_back(body.build());
  SubgraphBuilder main;
  const uint32_t c = main.subgraphRef(0), b = main.subgraphRef(1);
  const uint32_t i0 = main.int32Tensor({1}, {0});
  const uint32_t x0 = main.input(F32, {0});
  const uint32_t n = main.input(I32, {1});
  const uint32_t step = main.floatTensor({2}, {0.5f, -1.0f});
  const uint32_t iOut = main.temp(I32, {1});
  const uint32_t xOut = main.output(F32, {0});
  main.op(OperationType::WHILE, {c, b, i0, x0, n, step}, {iOut, xOut});
  model.main = main.build();
  return model;
}

TEST(CpuExecutor, LoopCarriedTensorMayChangeShape) {
  auto executor = prepareOrDie(loopWithGrowingTensor());
  ASSERT_TRUE(executor);
  ExecutionResult result = run(*executor, {floats({1}, {1.0f}), int32s({1}, {3})});
  ASSERT_TRUE(result.status.isOk()) << result.status.message();
  EXPECT_EQ(result.outputs[0].dimensions, Dimensions{2});
  EXPECT_EQ(values<float>(result.outputs[0]), (std::vector<float>{2.5f, -2.0f}));
  // Zero iterations keep the input's shape.
  result = run(*executor, {floats({1}, {1.0f}), int32s({1}, {0})});
  ASSERT_TRUE(result.status.isOk()) << result.status.message();
  EXPECT_EQ(result.outputs[0].dimensions, Dimensions{1});
}

TEST(CpuExecutor, DeclaredShapeConflictIsGeneralFailure) {
  SubgraphBuilder main;
  const uint32_t a = main.input(I32, {2});
  const uint32_t b = main.input(I32, {3, 1});
  const uint32_t out = main.output(I32, {2, 2});  // broadcast gives [3, 2]
  main.op(OperationType::ADD, {a, b, main.scalar(0)}, {out});
  Model model;
  model.main = main.build();
  auto executor = prepareOrDie(std::move(model));
  ASSERT_TRUE(executor);
  const ExecutionResult result = run(*executor, {int32s({2}, {1, 2}), int32s({3, 1}, {1, 2, 3})});
  EXPECT_EQ(result.status.code(), ErrorStatus::GENERAL_FAILURE);
  EXPECT_NE(result.status.message().find("operation 0 (ADD)"), std::string::npos)
      << result.status.message();
}

Model addTwoInputs() {
  SubgraphBuilder main;
  const uint32_t a = main.input(F32, {2});
  const uint32_t b = main.input(F32, {2});
  const uint32_t out = main.output(F32, {2});
  main.op(OperationType::ADD, {a, b, main.scalar(0)}, {out});
  Model model;
  model.main = main.build();
  return model;
}

TEST(CpuExecutor, OmittedInputThatIsReadFails) {
  auto executor = prepareOrDie(addTwoInputs());
  ASSERT_TRUE(executor);
  const ExecutionResult result = run(*executor, {floats({2}, {1, 2}), testing::omitted()});
  EXPECT_EQ(result.status.code(), ErrorStatus::GENERAL_FAILURE);
  EXPECT_NE(result.status.message().find("no value"), std::string::npos);
}

TEST(CpuExecutor, OmittedConditionFails) {
  auto executor = prepareOrDie(ifWithDynamicShapes());
  ASSERT_TRUE(executor);
  // The condition itself omitted: the IF cannot decide.
  ExecutionResult result = run(*executor, {testing::omitted(), int32s({1}, {1})});
  EXPECT_EQ(result.status.code(), ErrorStatus::GENERAL_FAILURE);
  EXPECT_NE(result.status.message().find("condition"), std::string::npos);
}

TEST(CpuExecutor, InfinitiesAndNaNPropagate) {
  auto executor = prepareOrDie(addTwoInputs());
  ASSERT_TRUE(executor);
  const float inf = std::numeric_limits<float>::infinity();
  const ExecutionResult result =
      run(*executor, {floats({2}, {inf, std::numeric_limits<float>::quiet_NaN()}), floats({2}, {-inf, 1.0f})});
  ASSERT_TRUE(result.status.isOk());
  const auto out = values<float>(result.outputs[0]);
  EXPECT_TRUE(std::isnan(out[0]));  // inf + -inf
  EXPECT_TRUE(std::isnan(out[1]));
}

TEST(CpuExecutor, Int32ActivationIsAnExecutionError) {
  SubgraphBuilder main;
  const uint32_t a = main.input(I32, {1});
  const uint32_t out = main.output(I32, {1});
  main.op(OperationType::ADD, {a, a, main.scalar(1)}, {out});
  Model model;
  model.main = main.build();
  auto executor = prepareOrDie(std::move(model));
  ASSERT_TRUE(executor);
  EXPECT_EQ(run(*executor, {int32s({1}, {1})}).status.code(), ErrorStatus::GENERAL_FAILURE);
}

TEST(CpuExecutor, UnsupportedOperationIsRejectedAtPreparation) {
  SubgraphBuilder main;
  const uint32_t a = main.input(F32, {1, 2, 2, 1});
  const uint32_t out = main.output(F32, {1, 2, 2, 1});
  main.op(OperationType::TANH, {a}, {out});
  Model model;
  model.main = main.build();
  auto prepared = CpuExecutor::prepare(std::move(model));
  ASSERT_FALSE(prepared.isOk());
  EXPECT_EQ(prepared.status().code(), ErrorStatus::INVALID_ARGUMENT);
  EXPECT_NE(prepared.status().message().find("TANH"), std::string::npos);
}

TEST(CpuExecutor, WrongInputSizeIsInvalidArgument) {
  auto executor = prepareOrDie(addTwoInputs());
  ASSERT_TRUE(executor);
  TensorValue shortInput = floats({2}, {1.0f});
  EXPECT_EQ(run(*executor, {shortInput, floats({2}, {1, 2})}).status.code(),
            ErrorStatus::INVALID_ARGUMENT);
  EXPECT_EQ(run(*executor, {floats({2}, {1, 2})}).status.code(), ErrorStatus::INVALID_ARGUMENT);
}

TEST(CpuExecutor, SupportReportFollowsReferencedSubgraphs) {
  Model model = testing::counterLoop();
  EXPECT_EQ(getSupportedOperations(model).supported, std::vector<bool>{true});
  model.referenced[1].operations[0].type = OperationType::TANH;  // the body
  const SupportReport report = getSupportedOperations(model);
  EXPECT_EQ(report.supported, std::vector<bool>{false});
  EXPECT_NE(report.why[0].find("TANH"), std::string::npos);
}

TEST(CpuExecutor, ConcurrentExecutionsAreIndependent) {
  auto executor = prepareOrDie(testing::counterLoop(true));
  ASSERT_TRUE(executor);
  std::vector<std::thread> threads;
  std::atomic<int> wrong{0};
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&, t] {
      for (int k = 0; k < 200; ++k) {
        const int32_t n = t * 100 + k;
        const ExecutionResult r = executor->execute({int32s({1}, {n})}, {});
        if (!r.status.isOk() || values<int32_t>(r.outputs[1])[0] != n * (n - 1) / 2) ++wrong;
      }
    });
  }
  for (auto& thread : threads) thread.join();
  EXPECT_EQ(wrong.load(), 0);
}

}  // namespace
}  // namespace nnfab::cpu
