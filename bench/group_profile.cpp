// What profiling costs an execution (`nnfab run --profile`, issue 16: "no
// cost when off, <= 10 % when on"): the accumulator loop (examples/
// while_sum.json) prepared once on the registered device, as `nnfab run
// --device D` runs it, then executed with and without a timeline sink
// (api::ChromeTrace, the `--profile` writer) in turn. The figure is the
// runtime's own timing.inDriverNs, the least of K executions each: the
// minimum, because on a shared machine everything else only adds time. The
// sink's file is made after each profiled execution, outside its time, as
// `nnfab run` writes it after the run.
#include <fmt/format.h>

#include <algorithm>
#include <limits>

#include "api/chrome_trace.h"
#include "bench_groups.h"
#include "models/loop_models.h"
#include "models/model_builder.h"
#include "runtime/device.h"

namespace nnfab::bench {
namespace {

constexpr double kTargetCostPercent = 10.0;
constexpr uint32_t kWarmupExecutions = 5;

struct Least {
  uint64_t off = std::numeric_limits<uint64_t>::max();
  uint64_t on = std::numeric_limits<uint64_t>::max();
};

// One execution; its inDriverNs. `sink` set: profiled, and the trace must
// hold the fabric program and its iterations.
Result<uint64_t> executeOnce(PreparedModel& prepared, uint32_t n, bool profiled) {
  const std::vector<TensorValue> inputs = {models::int32s({1}, {static_cast<int32_t>(n)})};
  api::ChromeTrace sink;
  ExecutionOptions options;
  if (profiled) options.trace = &sink;
  const ExecutionResult result = prepared.execute(inputs, options);
  if (!result.status.isOk()) return Status(result.status).withContext(fmt::format("while_sum n = {}", n));
  // A benchmark that computes the wrong thing measures nothing.
  uint32_t sum = 0;  // wraps like the fabric's INT32
  for (uint32_t k = 0; k < n; ++k) sum += k;
  if (result.outputs.size() != 2 || models::values<int32_t>(result.outputs[0]).at(0) != static_cast<int32_t>(n) ||
      models::values<int32_t>(result.outputs[1]).at(0) != static_cast<int32_t>(sum)) {
    return generalFailure(fmt::format("while_sum n = {} computed the wrong (i, acc)", n));
  }
  if (!result.timing.inDriverNs) return generalFailure("the execution reported no inDriverNs");
  if (profiled) {
    // The step's span, the fabric program and one span per iteration the
    // ring kept (at most TRACE_DEPTH): the profile really was taken.
    const std::string json = sink.json();
    if (json.find("\"fabric program\"") == std::string::npos || json.find("WHILE iteration 1\"") == std::string::npos) {
      return generalFailure(fmt::format("the profile of while_sum n = {} has no fabric iterations", n));
    }
  }
  return *result.timing.inDriverNs;
}

}  // namespace

Status runProfileGroup(const Context& context, Report& report) {
  const Device* device = findDevice(context.device);
  if (device == nullptr) return generalFailure(fmt::format("no registered device {}", context.device));
  // Prepared as `nnfab run --profile` prepares (PrepareOptions::profiled).
  PrepareOptions prepareOptions;
  prepareOptions.profiled = true;
  auto prepared = device->prepare(models::counterLoop(true), prepareOptions);
  if (!prepared.isOk()) return std::move(prepared).takeStatus().withContext("preparing while_sum");
  PreparedModel& model = *prepared.value();

  const uint32_t runs = context.sizes.profileRuns;
  std::vector<uint32_t> sizes = {100, 1000};
  if (!context.quick) sizes.push_back(5000);
  for (uint32_t n : sizes) {
    context.tell(fmt::format("while_sum n={} on {}: {} executions without and {} with a profile, in turn", n,
                             context.device, runs, runs));
    Least least;
    for (uint32_t k = 0; k < kWarmupExecutions + runs; ++k) {
      for (const bool profiled : {false, true}) {
        auto ns = executeOnce(model, n, profiled);
        if (!ns.isOk()) return std::move(ns).takeStatus();
        if (k < kWarmupExecutions) continue;
        uint64_t& keep = profiled ? least.on : least.off;
        keep = std::min(keep, *ns);
      }
    }
    const double offUs = static_cast<double>(least.off) / 1e3;
    const double onUs = static_cast<double>(least.on) / 1e3;
    const nlohmann::ordered_json params = {{"model", "examples/while_sum.json"}, {"n", n}, {"executions", runs}};
    report.add(fmt::format("profile.n{}.off_us", n), "us", offUs,
               "least timing.inDriverNs of the executions without a profile")
        .with(params);
    report.add(fmt::format("profile.n{}.on_us", n), "us", onUs,
               "least timing.inDriverNs of the executions with a timeline sink (--profile's writer)")
        .with(params);
    report
        .add(fmt::format("profile.n{}.cost_percent", n), "%", (onUs - offUs) / offUs * 100.0,
             "(on - off) / off: what profiling adds to an execution")
        .with(params)
        .against(atMost(kTargetCostPercent));
  }
  report.note("profile",
              "prepared once, executed in turn without and with --profile's sink; a one-shot `nnfab run` process "
              "also pays first-use costs: scripts/profile_cost.sh measures those");
  return Status::ok();
}

}  // namespace nnfab::bench
