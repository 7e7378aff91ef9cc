// The hls device end to end: supported operations, capabilities, plans that
// mix fabric and CPU, partial fallback, loop timeouts and deadlines, device
// memory — every result compared with the cpu device, the reference.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string_view>
#include <thread>

#include "backends/hls_backend.h"
#include "compiler/compiler.h"
#include "model/json_io.h"
#include "runtime/cpu_device.h"
#include "runtime/fabric_device.h"
#include "runtime/fabric_performance.h"
#include "api/run_model.h"
#include "runtime/runtime_models.h"
#include "support/loop_models.h"
#include "support/model_builder.h"
#include "support/run_on.h"
#include "support/random_model.h"

namespace nnfab {
namespace {

namespace fs = std::filesystem;
using namespace std::chrono_literals;
using testing::int32s;

const Device& hls() {
  const Device* device = findDevice("hls");
  EXPECT_NE(device, nullptr);
  return *device;
}

using testing::runOn;

// hls as a core of the base ISA (no FEATURES probe: FLOAT32 unread, so
// off), with the registered hls's clock and hand-off costs: how partitioning
// treats models a core cannot run entirely (sim until its FLOAT32 units land).
const Device& baseIsaHls() {
  static const FabricDevice device("hls-base-isa", "hls without FLOAT32", isa::kNOMINAL_CLOCK_MHZ,
                                   [] { return std::make_unique<backends::HlsBackend>(); }, runtime::EngineOptions{},
                                   runtime::handoffCosts(runtime::kHlsFabricStepNs));
  return device;
}

// Same status; on success the same outputs, byte for byte.
void expectSame(const ExecutionResult& expected, const ExecutionResult& actual, const std::string& what) {
  ASSERT_EQ(toString(actual.status.code()), toString(expected.status.code()))
      << what << ": cpu says '" << expected.status.message() << "', the device '"
      << actual.status.message() << "'";
  if (!expected.status.isOk()) return;
  ASSERT_EQ(actual.outputs.size(), expected.outputs.size()) << what;
  for (size_t i = 0; i < expected.outputs.size(); ++i) {
    EXPECT_EQ(actual.outputs[i].type, expected.outputs[i].type) << what << ", output " << i;
    EXPECT_EQ(actual.outputs[i].dimensions, expected.outputs[i].dimensions) << what << ", output " << i;
    EXPECT_EQ(actual.outputs[i].data, expected.outputs[i].data) << what << ", output " << i;
  }
}

void expectSameAsCpu(const Device& device, const Model& model, const std::vector<TensorValue>& inputs,
                     const std::string& what, const ExecutionOptions& options = {}) {
  expectSame(runOn(cpuDevice(), model, inputs, options), runOn(device, model, inputs, options), what);
}

std::string readText(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream out;
  out << in.rdbuf();
  return out.str();
}

// A FabricDevice over an HlsBackend the test can look at.
struct ObservedHls {
  explicit ObservedHls(backends::HlsBackendOptions options = {})
      : device("observed", "hls for tests", isa::kNOMINAL_CLOCK_MHZ, [this, options] {
          auto backend = std::make_unique<backends::HlsBackend>(options);
          created = backend.get();
          return backend;
        }) {}
  uint64_t slices() const {
    const backends::HlsBackend* backend = created.load();
    return backend ? backend->slicesRun() : 0;
  }
  std::atomic<backends::HlsBackend*> created{nullptr};
  FabricDevice device;
};

TEST(HlsDevice, IsRegisteredBeforeCpuAndTheDefaultIsTheRtlWhereBuilt) {
  ASSERT_NE(findDevice("hls"), nullptr);
  // Most hardware-like first: sim (the RTL, where Verilator is installed),
  // hls, cpu. The default is sim where it exists, else cpu.
  const bool sim = findDevice("sim") != nullptr;
  EXPECT_EQ(allDevices().front()->name(), std::string_view(sim ? "sim" : "hls"));
  EXPECT_EQ(allDevices().back()->name(), "cpu");
  EXPECT_EQ(defaultDevice().name(), std::string_view(sim ? "sim" : "cpu"));
}

TEST(HlsDevice, CapabilitiesFollowTheCycleModel) {
  const DeviceCapabilities caps = hls().capabilities();
  // 2 cycles per counter-loop iteration at 300 MHz (6.67 ns) vs the CPU
  // executor's frames and its register code (fabric_performance.h).
  EXPECT_NEAR(caps.whilePerformance.execTime, (2.0 / 300e6) / (runtime::kCpuFrameWhileIterationNs * 1e-9), 1e-4);
  EXPECT_NEAR(caps.scalarWhilePerformance.execTime,
              (2.0 / 300e6) / (runtime::kCpuScalarWhileIterationNs * 1e-9), 1e-4);
  // The fabric's loop beats the frames but not the register code.
  EXPECT_GT(caps.scalarWhilePerformance.execTime, 1.0f);
  // BZ + JMP (6.67 ns) vs 33 ns per IF on the CPU.
  EXPECT_NEAR(caps.ifPerformance.execTime, (2.0 / 300e6) / 33e-9, 1e-4);
  // 8 source bytes per element through a 64-byte port: 0.417 ns vs 0.155 ns.
  EXPECT_NEAR(caps.tensorPerformance.execTime, (8.0 / 64 / 300e6) / 0.155e-9, 1e-3);
  EXPECT_LT(caps.whilePerformance.execTime, 1.0f);
  EXPECT_LT(caps.ifPerformance.execTime, 1.0f);
}

TEST(HlsDevice, ReportsSupportedOperationsWithReasons) {
  std::vector<std::string> why;
  // Without FLOAT32 in FEATURES, the FLOAT32 operation and the loop with a
  // FLOAT32 body are not supported, with the reason.
  EXPECT_EQ(baseIsaHls().getSupportedOperations(testing::mixedModel(), &why),
            (std::vector<bool>{true, true, false, true}));
  EXPECT_TRUE(why[0].empty());
  EXPECT_FALSE(why[2].empty());
  EXPECT_NE(why[2].find("FEATURES"), std::string::npos) << why[2];
  EXPECT_EQ(baseIsaHls().getSupportedOperations(testing::mixedLoop(), &why), std::vector<bool>{false});
  EXPECT_FALSE(why[0].empty());
  // The registered hls core executes FLOAT32 (FEATURES.FLOAT32): all of it.
  EXPECT_EQ(hls().getSupportedOperations(testing::mixedModel(), &why), (std::vector<bool>{true, true, true, true}));
  EXPECT_EQ(hls().getSupportedOperations(testing::mixedLoop(), &why), std::vector<bool>{true});

  EXPECT_EQ(hls().getSupportedOperations(testing::counterLoop(), &why), std::vector<bool>{true});
  EXPECT_EQ(hls().getSupportedOperations(testing::intIf(/*unknownOutput=*/true), &why),
            std::vector<bool>{false});
  EXPECT_NE(why[0].find("unknown size"), std::string::npos) << why[0];

  Model invalid = testing::mixedModel();
  invalid.main.operations[0].inputs.pop_back();  // ADD without its activation
  EXPECT_EQ(hls().getSupportedOperations(invalid, &why), (std::vector<bool>(4, false)));
  EXPECT_NE(why[0].find("invalid"), std::string::npos) << why[0];
}

TEST(HlsDevice, MatchesCpuOnTheExamples) {
  const fs::path examples = fs::path(NNFAB_SOURCE_ROOT) / "examples";
  size_t count = 0;
  for (const auto& entry : fs::directory_iterator(examples)) {
    const std::string name = entry.path().filename().string();
    if (name.find(".inputs.") != std::string::npos || entry.path().extension() != ".json") continue;
    const fs::path inputsPath = examples / (entry.path().stem().string() + ".inputs.json");
    auto model = parseModel(readText(entry.path()));
    ASSERT_TRUE(model.isOk()) << name;
    auto inputs = parseInputs(readText(inputsPath), *model);
    ASSERT_TRUE(inputs.isOk()) << name;
    ExecutionOptions options;
    // while_infinite ends by its loop timeout on both; the others get room
    // for a loaded machine (while_fib's 1,000 iterations on the hls model).
    options.loopTimeout = name.rfind("while_infinite", 0) == 0 ? 100ms : 10000ms;
    expectSameAsCpu(hls(), *model, *inputs, name, options);
    ++count;
  }
  EXPECT_GE(count, 3u);
}

TEST(HlsDevice, MatchesCpuOnBuilderModels) {
  using testing::bools;
  using testing::floats;
  struct Case {
    std::string name;
    Model model;
    std::vector<TensorValue> inputs;
  };
  const std::vector<Case> cases = {
      {"counter 0", testing::counterLoop(), {int32s({1}, {0})}},
      {"counter 1000", testing::counterLoop(), {int32s({1}, {1000})}},
      {"accumulator", testing::counterLoop(true), {int32s({1}, {300})}},
      {"nested loops", testing::nestedLoops(), {int32s({1}, {12})}},
      {"deep IF chain", testing::deepIfChain(40), {int32s({1}, {-7})}},
      {"deep WHILE chain", testing::deepWhileChain(40), {int32s({1}, {41})}},
      {"mixed", testing::mixedModel(), {int32s({3}, {1, -2, INT32_MAX}), floats({3}, {0.5f, -1, 3})}},
      {"mixed loop 0", testing::mixedLoop(), {int32s({1}, {0}), floats({2}, {1, -3})}},
      {"mixed loop 7", testing::mixedLoop(), {int32s({1}, {7}), floats({2}, {1.5f, -3})}},
      {"IF then", testing::intIf(), {bools({1}, {1}), int32s({2}, {INT32_MAX, 4})}},
      {"IF else", testing::intIf(), {bools({1}, {0}), int32s({2}, {INT32_MIN, 4})}},
      {"IF non-zero true", testing::intIf(), {bools({1}, {7}), int32s({2}, {1, 2})}},
      {"IF unknown size", testing::intIf(true), {bools({1}, {0}), int32s({2}, {9, 8})}},
      {"float loop", testing::floatLoop(), {floats({1}, {5}), floats({1}, {1})}},
      {"deep mixed 5", testing::deepMixedChain(5), {int32s({1}, {3}), floats({1}, {1.25f})}},
      // Deeper than the host may interpret: the levels below run on the CPU.
      {"deep mixed 80", testing::deepMixedChain(80), {int32s({1}, {3}), floats({1}, {1.25f})}},
  };
  for (const Case& c : cases) expectSameAsCpu(hls(), c.model, c.inputs, c.name);
}

TEST(HlsDevice, InterpretedWhileRunsItsIntegerPartOnTheFabric) {
  ObservedHls observed;
  const runtime::Plan plan = observed.device.partition(testing::mixedLoop());
  ASSERT_EQ(plan.main().steps.size(), 1u);
  ASSERT_EQ(plan.main().steps[0].kind, runtime::StepKind::WHILE);
  const std::vector<TensorValue> inputs = {int32s({1}, {6}), testing::floats({2}, {1, 2})};
  expectSameAsCpu(observed.device, testing::mixedLoop(), inputs, "mixed loop");
  // Seven conditions and six body ADDs ran on the core.
  EXPECT_GE(observed.slices(), 13u);
}

// A core without FLOAT32 weighs its hand-offs: a loop with a FLOAT32 part
// whose fabric steps would cost microseconds per pass against nanoseconds
// on the CPU runs whole on the CPU, with the same results.
TEST(HlsDevice, MixedLoopWhoseHandOffsAreNotWorthItRunsWholeOnTheCpu) {
  const runtime::Plan plan = baseIsaHls().partition(testing::mixedLoop());
  ASSERT_EQ(plan.main().steps.size(), 1u);
  ASSERT_EQ(plan.main().steps[0].kind, runtime::StepKind::CPU);
  EXPECT_EQ(plan.main().steps[0].codes[0], runtime::ReasonCode::NOT_WORTH_HANDOFFS);
  EXPECT_FALSE(plan.usesFabric());
  expectSameAsCpu(baseIsaHls(), testing::mixedLoop(), {int32s({1}, {6}), testing::floats({2}, {1, 2})}, "mixed loop");
  // The IF/WHILE rule of getSupportedOperations is unchanged: it reports
  // what the fabric can run, not what the plan chooses.
  EXPECT_FALSE(baseIsaHls().getSupportedOperations(testing::mixedLoop(), nullptr)[0]);
  EXPECT_TRUE(baseIsaHls().getSupportedOperations(testing::counterLoop(), nullptr)[0]);
}

// With FEATURES.FLOAT32 (the registered hls) the same loop runs whole on
// the fabric: one step, no hand-off per pass, the CPU's results bit for bit.
TEST(HlsDevice, Float32LoopRunsWholeOnTheFabric) {
  for (const Model& model : {testing::mixedLoop(), testing::floatLoop()}) {
    const runtime::Plan plan = hls().partition(model);
    ASSERT_EQ(plan.main().steps.size(), 1u);
    EXPECT_EQ(plan.main().steps[0].kind, runtime::StepKind::FABRIC);
  }
  expectSameAsCpu(hls(), testing::mixedLoop(), {int32s({1}, {6}), testing::floats({2}, {1, 2})}, "mixed loop");
}

TEST(HlsDevice, CompileFailureFallsBackToTheCpu) {
  // One step of 9,000 scalar ADDs needs more than MAX_PROGRAM_INSTRUCTIONS.
  const Model model = testing::longChain(isa::kMAX_PROGRAM_INSTRUCTIONS + 800);
  compiler::StepSpec spec;
  for (uint32_t i = 0; i < model.main.operations.size(); ++i) spec.operations.push_back(i);
  spec.inputs = model.main.inputIndexes;
  spec.outputs = model.main.outputIndexes;
  ASSERT_FALSE(compiler::compile(model, spec, {{1}}).isOk());

  ObservedHls observed;
  const ExecutionResult result = runOn(observed.device, model, {int32s({1}, {5})});
  ASSERT_TRUE(result.status.isOk()) << result.status.message();
  EXPECT_EQ(testing::values<int32_t>(result.outputs[0]),
            std::vector<int32_t>{5 + static_cast<int32_t>(isa::kMAX_PROGRAM_INSTRUCTIONS + 800)});
  EXPECT_EQ(observed.slices(), 0u);
}

TEST(FabricDevice, UnavailableBackendFallsBackToTheCpu) {
  const FabricDevice broken("broken", "no backend", 300.0, [] { return nullptr; });
  expectSameAsCpu(broken, testing::counterLoop(), {int32s({1}, {10})}, "counter");
  expectSameAsCpu(broken, testing::mixedLoop(), {int32s({1}, {3}), testing::floats({2}, {1, 2})},
                  "mixed loop");
  expectSameAsCpu(broken, testing::mixedModel(),
                  {int32s({3}, {1, 2, 3}), testing::floats({3}, {1, 2, 3})}, "mixed");
}

// FEATURES from the device's own backend: the first partition (and so
// the first preparation) makes the one backend the executions then use; an
// execution makes none, and no second backend is made for the register.
TEST(FabricDevice, FeaturesFromTheBackendMakeItAtTheFirstPartitionAndOnlyOnce) {
  std::atomic<int> made{0};
  const FabricDevice device(
      "counted", "hls, backends counted", isa::kNOMINAL_CLOCK_MHZ,
      [&made] {
        ++made;
        return std::make_unique<backends::HlsBackend>();
      },
      runtime::EngineOptions{}, runtime::handoffCosts(runtime::kHlsFabricStepNs),
      FabricDevice::FeaturesFromBackend{});
  EXPECT_EQ(made.load(), 0) << "making the device makes no backend";
  const Model model = testing::counterLoop();
  const runtime::Plan plan = device.partition(model);
  EXPECT_EQ(made.load(), 1) << "the first partition reads FEATURES from the device's backend";
  EXPECT_EQ(device.features(), backends::HlsBackend().readRegister(isa::kRegFEATURES));
  ASSERT_FALSE(plan.main().steps.empty());
  EXPECT_EQ(plan.main().steps[0].kind, runtime::StepKind::FABRIC);
  expectSameAsCpu(device, model, {int32s({1}, {10})}, "counter");
  expectSameAsCpu(device, model, {int32s({1}, {0})}, "counter, no iteration");
  EXPECT_EQ(made.load(), 1) << "executions use the backend the partition made";
}

TEST(HlsDevice, LoopTimeoutEndsAnInfiniteFabricLoop) {
  const Model model = testing::infiniteLoop();
  ASSERT_EQ(hls().partition(model).main().steps[0].kind, runtime::StepKind::FABRIC);
  ExecutionOptions options;
  options.loopTimeout = 50ms;
  const auto start = std::chrono::steady_clock::now();
  const ExecutionResult result = runOn(hls(), model, {int32s({1}, {1})}, options);
  const auto elapsed = std::chrono::steady_clock::now() - start;
  EXPECT_EQ(result.status.code(), ErrorStatus::MISSED_DEADLINE_TRANSIENT) << result.status.message();
  EXPECT_LT(elapsed, 5s);
}

TEST(HlsDevice, LoopTimeoutEndsAnInfiniteInterpretedLoop) {
  const Model model = testing::infiniteMixedLoop();
  // A device without hand-off costs interprets it (the registered hls runs
  // it whole on the CPU: its hand-offs are not worth it).
  ObservedHls observed;
  ASSERT_EQ(observed.device.partition(model).main().steps[0].kind, runtime::StepKind::WHILE);
  ExecutionOptions options;
  options.loopTimeout = 50ms;
  const auto start = std::chrono::steady_clock::now();
  const ExecutionResult result =
      runOn(observed.device, model, {int32s({1}, {1}), testing::floats({2}, {1, 2})}, options);
  const auto elapsed = std::chrono::steady_clock::now() - start;
  EXPECT_EQ(result.status.code(), ErrorStatus::MISSED_DEADLINE_TRANSIENT) << result.status.message();
  EXPECT_GE(elapsed, 50ms);
  EXPECT_LT(elapsed, 5s);
}

TEST(HlsDevice, DeadlinePassedBeforeTheStartIsPersistent) {
  for (const Model& model : {testing::counterLoop(), testing::mixedLoop(), testing::floatLoop()}) {
    auto prepared = hls().prepare(model, {});
    ASSERT_TRUE(prepared.isOk());
    ExecutionOptions options;
    options.deadline = Clock::now() - 1ms;
    std::vector<TensorValue> inputs;
    for (uint32_t k : model.main.inputIndexes) {
      const Operand& operand = model.main.operands[k];
      inputs.push_back(operand.type == OperandType::TENSOR_INT32
                           ? int32s(operand.dimensions, std::vector<int32_t>(operand.dimensions[0], 1))
                           : testing::floats(operand.dimensions, std::vector<float>(operand.dimensions[0], 1)));
    }
    EXPECT_EQ(prepared.value()->execute(inputs, options).status.code(),
              ErrorStatus::MISSED_DEADLINE_PERSISTENT);
  }
  PrepareOptions late;
  late.deadline = Clock::now() - 1ms;
  EXPECT_EQ(hls().prepare(testing::counterLoop(), late).status().code(),
            ErrorStatus::MISSED_DEADLINE_PERSISTENT);
}

TEST(HlsDevice, DeadlineDuringAFabricLoopIsTransient) {
  ExecutionOptions options;
  options.loopTimeout = 10s;
  options.deadline = Clock::now() + 100ms;
  const auto start = std::chrono::steady_clock::now();
  const ExecutionResult result = runOn(hls(), testing::infiniteLoop(), {int32s({1}, {1})}, options);
  EXPECT_EQ(result.status.code(), ErrorStatus::MISSED_DEADLINE_TRANSIENT) << result.status.message();
  EXPECT_LT(std::chrono::steady_clock::now() - start, 5s);
}

Model bigAdd(Dimensions declared) {
  testing::SubgraphBuilder main;
  const uint32_t a = main.input(OperandType::TENSOR_INT32, declared);
  const uint32_t none = main.scalar(0);
  const uint32_t out = main.output(OperandType::TENSOR_INT32, declared);
  main.op(OperationType::ADD, {a, a, none}, {out});
  Model model;
  model.main = main.build();
  return model;
}

// As NNAPI falls back to the CPU when a device cannot prepare a model, a step
// that can never fit the device memory runs on the CPU: with shapes known at
// preparation and with shapes known only at execution.
TEST(HlsDevice, AStepLargerThanTheDeviceMemoryRunsOnTheCpu) {
  backends::HlsBackendOptions small;
  small.memoryBytes = 1 << 20;
  ObservedHls observed(small);
  const uint32_t n = 1 << 18;  // 1 MiB per tensor: input and output cannot both fit
  std::vector<int32_t> values(n, 3);
  for (const Dimensions& declared : {Dimensions{n}, Dimensions{0}}) {
    ASSERT_TRUE(observed.device.prepare(bigAdd(declared), {}).isOk());
    const ExecutionResult result = runOn(observed.device, bigAdd(declared), {int32s({n}, values)});
    ASSERT_TRUE(result.status.isOk()) << result.status.message();
    EXPECT_EQ(testing::values<int32_t>(result.outputs[0]), std::vector<int32_t>(n, 6));
  }
  EXPECT_EQ(observed.slices(), 0u);  // the core never ran
}

TEST(HlsDevice, OmittedInputFailsAsOnTheCpu) {
  expectSameAsCpu(hls(), testing::mixedModel(), {testing::omitted(), testing::floats({3}, {1, 2, 3})},
                  "omitted int input");
  expectSameAsCpu(hls(), testing::mixedLoop(), {testing::omitted(), testing::floats({2}, {1, 2})},
                  "omitted loop bound");
}

TEST(HlsDevice, InvalidInputsAreRejectedAsOnTheCpu) {
  expectSameAsCpu(hls(), testing::counterLoop(), {int32s({2}, {1, 2})}, "wrong shape");
  expectSameAsCpu(hls(), testing::counterLoop(), {}, "missing input");
}

TEST(HlsDevice, ConcurrentExecutionsGiveTheCpuResults) {
  const Model model = testing::mixedLoop();
  auto prepared = hls().prepare(model, {});
  ASSERT_TRUE(prepared.isOk());
  std::vector<std::thread> threads;
  std::atomic<int> mismatches{0};
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&, t] {
      for (int n = 0; n < 8; ++n) {
        const std::vector<TensorValue> inputs = {int32s({1}, {n + t}), testing::floats({2}, {1, -1})};
        const ExecutionResult got = prepared.value()->execute(inputs, {});
        const ExecutionResult want = runOn(cpuDevice(), model, inputs);
        if (!got.status.isOk() || got.outputs[0].data != want.outputs[0].data ||
            got.outputs[1].data != want.outputs[1].data) {
          ++mismatches;
        }
      }
    });
  }
  for (auto& thread : threads) thread.join();
  EXPECT_EQ(mismatches.load(), 0);
}

TEST(HlsDevice, MatchesCpuOnRandomMixedModels) {
  for (uint64_t seed = 0; seed < 60; ++seed) {
    testing::RandomModelOptions options;
    options.float32 = seed % 2 == 1;
    const Model model = testing::randomModel(seed, options);
    testing::RandomSource source(seed * 7919 + 1);
    expectSameAsCpu(hls(), model, testing::randomInputs(model, source), "seed " + std::to_string(seed));
  }
}

TEST(HlsDevice, RunModelPathWorks) {
  RunOptions options;
  options.device = &hls();
  const ExecutionResult result = runModel(testing::counterLoop(true), {int32s({1}, {100})}, options);
  ASSERT_TRUE(result.status.isOk()) << result.status.message();
  EXPECT_EQ(testing::values<int32_t>(result.outputs[0]), std::vector<int32_t>{100});
  EXPECT_EQ(testing::values<int32_t>(result.outputs[1]), std::vector<int32_t>{4950});
}

}  // namespace
}  // namespace nnfab
