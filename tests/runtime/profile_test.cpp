// The execution timeline (ExecutionOptions::trace, `nnfab run --profile`):
// a host-interpreted WHILE reports every iteration, and every step its
// device; no sink, no events.
#include <gtest/gtest.h>

#include <map>

#include <nlohmann/json.hpp>

#include "api/chrome_trace.h"
#include "api/run_model.h"
#include "backends/hls_backend.h"
#include "model/trace_sink.h"
#include "runtime/device.h"
#include "runtime/fabric_device.h"
#include "runtime/runtime_models.h"
#include "support/loop_models.h"
#include "support/model_builder.h"
#include "support/run_on.h"

namespace nnfab {
namespace {

struct Recorded {
  std::string name, category;
  TraceArgs args;
  Clock::time_point start, end;
};

class RecordingSink final : public TraceSink {
 public:
  void span(std::string_view name, std::string_view category, Clock::time_point start, Clock::time_point end,
            TraceArgs args) override {
    events.push_back({std::string(name), std::string(category), std::move(args), start, end});
  }
  size_t count(const std::string& category) const {
    size_t n = 0;
    for (const auto& e : events) n += e.category == category;
    return n;
  }
  std::vector<Recorded> events;
};

std::string arg(const Recorded& e, const std::string& key) {
  for (const auto& [k, v] : e.args) {
    if (k == key) return v;
  }
  return "";
}

TEST(Profile, InterpretedWhileReportsEveryIterationAndStep) {
  // An hls device of the tests' own, whose plan interprets the mixed loop
  // (as test_fabric_device checks): the registered hls finds the hand-offs
  // not worth it and runs the loop whole on the CPU.
  FabricDevice hls("observed", "hls for tests", isa::kNOMINAL_CLOCK_MHZ,
                            [] { return std::make_unique<backends::HlsBackend>(backends::HlsBackendOptions{}); });
  const runtime::Plan plan = hls.partition(testing::mixedLoop());
  ASSERT_EQ(plan.main().steps.size(), 1u);
  ASSERT_EQ(plan.main().steps[0].kind, runtime::StepKind::WHILE);
  RecordingSink sink;
  ExecutionOptions options;
  options.trace = &sink;
  const ExecutionResult r =
      testing::runOn(hls, testing::mixedLoop(), {testing::int32s({1}, {6}), testing::floats({2}, {1, 2})}, options);
  ASSERT_TRUE(r.status.isOk()) << r.status.message();
  // Six iterations, each one span, inside one WHILE span.
  std::vector<std::string> iterations;
  for (const auto& e : sink.events) {
    EXPECT_LE(e.start, e.end);
    if (e.category == "while" && e.name.rfind("WHILE iteration", 0) == 0) iterations.push_back(e.name);
  }
  EXPECT_EQ(iterations, (std::vector<std::string>{"WHILE iteration 0", "WHILE iteration 1", "WHILE iteration 2",
                                                  "WHILE iteration 3", "WHILE iteration 4", "WHILE iteration 5"}));
  EXPECT_EQ(sink.count("while"), 7u);  // the iterations and the whole loop
  // Steps: seven conditions and six bodies; fabric steps (LESS, ADD) and the CPU's MUL.
  std::map<std::string, size_t> runsOn;
  for (const auto& e : sink.events) {
    if (e.category == "step") ++runsOn[arg(e, "runs_on")];
  }
  EXPECT_GT(runsOn["fabric"], 0u);
  EXPECT_GT(runsOn["cpu"], 0u);
  EXPECT_EQ(runsOn["fabric"] + runsOn["cpu"], 7u + 6u * 2u);  // cond: LESS; body: ADD (fabric), MUL (cpu)
}

TEST(Profile, RunModelReportsPreparationAndExecution) {
  RecordingSink sink;
  RunOptions options;
  options.device = findDevice("hls");
  options.trace = &sink;
  const ExecutionResult r =
      runModel(testing::counterLoop(), {testing::int32s({1}, {5})}, options);
  ASSERT_TRUE(r.status.isOk()) << r.status.message();
  EXPECT_EQ(sink.count("prepare"), 1u);
  ASSERT_EQ(sink.count("execute"), 1u);
  for (const auto& e : sink.events) {
    if (e.category == "execute") {
      EXPECT_EQ(arg(e, "device"), "hls");
      EXPECT_EQ(arg(e, "status"), "NO_ERROR");
    }
  }
  EXPECT_GE(sink.count("step"), 1u);  // the WHILE whole on the fabric: one step
}

TEST(Profile, WholeModelOnTheCpuIsOneExecution) {
  RecordingSink sink;
  RunOptions options;
  options.device = findDevice("cpu");
  options.trace = &sink;
  const ExecutionResult r =
      runModel(testing::mixedLoop(), {testing::int32s({1}, {3}), testing::floats({2}, {1, 2})}, options);
  ASSERT_TRUE(r.status.isOk()) << r.status.message();
  EXPECT_EQ(sink.count("execute"), 1u);
  EXPECT_EQ(sink.count("while"), 0u);  // the CPU executor runs the WHILE inside its one call
}


// Device events of fabric programs (the core's trace ring, docs/runtime.md
// "Timeline"): a nested loop and an IF compiled whole into fabric programs.
class DeviceRecordingSink final : public TraceSink {
 public:
  void span(std::string_view, std::string_view, Clock::time_point, Clock::time_point, TraceArgs) override {}
  void deviceEvents(std::string_view device, double clockMhz, Clock::time_point, std::vector<DeviceEvent> list) override {
    devices.emplace_back(device);
    EXPECT_GT(clockMhz, 0.0);
    for (auto& e : list) events.push_back(std::move(e));
  }
  size_t named(const std::string& prefix) const {
    size_t n = 0;
    for (const auto& e : events) n += e.name.rfind(prefix, 0) == 0;
    return n;
  }
  std::vector<std::string> devices;
  std::vector<DeviceEvent> events;
};

FabricDevice traceDevice() {
  return FabricDevice("traced", "hls for tests", isa::kNOMINAL_CLOCK_MHZ,
                      [] { return std::make_unique<backends::HlsBackend>(backends::HlsBackendOptions{}); });
}

TEST(Profile, FabricNestedLoopReportsEveryIterationOfBothLoops) {
  FabricDevice hls = traceDevice();
  const Model model = testing::nestedLoops();
  const runtime::Plan plan = hls.partition(model);
  ASSERT_EQ(plan.main().steps.size(), 1u);
  ASSERT_EQ(plan.main().steps[0].kind, runtime::StepKind::FABRIC);
  DeviceRecordingSink sink;
  ExecutionOptions options;
  options.trace = &sink;
  const ExecutionResult r = testing::runOn(hls, model, {testing::int32s({1}, {5})}, options);
  ASSERT_TRUE(r.status.isOk()) << r.status.message();
  EXPECT_EQ(sink.devices, std::vector<std::string>{"hls"});
  // Outer i = 0..4; inner j < i: 0 + 1 + 2 + 3 + 4 iterations, and at i = 0
  // the inner loop's condition is false at entry.
  EXPECT_EQ(sink.named("WHILE iteration"), 5u + 10u);
  EXPECT_EQ(sink.named("WHILE exit"), 1u + 4u);
  EXPECT_EQ(sink.named("WHILE: condition false at entry"), 1u);
  EXPECT_EQ(sink.named("IF:"), 0u);
  EXPECT_EQ(sink.named("fabric program"), 1u);
  // Spans of one loop do not overlap and follow each other in device cycles.
  std::map<std::string, uint64_t> lastEnd;
  for (const auto& e : sink.events) {
    if (e.name.rfind("WHILE iteration", 0) != 0) continue;
    const std::string pc = e.args.front().second;
    EXPECT_GT(e.cycles, 0u);
    if (lastEnd.count(pc)) {
      EXPECT_GE(e.startCycle, lastEnd[pc]);
    }
    lastEnd[pc] = e.startCycle + e.cycles;
  }
}

// A sink that takes the device events deferred (as ChromeTrace does) is
// handed a maker during the run and the events only when it calls it: the
// step's time holds the trace readout, not one formatted event per branch.
class DeferringSink final : public TraceSink {
 public:
  void span(std::string_view, std::string_view, Clock::time_point, Clock::time_point, TraceArgs) override {}
  void deviceEvents(std::string_view, double, Clock::time_point, std::vector<DeviceEvent>) override {
    ++immediate;
  }
  void deferredDeviceEvents(std::string_view, double, Clock::time_point, DeviceEventMaker make) override {
    makers.push_back(std::move(make));
  }
  int immediate = 0;
  std::vector<DeviceEventMaker> makers;
};

TEST(Profile, FabricEventsAreMadeWhenTheSinkAsks) {
  FabricDevice hls = traceDevice();
  const Model model = testing::nestedLoops();
  DeferringSink deferring;
  DeviceRecordingSink recording;
  for (TraceSink* sink : std::initializer_list<TraceSink*>{&deferring, &recording}) {
    ExecutionOptions options;
    options.trace = sink;
    const ExecutionResult r = testing::runOn(hls, model, {testing::int32s({1}, {5})}, options);
    ASSERT_TRUE(r.status.isOk()) << r.status.message();
  }
  EXPECT_EQ(deferring.immediate, 0);
  ASSERT_EQ(deferring.makers.size(), 1u);
  const std::vector<TraceSink::DeviceEvent> made = deferring.makers.front()();
  // The same events as a sink that takes them at once.
  ASSERT_EQ(made.size(), recording.events.size());
  for (size_t i = 0; i < made.size(); ++i) {
    EXPECT_EQ(made[i].name, recording.events[i].name);
    EXPECT_EQ(made[i].startCycle, recording.events[i].startCycle);
    EXPECT_EQ(made[i].cycles, recording.events[i].cycles);
    EXPECT_EQ(made[i].args, recording.events[i].args);
  }
  EXPECT_EQ(made.size(), deferring.makers.front()().size());  // a maker may be called again
}

TEST(Profile, FabricIfReportsTheBranchTaken) {
  FabricDevice hls = traceDevice();
  const Model model = testing::intIf();
  for (const bool c : {true, false}) {
    DeviceRecordingSink sink;
    ExecutionOptions options;
    options.trace = &sink;
    const ExecutionResult r =
        testing::runOn(hls, model, {testing::bools({1}, {c}), testing::int32s({2}, {3, 4})}, options);
    ASSERT_TRUE(r.status.isOk()) << r.status.message();
    if (sink.devices.empty()) GTEST_SKIP() << "the IF did not run on the fabric";
    EXPECT_EQ(sink.named(c ? "IF: then branch" : "IF: else branch"), 1u);
    EXPECT_EQ(sink.named(c ? "IF: else branch" : "IF: then branch"), 0u);
    EXPECT_EQ(sink.named("WHILE"), 0u);
  }
}

// A step's span comes as a label made with the plan, shared by every
// execution of the prepared model: the profiled step formats nothing. Its
// name and arguments are those a plain span had (the default labelledSpan
// passes them on, as RecordingSink sees above).
class LabelSink final : public TraceSink {
 public:
  void span(std::string_view, std::string_view, Clock::time_point, Clock::time_point, TraceArgs) override {}
  void labelledSpan(const std::shared_ptr<const SpanLabel>& label, Clock::time_point start,
                    Clock::time_point end) override {
    EXPECT_LE(start, end);
    labels.push_back(label);
  }
  std::vector<std::shared_ptr<const SpanLabel>> labels;
};

TEST(Profile, StepSpansShareOneLabelMadeWithThePlan) {
  FabricDevice hls = traceDevice();
  auto prepared = hls.prepare(testing::counterLoop(true), {});
  ASSERT_TRUE(prepared.isOk()) << prepared.status().message();
  LabelSink first, second;
  for (LabelSink* sink : {&first, &second}) {
    ExecutionOptions options;
    options.trace = sink;
    const ExecutionResult r = prepared.value()->execute({testing::int32s({1}, {4})}, options);
    ASSERT_TRUE(r.status.isOk()) << r.status.message();
  }
  ASSERT_EQ(first.labels.size(), 1u);  // the WHILE whole on the fabric: one step
  ASSERT_EQ(second.labels.size(), 1u);
  EXPECT_EQ(first.labels[0].get(), second.labels[0].get());
  const TraceSink::SpanLabel& label = *first.labels[0];
  EXPECT_EQ(label.name, "subgraph 0, step 0 (FABRIC)");
  EXPECT_EQ(label.category, "step");
  EXPECT_EQ(label.args, (TraceArgs{{"runs_on", "fabric"}, {"operations", "WHILE"}}));
}

// --profile's writer shows a labelled span as the plain span of the same
// name, category and arguments.
TEST(Profile, ChromeTraceWritesALabelledSpanAsThePlainOne) {
  const Clock::time_point t0 = Clock::now();
  const Clock::time_point t1 = t0 + std::chrono::microseconds(7);
  auto label = std::make_shared<const TraceSink::SpanLabel>(
      TraceSink::SpanLabel{"subgraph 1, step 2 (CPU)", "step", {{"runs_on", "cpu"}, {"operations", "ADD MUL"}}});
  std::vector<nlohmann::json> made;
  for (const bool labelled : {true, false}) {
    api::ChromeTrace trace;
    if (labelled) {
      trace.labelledSpan(label, t0, t1);
    } else {
      trace.span(label->name, label->category, t0, t1, label->args);
    }
    ASSERT_EQ(trace.size(), 1u);
    const nlohmann::json doc = nlohmann::json::parse(trace.json());
    for (const auto& e : doc["traceEvents"]) {
      if (e["ph"] == "X") made.push_back(e);
    }
  }
  ASSERT_EQ(made.size(), 2u);
  EXPECT_EQ(made[0]["name"], "subgraph 1, step 2 (CPU)");
  EXPECT_EQ(made[0]["cat"], "step");
  EXPECT_EQ(made[0]["args"]["operations"], "ADD MUL");
  EXPECT_EQ(made[0]["args"]["clock"], "host wall clock");
  EXPECT_DOUBLE_EQ(made[0]["dur"].get<double>(), 7.0);
  made[0].erase("ts");  // each writer has its own origin
  made[1].erase("ts");
  EXPECT_EQ(made[0], made[1]);
}

}  // namespace
}  // namespace nnfab
