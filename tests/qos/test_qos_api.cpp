// VTS-like checks of the client API on every device: priorities, deadlines
// (before, by the cycle model, during), loop timeouts, cancel, and that a
// failed or cancelled execution never carries a result.
#include <gtest/gtest.h>

#include <chrono>
#include <thread>

#include "qos/qos_test_util.h"
#include "runtime/cpu_device.h"
#include "runtime/runtime_models.h"
#include "support/loop_models.h"
#include "support/model_builder.h"

namespace nnfab::qos {
namespace {

using namespace std::chrono_literals;
using testing::int32s;

bool isMissedDeadline(ErrorStatus code) {
  return code == ErrorStatus::MISSED_DEADLINE_TRANSIENT || code == ErrorStatus::MISSED_DEADLINE_PERSISTENT;
}

void expectNoResult(const ExecutionResult& result) {
  EXPECT_TRUE(result.outputs.empty());
  EXPECT_FALSE(result.timing.onDeviceNs.has_value());
  EXPECT_FALSE(result.timing.inDriverNs.has_value());
}

TEST(QosApi, ClientsHaveDistinctNonZeroIds) {
  auto a = api::Client::create("a");
  auto b = api::Client::create("b");
  EXPECT_NE(a->id(), 0u);
  EXPECT_NE(a->id(), b->id());
  EXPECT_EQ(a->name(), "a");
}

TEST(QosApi, InvalidPriorityIsRejectedOnEveryDevice) {
  auto client = api::Client::create("priorities");
  for (const Device* device : allDevices()) {
    for (int32_t raw : {-1, 3, 90, 110}) {
      api::PrepareRequest request;
      request.priority = static_cast<Priority>(raw);
      auto prepared = client->prepare(*device, testing::counterLoop(), request);
      EXPECT_EQ(prepared.status().code(), ErrorStatus::INVALID_ARGUMENT) << device->name() << " priority " << raw;
    }
    for (Priority p : {Priority::LOW, Priority::MEDIUM, Priority::HIGH}) {
      api::PrepareRequest request;
      request.priority = p;
      auto prepared = client->prepare(*device, testing::counterLoop(), request);
      ASSERT_TRUE(prepared.isOk()) << device->name() << ": " << prepared.status().message();
      EXPECT_EQ(prepared.value()->priority(), p);
    }
    auto byDefault = client->prepare(*device, testing::counterLoop());
    ASSERT_TRUE(byDefault.isOk());
    EXPECT_EQ(byDefault.value()->priority(), Priority::MEDIUM);
  }
}

TEST(QosApi, DeadlineAlreadyPassedIsPersistentOnEveryDevice) {
  auto client = api::Client::create("late");
  for (const Device* device : allDevices()) {
    api::PrepareRequest late;
    late.deadline = Clock::now() - 1ms;
    EXPECT_EQ(client->prepare(*device, testing::counterLoop(), late).status().code(),
              ErrorStatus::MISSED_DEADLINE_PERSISTENT)
        << device->name();

    auto prepared = prepareOrDie(*client, *device, testing::counterLoop(true));
    api::ExecuteRequest request;
    request.deadline = Clock::now() - 1ms;
    const ExecutionResult sync = prepared->execute(counterInputs(10), request);
    EXPECT_EQ(sync.status.code(), ErrorStatus::MISSED_DEADLINE_PERSISTENT) << device->name();
    expectNoResult(sync);
    auto async = prepared->executeAsync(counterInputs(10), request);
    EXPECT_EQ(async->wait().status.code(), ErrorStatus::MISSED_DEADLINE_PERSISTENT) << device->name();
    EXPECT_EQ(async->state(), api::ExecutionState::DONE);
  }
}

TEST(QosApi, NegativeLoopTimeoutIsInvalid) {
  auto client = api::Client::create("loop");
  auto prepared = prepareOrDie(*client, cpuDevice(), testing::counterLoop());
  api::ExecuteRequest request;
  request.loopTimeout = -1ms;
  EXPECT_EQ(prepared->execute(counterInputs(3), request).status.code(), ErrorStatus::INVALID_ARGUMENT);
  EXPECT_EQ(prepared->executeAsync(counterInputs(3), request)->wait().status.code(), ErrorStatus::INVALID_ARGUMENT);
}

// Eight 4 Mi-element ADDs: by the cycle model at least 8 x 262,144 write
// beats, 7 ms at 300 MHz, however fast the simulation would run it.
TEST(QosApi, DeadlineBelowTheCycleModelBoundFailsBeforeStartingOnHls) {
  const Device* hls = findDevice("hls");
  ASSERT_NE(hls, nullptr);
  auto client = api::Client::create("bound");
  const uint32_t n = 1u << 22;
  auto prepared = prepareOrDie(*client, *hls, addChain(n, 8));
  const std::vector<TensorValue> inputs = {int32s({n}, std::vector<int32_t>(n, 1))};
  api::ExecuteRequest request;
  request.deadline = Clock::now() + 3ms;
  const auto start = Clock::now();
  const ExecutionResult result = prepared->execute(inputs, request);
  EXPECT_EQ(result.status.code(), ErrorStatus::MISSED_DEADLINE_PERSISTENT) << result.status.message();
  EXPECT_NE(result.status.message().find("cycle model"), std::string::npos) << result.status.message();
  expectNoResult(result);
  EXPECT_LT(millisSince(start), 3.0 + 50.0);  // it did not run first
}

// The loop's trip count is data: the bound never counts loop iterations, so
// a short deadline on a long loop is tried and missed during the run.
TEST(QosApi, LongLoopWithShortDeadlineMissesWithinASmallMarginOnEveryDevice) {
  constexpr double kDeadlineMs = 60.0;
  constexpr double kMarginMs = 60.0;  // clock checks, host watchdog poll, core stop
  // After the deadline the host path wakes the driver, stops the core (the
  // thread that runs it must reach a boundary) and returns: up to three
  // threads that wait for a CPU on a loaded machine, each for as long as
  // this process's threads were measured to wait meanwhile (WakeLateness).
  constexpr double kHandOffs = 3.0;
  auto client = api::Client::create("deadline");
  for (const Device* device : allDevices()) {
    auto prepared = prepareOrDie(*client, *device, testing::counterLoop(true));
    api::ExecuteRequest request;
    request.deadline = Clock::now() + std::chrono::milliseconds(static_cast<int>(kDeadlineMs));
    WakeLateness lateness;
    const auto start = Clock::now();
    const ExecutionResult result = prepared->execute(counterInputs(2000000000), request);
    const double ms = millisSince(start);
    const double lateMs = lateness.stopWorstMs();
    EXPECT_TRUE(isMissedDeadline(result.status.code())) << device->name() << ": " << result.status.message();
    expectNoResult(result);
    EXPECT_LT(ms, kDeadlineMs + kMarginMs + kHandOffs * lateMs)
        << device->name() << " (a thread of this process waited up to " << lateMs << " ms for a CPU meanwhile)";
    // The device is ready for the next execution.
    const ExecutionResult next = prepared->execute(counterInputs(1000));
    ASSERT_TRUE(next.status.isOk()) << device->name() << ": " << next.status.message();
    EXPECT_EQ(testing::values<int32_t>(next.outputs[1]), std::vector<int32_t>{expectedCounter(1000)[1]});
  }
}

void expectLoopTimeout(const Device& device, const Model& model, const std::vector<TensorValue>& inputs,
                       const std::string& what) {
  auto client = api::Client::create("loop-timeout");
  auto prepared = prepareOrDie(*client, device, model);
  api::ExecuteRequest request;
  request.loopTimeout = 100ms;
  const auto start = Clock::now();
  const ExecutionResult result = prepared->execute(inputs, request);
  const double ms = millisSince(start);
  EXPECT_EQ(result.status.code(), ErrorStatus::MISSED_DEADLINE_TRANSIENT)
      << device.name() << " " << what << ": " << result.status.message();
  expectNoResult(result);
  EXPECT_GE(ms, 100.0) << device.name() << " " << what;
  EXPECT_LT(ms, 500.0) << device.name() << " " << what;  // "well under a second"
}

TEST(QosApi, InfiniteLoopWithLoopTimeout100msEndsWellUnderASecondOnEveryDevice) {
  for (const Device* device : allDevices()) {
    expectLoopTimeout(*device, testing::infiniteLoop(), {int32s({1}, {1})}, "fabric-able loop");
    expectLoopTimeout(*device, testing::infiniteMixedLoop(), {int32s({1}, {1}), testing::floats({2}, {1, 2})},
                      "host-interpreted loop");
  }
}

TEST(QosApi, AsyncCompletesExactlyOnceWithTheResult) {
  auto client = api::Client::create("async");
  for (const Device* device : allDevices()) {
    auto prepared = prepareOrDie(*client, *device, testing::counterLoop(true));
    std::atomic<int> calls{0};
    auto execution = prepared->executeAsync(counterInputs(500), {}, [&](const ExecutionResult&) { ++calls; });
    const ExecutionResult& result = execution->wait();
    ASSERT_TRUE(result.status.isOk()) << result.status.message();
    EXPECT_EQ(testing::values<int32_t>(result.outputs[0]), std::vector<int32_t>{500});
    EXPECT_EQ(execution->future().get().outputs[1].data, result.outputs[1].data);
    EXPECT_FALSE(execution->cancel());  // already complete: no effect
    EXPECT_EQ(execution->state(), api::ExecutionState::DONE);
    EXPECT_EQ(calls.load(), 1);
  }
  EXPECT_EQ(api::Execution::duplicateCompletions(), 0u);
}

TEST(QosApi, CancelStopsARunningExecutionOnEveryDevice) {
  auto client = api::Client::create("cancel");
  for (const Device* device : allDevices()) {
    auto prepared = prepareOrDie(*client, *device, testing::infiniteLoop());
    api::ExecuteRequest request;
    request.loopTimeout = 10s;
    Drain drain;
    auto execution = drain(prepared->executeAsync({int32s({1}, {1})}, request));
    std::this_thread::sleep_for(30ms);
    const auto start = Clock::now();
    EXPECT_TRUE(execution->cancel());
    ASSERT_TRUE(execution->waitFor(1s)) << device->name();
    EXPECT_LT(millisSince(start), 200.0) << device->name();
    EXPECT_EQ(execution->state(), api::ExecutionState::CANCELLED) << device->name();
    const ExecutionResult& result = execution->wait();
    EXPECT_EQ(result.status.code(), ErrorStatus::GENERAL_FAILURE);
    EXPECT_NE(result.status.message().find(kCancelledMessage), std::string::npos) << result.status.message();
    expectNoResult(result);
    // The device runs the next one.
    auto counter = prepareOrDie(*client, *device, testing::counterLoop(true));
    EXPECT_TRUE(counter->execute(counterInputs(10)).status.isOk()) << device->name();
  }
}

}  // namespace
}  // namespace nnfab::qos
