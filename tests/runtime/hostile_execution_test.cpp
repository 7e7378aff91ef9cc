// Models that try to hurt the executor, run on every device of the build
// (cpu, hls, sim): memory that grows without bound, results larger than a
// tensor may be, and the loop-timeout edge NNAPI defines. Each must end with
// the same status everywhere, quickly, and leave the process well.
#include <gtest/gtest.h>

#include <chrono>
#include <string>

#include "runtime/device.h"
#include "support/loop_models.h"
#include "support/model_builder.h"
#include "support/run_on.h"

namespace nnfab {
namespace {

using namespace std::chrono_literals;
using testing::int32s;
using testing::SubgraphBuilder;

constexpr auto I32 = OperandType::TENSOR_INT32;
constexpr auto B8 = OperandType::TENSOR_BOOL8;
constexpr auto F32 = OperandType::TENSOR_FLOAT32;

using testing::runOn;

// t <- reshape(t + zeros[2,1], [-1]) while i < n: t doubles every iteration
// (its shape is known only at execution, as NNAPI allows for loop state).
Model doublingLoop() {
  Model model;
  SubgraphBuilder cond;
  const uint32_t ci = cond.input(I32, {1});
  cond.input(F32, {0});
  const uint32_t cn = cond.input(I32, {1});
  const uint32_t co = cond.output(B8, {1});
  cond.op(OperationType::LESS, {ci, cn}, {co});
  model.referenced.push_back(cond.build());

  SubgraphBuilder body;
  const uint32_t bi = body.input(I32, {1});
  const uint32_t bt = body.input(F32, {0});
  body.input(I32, {1});
  const uint32_t one = body.int32Tensor({1}, {1});
  const uint32_t zeros = body.floatTensor({2, 1}, {0, 0});
  const uint32_t flat = body.int32Tensor({1}, {-1});
  const uint32_t none = body.scalar(0);
  const uint32_t wide = body.temp(F32, {0, 0});
  const uint32_t bi2 = body.output(I32, {1});
  const uint32_t bt2 = body.output(F32, {0});
  body.op(OperationType::ADD, {bi, one, none}, {bi2});
  body.op(OperationType::ADD, {bt, zeros, none}, {wide});
  body.op(OperationType::RESHAPE, {wide, flat}, {bt2});
  model.referenced.push_back(body.build());

  SubgraphBuilder main;
  const uint32_t c = main.subgraphRef(0), b = main.subgraphRef(1);
  const uint32_t i0 = main.int32Tensor({1}, {0});
  const uint32_t n = main.input(I32, {1});
  const uint32_t t = main.input(F32, {0});
  const uint32_t iOut = main.output(I32, {1});
  const uint32_t tOut = main.output(F32, {0});
  main.op(OperationType::WHILE, {c, b, i0, t, n}, {iOut, tOut});
  model.main = main.build();
  return model;
}

// a[N,1] + b[1,N] and a[N,1] - b[1,N]: two N*N broadcasts alive at once.
Model twoBroadcasts() {
  SubgraphBuilder main;
  const uint32_t a = main.input(I32, {0, 1});
  const uint32_t b = main.input(I32, {1, 0});
  const uint32_t none = main.scalar(0);
  const uint32_t sum = main.output(I32, {0, 0});
  const uint32_t difference = main.output(I32, {0, 0});
  main.op(OperationType::ADD, {a, b, none}, {sum});
  main.op(OperationType::SUB, {a, b, none}, {difference});
  Model model;
  model.main = main.build();
  return model;
}

class OnEveryDevice : public ::testing::TestWithParam<std::string> {
 protected:
  const Device& device() {
    const Device* d = findDevice(GetParam());
    EXPECT_NE(d, nullptr);
    return *d;
  }
};

std::vector<std::string> builtDevices() {
  std::vector<std::string> names;
  for (const Device* d : allDevices()) names.emplace_back(d->name());
  return names;
}

TEST_P(OnEveryDevice, ATensorThatDoublesEveryIterationEndsAtTheMemoryLimit) {
  ExecutionOptions options;
  options.memoryLimitBytes = uint64_t{64} << 20;
  const auto start = std::chrono::steady_clock::now();
  const ExecutionResult result =
      runOn(device(), doublingLoop(), {int32s({1}, {1000}), testing::floats({4}, {1, 2, 3, 4})}, options);
  EXPECT_EQ(result.status.code(), ErrorStatus::RESOURCE_EXHAUSTED_PERSISTENT) << result.status.message();
  EXPECT_NE(result.status.message().find("memory limit"), std::string::npos) << result.status.message();
  EXPECT_LT(std::chrono::steady_clock::now() - start, 30s);
  // A few doublings stay well within the limit.
  const ExecutionResult fine =
      runOn(device(), doublingLoop(), {int32s({1}, {3}), testing::floats({4}, {1, 2, 3, 4})}, options);
  ASSERT_TRUE(fine.status.isOk()) << fine.status.message();
  EXPECT_EQ(fine.outputs[1].dimensions, Dimensions{32});
}

TEST_P(OnEveryDevice, LargeBroadcastsAliveTogetherCountAgainstTheLimit) {
  // Small enough for the RTL co-simulation (the element engine, one
  // element every few cycles) to finish each broadcast well within the
  // host's 10 s hang check on a loaded machine.
  constexpr uint32_t n = 600;  // 1.44 MB per result
  std::vector<int32_t> column(n, 1), row(n, 2);
  const std::vector<TensorValue> inputs = {int32s({n, 1}, column), int32s({1, n}, row)};
  ExecutionOptions tight;
  tight.memoryLimitBytes = uint64_t{5} << 19;  // 2.5 MB: one result fits, two do not
  const ExecutionResult refused = runOn(device(), twoBroadcasts(), inputs, tight);
  EXPECT_EQ(refused.status.code(), ErrorStatus::RESOURCE_EXHAUSTED_PERSISTENT) << refused.status.message();
  ExecutionOptions roomy;
  roomy.memoryLimitBytes = uint64_t{8} << 20;
  const ExecutionResult fine = runOn(device(), twoBroadcasts(), inputs, roomy);
  ASSERT_TRUE(fine.status.isOk()) << fine.status.message();
  EXPECT_EQ(fine.outputs[0].dimensions, (Dimensions{n, n}));
}

// Past 4 GiB (the kernels' shape check) and between 1 GiB and 4 GiB (the
// executor's tensor limit): one status, RESOURCE_EXHAUSTED_PERSISTENT.
TEST_P(OnEveryDevice, AnOversizedBroadcastIsAlwaysPersistentlyExhausted) {
  for (const auto& [rows, cols] : {std::pair<uint32_t, uint32_t>{65536, 65536}, {32768, 16384}, {100000, 50000}}) {
    const std::vector<TensorValue> inputs = {int32s({rows, 1}, std::vector<int32_t>(rows, 1)),
                                             int32s({1, cols}, std::vector<int32_t>(cols, 2))};
    const ExecutionResult result = runOn(device(), twoBroadcasts(), inputs);
    EXPECT_EQ(result.status.code(), ErrorStatus::RESOURCE_EXHAUSTED_PERSISTENT)
        << rows << "x" << cols << ": " << result.status.message();
  }
}

// NNAPI checks the loop timeout after each true condition, before the body:
// with a timeout of 0, a loop whose condition is false at once completes, and
// one whose condition is true times out.
TEST_P(OnEveryDevice, AZeroLoopTimeoutFollowsNnapi) {
  ExecutionOptions options;
  options.loopTimeout = 0ns;
  // while (i < n) i += 1 from i = 0: n = 0 never runs the body.
  const ExecutionResult never = runOn(device(), testing::counterLoop(), {int32s({1}, {0})}, options);
  ASSERT_TRUE(never.status.isOk()) << never.status.message();
  EXPECT_EQ(testing::values<int32_t>(never.outputs[0]), std::vector<int32_t>{0});
  const ExecutionResult once = runOn(device(), testing::counterLoop(), {int32s({1}, {1000000})}, options);
  EXPECT_EQ(once.status.code(), ErrorStatus::MISSED_DEADLINE_TRANSIENT) << once.status.message();
}

INSTANTIATE_TEST_SUITE_P(Devices, OnEveryDevice, ::testing::ValuesIn(builtDevices()),
                         [](const auto& info) { return info.param; });

}  // namespace
}  // namespace nnfab
