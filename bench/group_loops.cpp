// Cycles per WHILE iteration of the counter loop (cond LESS i n, body ADD i 1)
// and the accumulator loop (body also ADD acc i) at two trip counts, from the
// core's CYCLES and ITERATIONS, with what the loop would take at 300 MHz and
// with one host launch per iteration instead.
#include <fmt/format.h>

#include "bench_groups.h"
#include "fabric_run.h"
#include "launch_costs.h"
#include "nnfab_isa.h"
#include "models/loop_models.h"
#include "models/model_builder.h"

namespace nnfab::bench {
namespace {

constexpr double kTargetCyclesPerIteration = 2.0;

struct LoopRun {
  uint32_t n = 0;
  fabric::RunReport report;
};

Result<LoopRun> runLoop(fabric::FabricBackend& backend, bool accumulate, uint32_t n) {
  auto run =
      runToCompletion(backend, models::counterLoop(accumulate), {models::int32s({1}, {static_cast<int32_t>(n)})});
  if (!run.isOk()) return std::move(run).takeStatus();
  // A benchmark that computes the wrong thing measures nothing.
  const int32_t i = models::values<int32_t>(run->outputs[0])[0];
  if (i != static_cast<int32_t>(n)) return generalFailure(fmt::format("the loop ended at i = {}, not {}", i, n));
  if (accumulate) {
    uint32_t expected = 0;  // wraps like the fabric's INT32
    for (uint32_t k = 0; k < n; ++k) expected += k;
    const int32_t acc = models::values<int32_t>(run->outputs[1])[0];
    if (acc != static_cast<int32_t>(expected)) {
      return generalFailure(fmt::format("acc = {}, expected {}", acc, static_cast<int32_t>(expected)));
    }
  }
  return LoopRun{n, run->report};
}

void addRunMetrics(Report& report, const std::string& loop, const std::string& tag, const LoopRun& r) {
  const double cycles = static_cast<double>(r.report.cycles);
  const nlohmann::ordered_json params = {{"n", r.n}};
  report
      .add(fmt::format("{}.{}.cycles", loop, tag), "cycles", cycles,
           "CYCLES of the whole execution (program load, prologue, loop, epilogue)")
      .with(params);
  report
      .add(fmt::format("{}.{}.iterations_counter", loop, tag), "backedges", static_cast<double>(r.report.iterations),
           "ITERATIONS: taken BACKEDGE branches (n - 1 for the rotated loop)")
      .with(params);
  report
      .add(fmt::format("{}.{}.cycles_per_iteration", loop, tag), "cycles/iteration", cycles / r.n,
           "CYCLES / n, fixed costs included")
      .with(params);
  const double seconds = cycles / (isa::kNOMINAL_CLOCK_MHZ * 1e6);
  report
      .add(fmt::format("{}.{}.projected_ms_at_300mhz", loop, tag), "ms", seconds * 1e3,
           "CYCLES / 300e6: the execution on a card at the nominal clock")
      .from(Source::DERIVED)
      .with(params);
  for (const LaunchCost* launch : {&kLaunchPipelined, &kLaunchSingle}) {
    report
        .add(fmt::format("{}.{}.launch_per_iteration_ms_{}", loop, tag, launch->name), "ms",
             r.n * launch->microseconds / 1e3,
             fmt::format("n host launches at {} us each (a lower bound: the device's own time "
                         "is not added)",
                         launch->microseconds))
        .from(Source::DERIVED)
        .with({{"n", r.n}, {"launch_us", launch->microseconds}});
  }
}

Status measureLoop(const Context& context, fabric::FabricBackend& backend, Report& report, bool accumulate) {
  const std::string loop = accumulate ? "accumulator_loop" : "counter_loop";
  std::vector<LoopRun> runs;
  for (uint32_t n : {context.sizes.loopN1, context.sizes.loopN2}) {
    context.tell(fmt::format("{} n={} on {}", loop, n, context.device));
    auto r = runLoop(backend, accumulate, n);
    if (!r.isOk()) return std::move(r).takeStatus().withContext(fmt::format("{} n={}", loop, n));
    runs.push_back(*r);
  }
  const LoopRun& a = runs[0];
  const LoopRun& b = runs[1];
  addRunMetrics(report, loop, "n1", a);
  addRunMetrics(report, loop, "n2", b);
  const double marginal = static_cast<double>(b.report.cycles - a.report.cycles) /
                          static_cast<double>(b.report.iterations - a.report.iterations);
  Metric& perIteration = report
                             .add(loop + ".marginal_cycles_per_iteration", "cycles/iteration", marginal,
                                  "(CYCLES(n2) - CYCLES(n1)) / (ITERATIONS(n2) - ITERATIONS(n1)): one iteration, "
                                  "fixed costs cancelled")
                             .with({{"n1", a.n}, {"n2", b.n}});
  // The target is the counter loop's; the accumulator's body has one
  // more instruction, which a single-issue core cannot hide.
  if (!accumulate) perIteration.against(atMost(kTargetCyclesPerIteration));
  const double onFabricMs = static_cast<double>(b.report.cycles) / (isa::kNOMINAL_CLOCK_MHZ * 1e3);
  report
      .add(loop + ".n2.launch_per_iteration_slowdown_pipelined", "x",
           b.n * kLaunchPipelined.microseconds / 1e3 / onFabricMs,
           "one pipelined launch per iteration (2.8 us) vs the whole loop on the fabric at 300 MHz")
      .from(Source::DERIVED)
      .with({{"n", b.n}, {"launch_us", kLaunchPipelined.microseconds}});
  return Status::ok();
}

}  // namespace

Status runLoopsGroup(const Context& context, Report& report) {
  auto device = context.open();
  if (!device.isOk()) return std::move(device).takeStatus();
  for (bool accumulate : {false, true}) {
    if (Status s = measureLoop(context, *device->backend, report, accumulate); !s.isOk()) return s;
  }
  report.note("loops", fmt::format("launch costs (sources in docs/bench.md): {} us = {}; {} us = {}",
                                   kLaunchPipelined.microseconds, kLaunchPipelined.source, kLaunchSingle.microseconds,
                                   kLaunchSingle.source));
  return Status::ok();
}

}  // namespace nnfab::bench
