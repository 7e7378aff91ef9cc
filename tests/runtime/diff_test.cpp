// Observed execution (PrepareOptions::observed, ExecutionOptions::observer)
// and the first-divergence diff between devices (runtime/divergence.h).
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <cmath>
#include <cstring>
#include <functional>
#include <limits>
#include <memory>
#include <string>
#include <vector>

#include "model/execution_observer.h"
#include "models/loop_models.h"
#include "runtime/cpu_device.h"
#include "runtime/device.h"
#include "runtime/diff_models.h"
#include "runtime/divergence.h"
#include "runtime/partition.h"
#include "runtime/runtime_models.h"
#include "support/model_builder.h"
#ifdef NNFAB_TEST_HAS_SIM
#include "nnfab_isa.h"
#include "support/sim_alu_fault.h"
#endif

namespace nnfab {
namespace {

using testing::int32s;

struct Recorder final : ExecutionObserver {
  struct Seen {
    uint32_t subgraph;
    uint32_t operation;
    std::string ranOn;
    std::vector<ControlPathEntry> path;
    std::vector<ObservedOutput> outputs;
  };
  void observe(const Observation& o) override {
    ASSERT_EQ(o.operations.size(), 1u) << "an observed plan runs one operation per step";
    seen.push_back({o.subgraph, o.operations[0], std::string(o.ranOn), o.path, o.outputs});
  }
  std::vector<Seen> seen;
};

std::vector<Recorder::Seen> observe(const Device& device, const Model& model, const std::vector<TensorValue>& inputs) {
  PrepareOptions prepare;
  prepare.observed = true;
  auto prepared = device.prepare(model, prepare);
  EXPECT_TRUE(prepared.isOk()) << prepared.status().message();
  if (!prepared.isOk()) return {};
  Recorder recorder;
  ExecutionOptions options;
  options.observer = &recorder;
  const ExecutionResult result = prepared.value()->execute(inputs, options);
  EXPECT_TRUE(result.status.isOk()) << result.status.message();
  return recorder.seen;
}

std::vector<TensorValue> countdownInputs(int32_t n) {
  return {int32s({1}, {n}), int32s({4}, {0, 0, 0, 0}), int32s({4}, {1, 2, 3, 4})};
}

int32_t int32At(const ObservedOutput& out, size_t i) {
  int32_t v;
  std::memcpy(&v, out.bytes->data() + 4 * i, 4);
  return v;
}

// Every operation inside every iteration, in execution order, with the
// iteration and part that ran it; the WHILE itself last, with its outputs.
void expectCountdownObservations(const std::vector<Recorder::Seen>& seen, const std::string& fabricOrCpu) {
  ASSERT_EQ(seen.size(), 11u);  // 3 x (cond, SUB, ADD) + the false cond + the WHILE
  for (uint64_t it = 0; it <= 3; ++it) {
    const Recorder::Seen& cond = seen[3 * it];
    EXPECT_EQ(cond.subgraph, 1u);
    EXPECT_EQ(cond.operation, 0u);
    ASSERT_EQ(cond.path.size(), 1u);
    EXPECT_EQ(cond.path[0].type, OperationType::WHILE);
    EXPECT_EQ(cond.path[0].part, ControlPathEntry::Part::COND);
    EXPECT_EQ(cond.path[0].iteration, it);
    EXPECT_EQ(cond.ranOn, fabricOrCpu);
    if (it == 3) break;
    const Recorder::Seen& add = seen[3 * it + 2];
    EXPECT_EQ(add.subgraph, 2u);
    EXPECT_EQ(add.operation, 1u);
    ASSERT_EQ(add.path.size(), 1u);
    EXPECT_EQ(add.path[0].part, ControlPathEntry::Part::BODY);
    EXPECT_EQ(add.path[0].iteration, it);
    EXPECT_EQ(add.path[0].child, 2u);
    ASSERT_EQ(add.outputs.size(), 1u);
    EXPECT_EQ(int32At(add.outputs[0], 3), static_cast<int32_t>(4 * (it + 1)));
  }
  const Recorder::Seen& loop = seen.back();
  EXPECT_EQ(loop.subgraph, 0u);
  EXPECT_EQ(loop.operation, 0u);
  EXPECT_EQ(loop.ranOn, "host");
  EXPECT_TRUE(loop.path.empty());
  ASSERT_EQ(loop.outputs.size(), 2u);
  EXPECT_EQ(int32At(loop.outputs[1], 2), 9);
}

TEST(ObservedPlan, OneStepPerOperationAndControlFlowInterpreted) {
  // The default plan of the cpu-only target keeps the loop whole on the CPU;
  // the observed one interprets it and splits every operation.
  runtime::FabricTarget none;
  none.name = "none";
  none.supports = [](const Model&, uint32_t, uint32_t, std::string*) { return false; };
  const Model model = testing::countdownAccumulate();
  const runtime::Plan normal = runtime::partition(model, none);
  ASSERT_EQ(normal.main().steps.size(), 1u);
  EXPECT_EQ(normal.main().steps[0].kind, runtime::StepKind::CPU);
  const runtime::Plan observed = runtime::partitionObserved(model, none);
  ASSERT_EQ(observed.main().steps.size(), 1u);
  EXPECT_EQ(observed.main().steps[0].kind, runtime::StepKind::WHILE);
  EXPECT_EQ(observed.main().steps[0].codes[0], runtime::ReasonCode::OBSERVED);
  ASSERT_TRUE(observed.subgraphs[2].planned);
  ASSERT_EQ(observed.subgraphs[2].steps.size(), 2u);
  for (const runtime::Step& step : observed.subgraphs[2].steps) EXPECT_EQ(step.operations.size(), 1u);
}

TEST(ObservedExecution, CpuReportsEveryOperationOfEveryIteration) {
  expectCountdownObservations(observe(cpuDevice(), testing::countdownAccumulate(), countdownInputs(3)), "cpu");
}

TEST(ObservedExecution, NoObserverNoReports) {
  // An observed preparation runs like any other without an observer.
  PrepareOptions prepare;
  prepare.observed = true;
  auto prepared = cpuDevice().prepare(testing::countdownAccumulate(), prepare);
  ASSERT_TRUE(prepared.isOk());
  const ExecutionResult result = prepared.value()->execute(countdownInputs(3), {});
  ASSERT_TRUE(result.status.isOk()) << result.status.message();
  EXPECT_EQ(testing::values<int32_t>(result.outputs[1]), (std::vector<int32_t>{3, 6, 9, 12}));
}

TEST(ObservedExecution, IfBranchIsOnThePath) {
  for (uint8_t c : {1, 0}) {
    const auto seen = observe(cpuDevice(), testing::intIf(), {testing::bools({1}, {c}), int32s({2}, {5, 6})});
    ASSERT_EQ(seen.size(), 2u);
    EXPECT_EQ(seen[0].subgraph, c ? 1u : 2u);
    ASSERT_EQ(seen[0].path.size(), 1u);
    EXPECT_EQ(seen[0].path[0].type, OperationType::IF);
    EXPECT_EQ(seen[0].path[0].part, c ? ControlPathEntry::Part::THEN : ControlPathEntry::Part::ELSE);
    EXPECT_EQ(int32At(seen[0].outputs[0], 0), c ? 6 : 4);
    EXPECT_EQ(seen[1].ranOn, "host");  // the IF itself, done
  }
}

// Nested loops: an operation of the inner body carries both iterations.
// nestedLoops: the outer body (subgraph 2) runs an inner WHILE (its
// operation 0) over j < i, whose body is subgraph 4.
void expectNestedPaths(const std::vector<Recorder::Seen>& seen, const std::string& ranOn) {
  size_t innerBody = 0;
  for (const Recorder::Seen& s : seen) {
    if (s.subgraph != 4) continue;
    ++innerBody;
    EXPECT_EQ(s.ranOn, ranOn);
    ASSERT_EQ(s.path.size(), 2u);
    EXPECT_EQ(s.path[0].subgraph, 0u);
    EXPECT_EQ(s.path[0].part, ControlPathEntry::Part::BODY);
    EXPECT_EQ(s.path[0].child, 2u);
    EXPECT_EQ(s.path[1].subgraph, 2u);
    EXPECT_EQ(s.path[1].operation, 0u);
    EXPECT_EQ(s.path[1].part, ControlPathEntry::Part::BODY);
    EXPECT_EQ(s.path[1].child, 4u);
    EXPECT_LT(s.path[1].iteration, s.path[0].iteration);  // j < i
  }
  EXPECT_EQ(innerBody, 2u * (0 + 1 + 2 + 3));  // two ADDs per inner iteration, n = 4
}

TEST(ObservedExecution, NestedLoopsCarryBothIterations) {
  expectNestedPaths(observe(cpuDevice(), models::nestedLoops(), {int32s({1}, {4})}), "cpu");
}

TEST(ObservedExecution, InvalidInputsFailAsOnTheCpu) {
  PrepareOptions prepare;
  prepare.observed = true;
  auto prepared = cpuDevice().prepare(testing::countdownAccumulate(), prepare);
  ASSERT_TRUE(prepared.isOk());
  const ExecutionResult result = prepared.value()->execute({int32s({1}, {3})}, {});
  EXPECT_EQ(result.status.code(), ErrorStatus::INVALID_ARGUMENT);
}

TEST(Diff, EqualDevicesAgree) {
  auto report = runtime::diffDevices(testing::countdownAccumulate(), countdownInputs(3), cpuDevice(), cpuDevice());
  ASSERT_TRUE(report.isOk()) << report.status().message();
  EXPECT_TRUE(report.value().agree());
  EXPECT_EQ(report.value().operationsCompared, 11u);
  ASSERT_TRUE(report.value().a.status.has_value());
  EXPECT_TRUE(report.value().a.status->isOk());
  EXPECT_NE(runtime::formatDiff(report.value()).find("cpu and cpu agree: 11 operations"), std::string::npos);
  const auto json = nlohmann::json::parse(runtime::formatDiffJson(report.value()));
  EXPECT_EQ(json["agree"], true);
  EXPECT_TRUE(json["divergence"].is_null());
  EXPECT_EQ(json["operationsCompared"], 11);
  EXPECT_EQ(json["a"]["device"], "cpu");
  EXPECT_EQ(json["a"]["status"], "NO_ERROR");
}

TEST(Diff, SameFailureOnBothSidesAgrees) {
  // A zero loop timeout fails on both sides alike: they agree on the status.
  runtime::DiffOptions options;
  options.loopTimeout = std::chrono::nanoseconds(0);
  auto report = runtime::diffDevices(testing::countdownAccumulate(), countdownInputs(3), cpuDevice(), cpuDevice(),
                                     options);
  ASSERT_TRUE(report.isOk());
  EXPECT_TRUE(report.value().agree());
  ASSERT_TRUE(report.value().a.status.has_value());
  EXPECT_EQ(report.value().a.status->code(), ErrorStatus::MISSED_DEADLINE_TRANSIENT);
}

TEST(Diff, PreparationFailureIsAnError) {
  Model broken = testing::countdownAccumulate();
  broken.main.operations[0].inputs.pop_back();  // WHILE with a missing input
  auto report = runtime::diffDevices(broken, countdownInputs(3), cpuDevice(), cpuDevice());
  EXPECT_FALSE(report.isOk());
}

TEST(Diff, ElementText) {
  auto bytes = [](auto v) {
    std::vector<uint8_t> b(sizeof v);
    std::memcpy(b.data(), &v, sizeof v);
    return b;
  };
  EXPECT_EQ(runtime::elementText(OperandType::TENSOR_INT32, bytes(int32_t{-7})), "-7");
  EXPECT_EQ(runtime::elementText(OperandType::TENSOR_FLOAT32, bytes(1.5f)), "1.5");
  EXPECT_EQ(runtime::elementText(OperandType::TENSOR_FLOAT32, bytes(std::numeric_limits<float>::quiet_NaN())), "NaN");
  EXPECT_EQ(runtime::elementText(OperandType::TENSOR_BOOL8, bytes(uint8_t{1})), "1");
}

// The cpu device, observed, with a distortion applied to what its observer
// is told: how the tests reach every kind of divergence without a faulty
// device. `distort` may change the observation; returning false swallows it
// and every later one, and the run then ends with GENERAL_FAILURE.
class DistortedCpu final : public Device {
 public:
  using Distort = std::function<bool(uint64_t index, Observation& seen)>;
  explicit DistortedCpu(Distort distort, ErrorStatus cutStatus = ErrorStatus::GENERAL_FAILURE)
      : distort_(std::move(distort)), cutStatus_(cutStatus) {}
  std::string_view name() const override { return "distorted"; }
  std::string_view description() const override { return "the cpu device with a distorting observer"; }
  DeviceCapabilities capabilities() const override { return {}; }
  std::vector<bool> getSupportedOperations(const Model& model, std::vector<std::string>* why) const override {
    return cpuDevice().getSupportedOperations(model, why);
  }
  Result<std::unique_ptr<PreparedModel>> prepare(const Model& model, const PrepareOptions& options) const override {
    auto inner = cpuDevice().prepare(model, options);
    if (!inner.isOk()) return inner;
    return std::unique_ptr<PreparedModel>(std::make_unique<Prepared>(std::move(inner).value(), distort_, cutStatus_));
  }

 private:
  struct Relay final : ExecutionObserver {
    Relay(ExecutionObserver* to, const Distort& distort) : to(to), distort(distort) {}
    void observe(const Observation& o) override {
      if (cut) return;
      Observation copy = o;
      if (!distort(count++, copy)) {
        cut = true;
        return;
      }
      to->observe(copy);
    }
    ExecutionObserver* to;
    const Distort& distort;
    uint64_t count = 0;
    bool cut = false;
  };
  struct Prepared final : PreparedModel {
    Prepared(std::unique_ptr<PreparedModel> inner, Distort distort, ErrorStatus cutStatus)
        : inner(std::move(inner)), distort(std::move(distort)), cutStatus(cutStatus) {}
    ExecutionResult execute(const std::vector<TensorValue>& inputs, const ExecutionOptions& options) const override {
      Relay relay(options.observer, distort);
      ExecutionOptions mine = options;
      mine.observer = &relay;
      ExecutionResult result = inner->execute(inputs, mine);
      if (relay.cut) {
        result = ExecutionResult{};
        result.status = Status(cutStatus, "distorted: stopped reporting");
      }
      return result;
    }
    std::unique_ptr<PreparedModel> inner;
    Distort distort;
    ErrorStatus cutStatus;
  };
  Distort distort_;
  ErrorStatus cutStatus_;
};

runtime::DiffReport diffWithDistorted(DistortedCpu::Distort distort) {
  const DistortedCpu distorted(std::move(distort));
  auto report = runtime::diffDevices(testing::countdownAccumulate(), countdownInputs(3), cpuDevice(), distorted);
  EXPECT_TRUE(report.isOk());
  return report.isOk() ? report.value() : runtime::DiffReport{};
}

TEST(Diff, ValueDivergenceInAnIteration) {
  // Observation 5 is the body's ADD of iteration 1 (cond, SUB, ADD, cond, SUB, ADD).
  const runtime::DiffReport r = diffWithDistorted([](uint64_t i, Observation& o) {
    if (i == 5) {
      auto bytes = std::make_shared<std::vector<uint8_t>>(*o.outputs[0].bytes);
      (*bytes)[3 * 4] ^= 1;  // element 3
      o.outputs[0].bytes = bytes;
    }
    return true;
  });
  ASSERT_FALSE(r.agree());
  EXPECT_EQ(r.divergence->kind, runtime::DivergenceKind::VALUE);
  EXPECT_EQ(r.operationsCompared, 5u);
  EXPECT_EQ(r.divergence->a->path[0].iteration, 1u);
  EXPECT_EQ(r.divergence->element, 3u);
  EXPECT_EQ(runtime::elementText(r.divergence->type, r.divergence->elementA), "8");
  EXPECT_EQ(runtime::elementText(r.divergence->type, r.divergence->elementB), "9");
}

TEST(Diff, DimensionsDivergence) {
  const runtime::DiffReport r = diffWithDistorted([](uint64_t i, Observation& o) {
    if (i == 2) o.outputs[0].dimensions = {2, 2};
    return true;
  });
  ASSERT_FALSE(r.agree());
  EXPECT_EQ(r.divergence->kind, runtime::DivergenceKind::DIMENSIONS);
  EXPECT_EQ(r.divergence->dimsA, (Dimensions{4}));
  EXPECT_EQ(r.divergence->dimsB, (Dimensions{2, 2}));
  const auto json = nlohmann::json::parse(runtime::formatDiffJson(r));
  EXPECT_EQ(json["divergence"]["kind"], "dimensions");
  EXPECT_EQ(json["divergence"]["dimensions"]["b"], nlohmann::json::array({2, 2}));
}

TEST(Diff, OperationDivergence) {
  const runtime::DiffReport r = diffWithDistorted([](uint64_t i, Observation& o) {
    if (i == 4) o.path[0].iteration = 7;
    return true;
  });
  ASSERT_FALSE(r.agree());
  EXPECT_EQ(r.divergence->kind, runtime::DivergenceKind::OPERATION);
  EXPECT_EQ(r.divergence->a->path[0].iteration, 1u);
  EXPECT_EQ(r.divergence->b->path[0].iteration, 7u);
  EXPECT_NE(runtime::formatDiff(r).find("reached different operations"), std::string::npos);
}

TEST(Diff, OneSideFailingIsAStatusDivergence) {
  const runtime::DiffReport r = diffWithDistorted([](uint64_t i, Observation&) { return i < 4; });
  ASSERT_FALSE(r.agree());
  EXPECT_EQ(r.divergence->kind, runtime::DivergenceKind::STATUS);
  EXPECT_EQ(r.operationsCompared, 4u);
  ASSERT_TRUE(r.b.status.has_value());
  EXPECT_EQ(r.b.status->code(), ErrorStatus::GENERAL_FAILURE);
  ASSERT_TRUE(r.divergence->a.has_value());  // where the cpu had got to
  EXPECT_FALSE(r.divergence->b.has_value());
  EXPECT_EQ(r.divergence->a->subgraph, 2u);  // the SUB of iteration 1
  EXPECT_EQ(r.divergence->a->operation, 0u);
  const auto json = nlohmann::json::parse(runtime::formatDiffJson(r));
  EXPECT_EQ(json["divergence"]["kind"], "status");
  EXPECT_TRUE(json["divergence"]["b"].is_null());
  EXPECT_EQ(json["b"]["finished"], true);
  EXPECT_EQ(json["b"]["status"], "GENERAL_FAILURE");
  const std::string text = runtime::formatDiff(r);
  EXPECT_NE(text.find("distorted: GENERAL_FAILURE"), std::string::npos) << text;
  EXPECT_EQ(text.find("loop timeout may come from the observation"), std::string::npos) << text;
}

TEST(Diff, ALoopTimeoutOnOneSideComesWithAHint) {
  const DistortedCpu distorted([](uint64_t i, Observation&) { return i < 4; }, ErrorStatus::MISSED_DEADLINE_TRANSIENT);
  auto report = runtime::diffDevices(testing::countdownAccumulate(), countdownInputs(3), cpuDevice(), distorted);
  ASSERT_TRUE(report.isOk());
  ASSERT_FALSE(report.value().agree());
  EXPECT_EQ(report.value().divergence->kind, runtime::DivergenceKind::STATUS);
  const std::string text = runtime::formatDiff(report.value());
  EXPECT_NE(text.find("loop timeout may come from the observation"), std::string::npos) << text;
}

TEST(Diff, MemoryStaysBoundedOnALongLoop) {
  // 20,000 iterations, 60,002 operations compared: only the current
  // operation of each side is held. Every 1,000th observed value is watched;
  // while the run goes on, each watched value of an earlier round must be
  // gone already (it would live on if the diff kept intermediates).
  std::vector<std::weak_ptr<const std::vector<uint8_t>>> watched;
  size_t alive = 0;
  const DistortedCpu watcher([&](uint64_t i, Observation& o) {
    if (i % 1000 != 0 || o.outputs.empty()) return true;
    for (const auto& w : watched) alive += w.expired() ? 0 : 1;
    watched.push_back(o.outputs[0].bytes);
    return true;
  });
  auto report = runtime::diffDevices(testing::countdownAccumulate(), countdownInputs(20000), cpuDevice(), watcher);
  ASSERT_TRUE(report.isOk());
  EXPECT_TRUE(report.value().agree());
  EXPECT_EQ(report.value().operationsCompared, 60002u);
  EXPECT_GE(watched.size(), 60u);
  EXPECT_EQ(alive, 0u) << "values of operations compared long ago are still held";
}

TEST(Diff, AnyNanEqualsAnyNan) {
  // f = f + f from NaN: NaN every iteration; the distorted side reports
  // another NaN payload (and the sign flipped): still equal. A non-NaN is not.
  const Model model = testing::floatLoop();
  const std::vector<TensorValue> inputs = {testing::floats({1}, {2.0f}),
                                           testing::floats({1}, {std::numeric_limits<float>::quiet_NaN()})};
  for (const uint32_t replacement : {0xFFC01234u, 0x3F800000u}) {
    const DistortedCpu other([&](uint64_t, Observation& o) {
      for (ObservedOutput& out : o.outputs) {
        // Only FLOAT32 outputs: the loop's BOOL8 condition is one byte.
        if (out.type != OperandType::TENSOR_FLOAT32) continue;
        float f;
        std::memcpy(&f, out.bytes->data(), 4);
        if (!std::isnan(f)) continue;
        auto bytes = std::make_shared<std::vector<uint8_t>>(4);
        std::memcpy(bytes->data(), &replacement, 4);
        out.bytes = bytes;
      }
      return true;
    });
    auto report = runtime::diffDevices(model, inputs, cpuDevice(), other);
    ASSERT_TRUE(report.isOk()) << report.status().message();
    if (replacement == 0x3F800000u) {
      ASSERT_FALSE(report.value().agree());
      EXPECT_EQ(runtime::elementText(report.value().divergence->type, report.value().divergence->elementA), "NaN");
      EXPECT_EQ(runtime::elementText(report.value().divergence->type, report.value().divergence->elementB), "1");
      const auto json = nlohmann::json::parse(runtime::formatDiffJson(report.value()));
      EXPECT_EQ(json["divergence"]["values"]["a"], "NaN");
      EXPECT_EQ(json["divergence"]["values"]["b"], 1.0);
    } else {
      EXPECT_TRUE(report.value().agree()) << runtime::formatDiff(report.value());
    }
  }
}

#ifdef NNFAB_TEST_HAS_HLS
TEST(ObservedExecution, HlsRunsEachOperationAsItsOwnFabricProgram) {
  const Device* hls = findDevice("hls");
  ASSERT_NE(hls, nullptr);
  expectCountdownObservations(observe(*hls, testing::countdownAccumulate(), countdownInputs(3)), "fabric");
}

TEST(ObservedExecution, NestedLoopsOnHlsCarryBothIterations) {
  const Device* hls = findDevice("hls");
  ASSERT_NE(hls, nullptr);
  expectNestedPaths(observe(*hls, models::nestedLoops(), {int32s({1}, {4})}), "fabric");
}

TEST(Diff, CpuAndHlsAgreeOnTheExamples) {
  const Device* hls = findDevice("hls");
  ASSERT_NE(hls, nullptr);
  auto report = runtime::diffDevices(testing::countdownAccumulate(), countdownInputs(5), cpuDevice(), *hls);
  ASSERT_TRUE(report.isOk()) << report.status().message();
  EXPECT_TRUE(report.value().agree()) << runtime::formatDiff(report.value());
  EXPECT_EQ(report.value().operationsCompared, 17u);
  // FLOAT32 where hls runs it: the mixed loop (FLOAT32 MUL on the fabric).
  auto mixed = runtime::diffDevices(testing::mixedLoop(), {int32s({1}, {4}), testing::floats({2}, {1.5f, -0.25f})},
                                    cpuDevice(), *hls);
  ASSERT_TRUE(mixed.isOk()) << mixed.status().message();
  EXPECT_TRUE(mixed.value().agree()) << runtime::formatDiff(mixed.value());
}
#endif

#ifdef NNFAB_TEST_HAS_SIM
// The opcode of an elementwise TENSOR ADD (docs/isa.md).
constexpr uint8_t kTensorAdd = static_cast<uint8_t>(isa::kClassTENSOR) + static_cast<uint8_t>(isa::kFnADD);

// The planted fault: the third elementwise TENSOR ADD the sim core retires
// writes element 2 of its result with bit 4 flipped. Observed, every ADD of
// the loop is its own program, so that is the body's ADD (subgraph 2,
// operation 1) in iteration 2; acc[2] is 3 * 3 = 9 there, 9 ^ 16 = 25 on sim.
TEST(Diff, NamesThePlantedSimFault) {
  auto fault = std::make_shared<test::SimAluFault>(kTensorAdd, /*occurrence=*/3, /*word=*/2, /*bit=*/4);
  const std::unique_ptr<Device> sim = test::makeTappedSimDevice(fault);
  auto report = runtime::diffDevices(testing::countdownAccumulate(), countdownInputs(5), cpuDevice(), *sim);
  ASSERT_TRUE(report.isOk()) << report.status().message();
  EXPECT_TRUE(fault->fired());
  const runtime::DiffReport& r = report.value();
  ASSERT_FALSE(r.agree());
  const runtime::Divergence& d = *r.divergence;
  EXPECT_EQ(d.kind, runtime::DivergenceKind::VALUE) << runtime::formatDiff(r);
  ASSERT_TRUE(d.a && d.b);
  for (const runtime::ObservedAt* at : {&*d.a, &*d.b}) {
    EXPECT_EQ(at->subgraph, 2u);
    EXPECT_EQ(at->operation, 1u);
    EXPECT_EQ(at->type, OperationType::ADD);
    ASSERT_EQ(at->path.size(), 1u);
    EXPECT_EQ(at->path[0].subgraph, 0u);
    EXPECT_EQ(at->path[0].operation, 0u);
    EXPECT_EQ(at->path[0].type, OperationType::WHILE);
    EXPECT_EQ(at->path[0].part, ControlPathEntry::Part::BODY);
    EXPECT_EQ(at->path[0].iteration, 2u);
  }
  EXPECT_EQ(d.a->ranOn, "cpu");
  EXPECT_EQ(d.b->ranOn, "fabric");
  EXPECT_EQ(d.element, 2u);
  EXPECT_EQ(d.index, (std::vector<uint32_t>{2}));
  EXPECT_EQ(runtime::elementText(d.type, d.elementA), "9");
  EXPECT_EQ(runtime::elementText(d.type, d.elementB), "25");
  EXPECT_EQ(r.operationsCompared, 8u);  // 2 x (cond, SUB, ADD), then cond and SUB of iteration 2
  EXPECT_FALSE(r.a.status.has_value());  // both stopped at the divergence
  EXPECT_FALSE(r.b.status.has_value());

  const std::string text = runtime::formatDiff(r);
  EXPECT_NE(text.find("subgraph 2 operation 1 (ADD)"), std::string::npos) << text;
  EXPECT_NE(text.find("iteration 2 body"), std::string::npos) << text;
  EXPECT_NE(text.find("element 2 [2]: cpu 9, sim 25"), std::string::npos) << text;

  // The stable JSON form tools read.
  const auto json = nlohmann::json::parse(runtime::formatDiffJson(r));
  EXPECT_EQ(json["agree"], false);
  EXPECT_EQ(json["operationsCompared"], 8);
  EXPECT_EQ(json["a"]["device"], "cpu");
  EXPECT_EQ(json["b"]["device"], "sim");
  EXPECT_EQ(json["a"]["finished"], false);
  const auto& div = json["divergence"];
  EXPECT_EQ(div["kind"], "value");
  EXPECT_EQ(div["a"]["subgraph"], 2);
  EXPECT_EQ(div["a"]["operation"], 1);
  EXPECT_EQ(div["a"]["type"], "ADD");
  EXPECT_EQ(div["a"]["ranOn"], "cpu");
  EXPECT_EQ(div["b"]["ranOn"], "fabric");
  ASSERT_EQ(div["a"]["path"].size(), 1u);
  EXPECT_EQ(div["a"]["path"][0]["type"], "WHILE");
  EXPECT_EQ(div["a"]["path"][0]["part"], "body");
  EXPECT_EQ(div["a"]["path"][0]["iteration"], 2);
  EXPECT_EQ(div["a"]["path"][0]["child"], 2);
  EXPECT_EQ(div["output"], 0);
  EXPECT_EQ(div["operandType"], "TENSOR_INT32");
  EXPECT_EQ(div["dimensions"]["a"], nlohmann::json::array({4}));
  EXPECT_EQ(div["element"], 2);
  EXPECT_EQ(div["index"], nlohmann::json::array({2}));
  EXPECT_EQ(div["values"]["a"], 9);
  EXPECT_EQ(div["values"]["b"], 25);
}

TEST(Diff, TappedSimWithoutAFaultAgrees) {
  // The tap itself changes nothing: a fault that never fires (occurrence 0).
  auto fault = std::make_shared<test::SimAluFault>(kTensorAdd, 0, 0, 0);
  const std::unique_ptr<Device> sim = test::makeTappedSimDevice(fault);
  auto report = runtime::diffDevices(testing::countdownAccumulate(), countdownInputs(3), cpuDevice(), *sim);
  ASSERT_TRUE(report.isOk()) << report.status().message();
  EXPECT_FALSE(fault->fired());
  EXPECT_TRUE(report.value().agree()) << runtime::formatDiff(report.value());
  EXPECT_EQ(report.value().operationsCompared, 11u);
}
#endif

}  // namespace
}  // namespace nnfab
