// Random models on every device, bit-exact against the cpu device; cpu
// against the oracle and against itself after a JSON round trip. Seeds are
// split into chunks so that CTest runs (and times) them separately; every
// failure names its seed, reproducible with
//   nnfab_diff_long_run --seed S --count 1 --verbose
#include <gtest/gtest.h>

#include <cstdio>
#include <string>
#include <thread>
#include <vector>

#include "differential/differential.h"
#ifdef NNFAB_DIFF_HAS_HLS
#include "backends/hls_backend.h"
#include "nnfab_isa.h"
#include "runtime/fabric_device.h"
#endif
#include "runtime/cpu_device.h"
#include "runtime/device.h"
#include "api/run_model.h"

namespace nnfab {
namespace {

constexpr uint64_t kChunkSize = 25;
constexpr uint64_t kChunks = 16;  // seeds 0 .. 399

class RandomModels : public ::testing::TestWithParam<uint64_t> {};

TEST_P(RandomModels, AgreeOnEveryDevice) {
  const uint64_t first = GetParam() * kChunkSize;
  for (uint64_t seed = first; seed < first + kChunkSize; ++seed) {
    const differential::Case c = differential::makeCase(seed);
    const differential::CaseReport report = differential::checkCase(c, allDevices());
    // The generator's models are meant to run: a failure on cpu is either a
    // generator or a cpu bug, never an expected outcome.
    EXPECT_TRUE(report.reference.status.isOk())
        << "seed " << seed << ": cpu " << differential::describe(report.reference);
    for (const std::string& mismatch : report.mismatches) ADD_FAILURE() << mismatch;
  }
}

INSTANTIATE_TEST_SUITE_P(Seeds, RandomModels, ::testing::Range<uint64_t>(0, kChunks),
                         [](const ::testing::TestParamInfo<uint64_t>& info) {
                           const uint64_t first = info.param * kChunkSize;
                           return "seeds_" + std::to_string(first) + "_" +
                                  std::to_string(first + kChunkSize - 1);
                         });

// The registered fabric devices weigh hand-offs, so control flow with a
// FLOAT32 part now runs whole on their CPU executor (docs/runtime.md
// "Hand-off cost"). The host interpreter must stay bit-exact all the same:
// an hls device without hand-off costs interprets every such IF/WHILE, and
// the float seeds must agree with cpu on it, some of them interpreted.
#ifdef NNFAB_DIFF_HAS_HLS
TEST(RandomModels, AgreeOnAnHlsDeviceThatInterpretsEveryMixedIfAndWhile) {
  const FabricDevice interpreting("hls-interpreting", "hls without hand-off costs", isa::kNOMINAL_CLOCK_MHZ,
                                  [] { return std::make_unique<backends::HlsBackend>(); });
  uint64_t interpreted = 0;
  for (uint64_t seed = 3; seed < 400; seed += 4) {  // makeCase mixes FLOAT32 in for seed % 4 == 3
    const differential::Case c = differential::makeCase(seed);
    const runtime::Plan plan = interpreting.partition(c.model);
    for (const auto& step : plan.main().steps) {
      interpreted += step.kind == runtime::StepKind::IF || step.kind == runtime::StepKind::WHILE;
    }
    const differential::CaseReport report = differential::checkCase(c, {findDevice("cpu"), &interpreting});
    for (const std::string& mismatch : report.mismatches) ADD_FAILURE() << mismatch;
  }
  EXPECT_GT(interpreted, 0u) << "no seed exercised the host interpreter";
}
#endif

// The float seeds (FLOAT32 edge values, DIV, fused activations,
// FULLY_CONNECTED) reach the fabric of every device whose FEATURES say
// FLOAT32 and FC (hls, and sim since the RTL core's FP units are wired):
// AgreeOnEveryDevice then compares them bit for bit with cpu.
// `wideRows` counts the operations FLOAT32 wide mode takes (docs/isa.md,
// tensor_float_wide: ADD, SUB, MUL, MAXIMUM, MINIMUM, ABS, NEG on 4-byte
// elements, innermost strides 1 or 0, which every NNAPI broadcast is) with
// output rows longer than the engine's 8 FP lanes, so that a row takes
// several groups and lanes 1-7 compute on values the cpu checks.
bool takesFloatWideGroups(const Subgraph& sg, const Operation& operation) {
  switch (operation.type) {
    case OperationType::ADD: case OperationType::SUB: case OperationType::MUL:
    case OperationType::MAXIMUM: case OperationType::MINIMUM: case OperationType::ABS: case OperationType::NEG:
      break;
    default:
      return false;
  }
  const Operand& out = sg.operands[operation.outputs[0]];
  return out.type == OperandType::TENSOR_FLOAT32 && !out.dimensions.empty() && out.dimensions.back() > 8;
}

uint64_t float32OperationsOnFabric(const Device& device, const Model& model, uint64_t* fullyConnected,
                                   uint64_t* wideRows) {
  const runtime::Plan plan = device.partition(model);
  uint64_t n = 0;
  for (uint32_t s = 0; s < plan.subgraphs.size(); ++s) {
    const Subgraph& sg = model.subgraph(s);
    for (const runtime::Step& step : plan.subgraphs[s].steps) {
      if (step.kind != runtime::StepKind::FABRIC) continue;
      for (uint32_t op : step.operations) {
        const Operation& operation = sg.operations[op];
        if (operation.outputs.empty()) continue;
        bool float32 = sg.operands[operation.outputs[0]].type == OperandType::TENSOR_FLOAT32;
        for (uint32_t k : operation.inputs) float32 |= sg.operands[k].type == OperandType::TENSOR_FLOAT32;
        n += float32;
        *fullyConnected += operation.type == OperationType::FULLY_CONNECTED;
        *wideRows += takesFloatWideGroups(sg, operation);
      }
    }
  }
  return n;
}

TEST(RandomModels, Float32SeedsRunOnTheFabricWhereFeaturesSayFloat32) {
  const Device* hls = findDevice("hls");
  if (hls == nullptr) GTEST_SKIP() << "no hls device";
  const Device* sim = findDevice("sim");
  uint64_t onHls = 0, fcOnHls = 0, wideOnHls = 0, onSim = 0, fcOnSim = 0, wideOnSim = 0;
  for (uint64_t seed = 3; seed < 400; seed += 4) {
    const differential::Case c = differential::makeCase(seed);
    onHls += float32OperationsOnFabric(*hls, c.model, &fcOnHls, &wideOnHls);
    if (sim != nullptr) onSim += float32OperationsOnFabric(*sim, c.model, &fcOnSim, &wideOnSim);
  }
  EXPECT_GT(onHls, 50u);
  EXPECT_GT(fcOnHls, 5u);
  EXPECT_GE(wideOnHls, 5u) << "the float seeds must give FLOAT32 wide mode rows of several groups";
  if (sim != nullptr) {
    EXPECT_GT(onSim, 50u) << "sim's FEATURES say FLOAT32: its FLOAT32 operations belong on the fabric";
    EXPECT_GT(fcOnSim, 5u) << "sim's FEATURES say FC";
    EXPECT_GE(wideOnSim, 5u) << "the float seeds must give FLOAT32 wide mode rows of several groups on sim";
  }
  std::printf("FLOAT32 operations on the fabric: hls %llu (wide rows %llu), sim %llu (wide rows %llu)\n",
              static_cast<unsigned long long>(onHls), static_cast<unsigned long long>(wideOnHls),
              static_cast<unsigned long long>(onSim), static_cast<unsigned long long>(wideOnSim));
}

// Executions from several threads at once, of different models and of one
// prepared model, must give the single-threaded cpu results.
TEST(RandomModels, ConcurrentExecutionsAgreeWithCpu) {
  constexpr uint64_t kFirst = 5000, kCount = 24;
  constexpr size_t kThreads = 4;
  std::vector<differential::Case> cases;
  std::vector<ExecutionResult> expected;
  for (uint64_t seed = kFirst; seed < kFirst + kCount; ++seed) {
    cases.push_back(differential::makeCase(seed));
    RunOptions options;
    options.device = findDevice("cpu");
    expected.push_back(runModel(cases.back().model, cases.back().inputs, options));
  }
  for (const Device* device : allDevices()) {
    // Different models on different threads.
    std::vector<std::vector<std::string>> failures(kThreads);
    std::vector<std::thread> threads;
    for (size_t t = 0; t < kThreads; ++t) {
      threads.emplace_back([&, t] {
        for (size_t i = t; i < cases.size(); i += kThreads) {
          RunOptions options;
          options.device = device;
          const ExecutionResult r = runModel(cases[i].model, cases[i].inputs, options);
          if (std::string d = differential::compareResults(expected[i], r); !d.empty()) {
            failures[t].push_back("seed " + std::to_string(cases[i].seed) + ": " + d);
          }
        }
      });
    }
    for (std::thread& thread : threads) thread.join();
    // One prepared model executed by every thread at once.
    for (size_t i = 0; i < 6; ++i) {
      auto prepared = device->prepare(cases[i].model, PrepareOptions{});
      ASSERT_TRUE(prepared.isOk()) << "seed " << cases[i].seed << ": " << prepared.status().message();
      threads.clear();
      for (size_t t = 0; t < kThreads; ++t) {
        threads.emplace_back([&, t] {
          for (int k = 0; k < 3; ++k) {
            const ExecutionResult r = prepared.value()->execute(cases[i].inputs, ExecutionOptions{});
            if (std::string d = differential::compareResults(expected[i], r); !d.empty()) {
              failures[t].push_back("seed " + std::to_string(cases[i].seed) + " (shared prepared model): " + d);
            }
          }
        });
      }
      for (std::thread& thread : threads) thread.join();
    }
    for (const auto& list : failures) {
      for (const std::string& f : list) ADD_FAILURE() << device->name() << ", " << f;
    }
  }
}

// The comparison itself must notice each kind of difference.
TEST(CompareResults, NoticesStatusTypeShapeAndByteDifferences) {
  ExecutionResult a;
  TensorValue v;
  v.type = OperandType::TENSOR_INT32;
  v.dimensions = {2};
  v.data = {1, 0, 0, 0, 2, 0, 0, 0};
  a.outputs = {v};
  EXPECT_EQ(differential::compareResults(a, a), "");

  ExecutionResult b = a;
  b.outputs[0].data[4] = 3;
  EXPECT_NE(differential::compareResults(a, b).find("element 1 is 3, expected 2"), std::string::npos)
      << differential::compareResults(a, b);
  b = a;
  b.outputs[0].dimensions = {2, 1};
  EXPECT_NE(differential::compareResults(a, b), "");
  b = a;
  b.outputs[0].type = OperandType::TENSOR_FLOAT32;
  EXPECT_NE(differential::compareResults(a, b), "");
  b = a;
  b.outputs.push_back(v);
  EXPECT_NE(differential::compareResults(a, b), "");
  b = ExecutionResult{};
  b.status = generalFailure("x");
  EXPECT_NE(differential::compareResults(a, b), "");
  // Two failures with the same code agree whatever their messages.
  ExecutionResult c;
  c.status = generalFailure("y");
  EXPECT_EQ(differential::compareResults(b, c), "");
}

// The cpu device with one flipped bit in its last output byte: the harness
// must report it for every seed, naming seed and device.
class FaultyDevice final : public Device {
 public:
  std::string_view name() const override { return "faulty"; }
  std::string_view description() const override { return "cpu with a flipped output bit"; }
  DeviceCapabilities capabilities() const override { return cpuDevice().capabilities(); }
  std::vector<bool> getSupportedOperations(const Model& model,
                                           std::vector<std::string>* why) const override {
    return cpuDevice().getSupportedOperations(model, why);
  }
  Result<std::unique_ptr<PreparedModel>> prepare(const Model& model,
                                                 const PrepareOptions& options) const override {
    auto inner = cpuDevice().prepare(model, options);
    if (!inner.isOk()) return std::move(inner).takeStatus();
    return std::unique_ptr<PreparedModel>(new Prepared(std::move(inner).value()));
  }

 private:
  class Prepared final : public PreparedModel {
   public:
    explicit Prepared(std::unique_ptr<PreparedModel> inner) : inner_(std::move(inner)) {}
    ExecutionResult execute(const std::vector<TensorValue>& inputs,
                            const ExecutionOptions& options) const override {
      ExecutionResult r = inner_->execute(inputs, options);
      if (r.status.isOk() && !r.outputs.empty() && !r.outputs.back().data.empty()) {
        r.outputs.back().data.back() ^= 1;
      }
      return r;
    }

   private:
    std::unique_ptr<PreparedModel> inner_;
  };
};

TEST(Harness, ReportsADeviceThatDiffersWithSeedAndDeviceName) {
  const FaultyDevice faulty;
  for (uint64_t seed = 1000; seed < 1010; ++seed) {
    const differential::Case c = differential::makeCase(seed);
    const differential::CaseReport report =
        differential::checkCase(c, {findDevice("cpu"), &faulty});
    // The first run, and the first re-execution of the prepared model.
    ASSERT_EQ(report.mismatches.size(), 2u) << "seed " << seed;
    const std::string prefix = "seed " + std::to_string(seed) + ": faulty ";
    EXPECT_EQ(report.mismatches[0].rfind(prefix + "vs cpu: output", 0), 0u) << report.mismatches[0];
    EXPECT_EQ(report.mismatches[1].rfind(prefix + "(prepared once, execution 2, other inputs) vs cpu", 0), 0u)
        << report.mismatches[1];
    EXPECT_EQ(report.devicesRun, (std::vector<std::string>{"cpu", "faulty"}));
  }
}

}  // namespace
}  // namespace nnfab
