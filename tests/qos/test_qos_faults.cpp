// Device memory (RESOURCE_EXHAUSTED_*) and device faults: a hang the host
// watchdog notices, a bus error, a corrupted instruction, a core that ignores
// preemption. Each fails only the affected execution, with a clear status
// and no result; the core is reset and the next execution succeeds.
#include <gtest/gtest.h>

#include <chrono>
#include <thread>

#include "compiler/compiler.h"
#include "qos/qos_test_util.h"
#include "runtime/fabric_engine.h"
#include "support/loop_models.h"
#include "support/model_builder.h"

namespace nnfab::qos {
namespace {

using namespace std::chrono_literals;
using testing::int32s;

uint64_t memoryNeedOf(const Model& model) {
  compiler::StepSpec spec;
  spec.operations = {0};
  spec.inputs = model.main.inputIndexes;
  spec.outputs = model.main.outputIndexes;
  std::vector<Dimensions> dims;
  for (uint32_t k : spec.inputs) dims.push_back(model.main.operands[k].dimensions);
  auto program = compiler::compile(model, spec, dims);
  EXPECT_TRUE(program.isOk()) << program.status().message();
  return program.isOk() ? runtime::FabricEngine::memoryNeed(*program) : 0;
}

// A model whose fabric step can never fit the device memory is prepared and
// runs on the CPU (NNAPI's fallback when a device cannot prepare), with the
// same results.
TEST(QosResources, AModelLargerThanTheDeviceMemoryRunsOnTheCpu) {
  backends::HlsBackendOptions small;
  small.memoryBytes = 1 << 20;
  TestHls hls(small);
  auto client = api::Client::create("big");
  constexpr uint32_t kElements = 1 << 18;  // 1 MiB per copy of t
  auto prepared = client->prepare(hls.device(), tensorLoop(kElements));
  ASSERT_TRUE(prepared.isOk()) << prepared.status().message();
  const ExecutionResult result =
      prepared.value()->execute({int32s({1}, {3}), int32s({kElements}, std::vector<int32_t>(kElements, 1))}, {});
  ASSERT_TRUE(result.status.isOk()) << result.status.message();
  EXPECT_EQ(testing::values<int32_t>(result.outputs[1]), std::vector<int32_t>(kElements, 4));
}

// A preempted (parked) execution keeps its device memory: another that needs
// more than is left fails TRANSIENT, and succeeds once the first is done.
TEST(QosResources, MemoryHeldByAParkedExecutionIsTransientlyExhausted) {
  constexpr uint32_t kElements = 16384;
  const Model model = tensorLoop(kElements);
  const uint64_t need = memoryNeedOf(model);
  ASSERT_GT(need, 0u);
  backends::HlsBackendOptions options;
  options.memoryBytes = need + need / 2;  // one fits, two do not
  TestHls hls(options);
  auto client = api::Client::create("memory");
  auto low = prepareOrDie(*client, hls.device(), model, Priority::LOW);
  auto high = prepareOrDie(*client, hls.device(), model, Priority::HIGH);
  const std::vector<int32_t> zeros(kElements, 0);

  Drain drain;
  auto background = drain(low->executeAsync({int32s({1}, {2000000}), int32s({kElements}, zeros)}));
  while (hls.device().schedulerStats().grants == 0) std::this_thread::sleep_for(1ms);
  std::this_thread::sleep_for(10ms);
  const ExecutionResult refused = high->execute({int32s({1}, {3}), int32s({kElements}, zeros)});
  EXPECT_EQ(refused.status.code(), ErrorStatus::RESOURCE_EXHAUSTED_TRANSIENT) << refused.status.message();
  EXPECT_TRUE(refused.outputs.empty());
  EXPECT_GE(hls.device().schedulerStats().preemptions, 1u);  // it was parked, not running

  background->cancel();
  background->wait();
  const ExecutionResult later = high->execute({int32s({1}, {3}), int32s({kElements}, zeros)});
  ASSERT_TRUE(later.status.isOk()) << later.status.message();
  EXPECT_EQ(testing::values<int32_t>(later.outputs[1]), std::vector<int32_t>(kElements, 3));
}

class QosFaults : public ::testing::TestWithParam<backends::InjectedFault> {};

TEST_P(QosFaults, FailTheAffectedExecutionResetTheCoreAndTheNextOneSucceeds) {
  runtime::EngineOptions engine;
  engine.hangTimeout = 150ms;
  TestHls hls({}, engine);
  auto client = api::Client::create("faulty");
  auto prepared = prepareOrDie(*client, hls.device(), testing::counterLoop(true));
  ASSERT_TRUE(prepared->execute(counterInputs(10)).status.isOk());  // creates the backend
  ASSERT_NE(hls.backend(), nullptr);

  hls.backend()->injectFault(GetParam());
  // IGNORE_PREEMPT shows only when the host must stop the core: a deadline.
  api::ExecuteRequest request;
  if (GetParam() == backends::InjectedFault::IGNORE_PREEMPT) request.deadline = Clock::now() + 30ms;
  const auto start = Clock::now();
  const ExecutionResult failed = prepared->execute(counterInputs(GetParam() == backends::InjectedFault::IGNORE_PREEMPT
                                                                     ? 2000000000
                                                                     : 1000),
                                                   request);
  const double ms = millisSince(start);
  ASSERT_FALSE(failed.status.isOk());
  EXPECT_TRUE(failed.outputs.empty());
  EXPECT_LT(ms, 1000.0);
  if (GetParam() == backends::InjectedFault::IGNORE_PREEMPT) {
    // The deadline is the answer; the host watchdog reset the core.
    EXPECT_EQ(failed.status.code(), ErrorStatus::MISSED_DEADLINE_TRANSIENT) << failed.status.message();
  } else {
    EXPECT_EQ(failed.status.code(), ErrorStatus::GENERAL_FAILURE);
    EXPECT_NE(failed.status.message().find("device fault"), std::string::npos) << failed.status.message();
  }

  const ExecutionResult next = prepared->execute(counterInputs(1000));
  ASSERT_TRUE(next.status.isOk()) << next.status.message();
  EXPECT_EQ(testing::values<int32_t>(next.outputs[1]), std::vector<int32_t>{expectedCounter(1000)[1]});
}

INSTANTIATE_TEST_SUITE_P(Injected, QosFaults,
                         ::testing::Values(backends::InjectedFault::HANG, backends::InjectedFault::BUS_ERROR,
                                           backends::InjectedFault::BAD_INSTRUCTION,
                                           backends::InjectedFault::IGNORE_PREEMPT),
                         [](const auto& info) {
                           switch (info.param) {
                             case backends::InjectedFault::HANG: return std::string("Hang");
                             case backends::InjectedFault::BUS_ERROR: return std::string("BusError");
                             case backends::InjectedFault::BAD_INSTRUCTION: return std::string("BadInstruction");
                             case backends::InjectedFault::IGNORE_PREEMPT: return std::string("IgnorePreempt");
                             default: return std::string("Other");
                           }
                         });

TEST(QosFaultMessages, HangAndBadInstructionAreNamed) {
  runtime::EngineOptions engine;
  engine.hangTimeout = 100ms;
  TestHls hls({}, engine);
  auto client = api::Client::create("messages");
  auto prepared = prepareOrDie(*client, hls.device(), testing::counterLoop(true));
  ASSERT_TRUE(prepared->execute(counterInputs(1)).status.isOk());
  hls.backend()->injectFault(backends::InjectedFault::HANG);
  EXPECT_NE(prepared->execute(counterInputs(5)).status.message().find("did not respond"), std::string::npos);
  hls.backend()->injectFault(backends::InjectedFault::BAD_INSTRUCTION);
  EXPECT_NE(prepared->execute(counterInputs(5)).status.message().find("ILLEGAL_INSTRUCTION"), std::string::npos);
  hls.backend()->injectFault(backends::InjectedFault::BUS_ERROR);
  EXPECT_NE(prepared->execute(counterInputs(5)).status.message().find("BUS_ERROR"), std::string::npos);
}

}  // namespace
}  // namespace nnfab::qos
