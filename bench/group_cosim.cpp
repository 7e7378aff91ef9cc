// How fast the device simulates: device cycles per second of wall time of the
// device run (CoreDriver's run, the counter loop at n2). On sim the cycles are
// the ap_clk cycles the simulation advanced; on hls, the cycle model's CYCLES.
// When the build has both, the same counter loop runs on sim and hls for the
// ratio of their wall times.
#include <fmt/format.h>

#include <algorithm>

#include "bench_groups.h"
#include "fabric_run.h"
#include "models/loop_models.h"
#include "models/model_builder.h"

namespace nnfab::bench {
namespace {

struct Speed {
  double cycles = 0;
  double seconds = 0;
  bool cycleAccurate = false;
};

Result<Speed> counterLoopSpeed(const Context& context, const std::string& deviceName, uint32_t n) {
  auto device = openBenchDevice(deviceName);
  if (!device.isOk()) return std::move(device).takeStatus();
  context.tell(fmt::format("counter_loop n={} on {} (simulation speed)", n, deviceName));
  const uint64_t before = device->simulatedCycles ? device->simulatedCycles() : 0;
  auto run =
      runToCompletion(*device->backend, models::counterLoop(false), {models::int32s({1}, {static_cast<int32_t>(n)})});
  if (!run.isOk()) return std::move(run).takeStatus();
  const double cycles = device->simulatedCycles ? static_cast<double>(device->simulatedCycles() - before)
                                                : static_cast<double>(run->report.cycles);
  return Speed{cycles, std::chrono::duration<double>(run->report.wallTime).count(), device->cycleAccurate()};
}

bool built(const std::string& name) {
  const std::vector<std::string> names = benchDeviceNames();
  return std::find(names.begin(), names.end(), name) != names.end();
}

}  // namespace

Status runCosimGroup(const Context& context, Report& report) {
  const uint32_t n = context.sizes.loopN2;
  auto speed = counterLoopSpeed(context, context.device, n);
  if (!speed.isOk()) return std::move(speed).takeStatus();
  const bool cycleAccurate = speed->cycleAccurate;
  report
      .add("cosim.device_cycles", "cycles", speed->cycles,
           cycleAccurate ? "ap_clk cycles simulated during the run"
                         : "CYCLES of the run (cycle model; hls has no clock of its own)")
      .with({{"model", "counter_loop"}, {"n", n}});
  report
      .add("cosim.device_cycles_per_second", "cycles/s", speed->cycles / speed->seconds,
           "device cycles / wall time of CoreDriver's run")
      .with({{"model", "counter_loop"}, {"n", n}});

  if (built("sim") && built("hls")) {
    const uint32_t m = context.sizes.cosimN;
    auto sim = counterLoopSpeed(context, "sim", m);
    if (!sim.isOk()) return std::move(sim).takeStatus().withContext("sim");
    auto hls = counterLoopSpeed(context, "hls", m);
    if (!hls.isOk()) return std::move(hls).takeStatus().withContext("hls");
    report
        .add("cosim.sim_hls_wall_ratio", "x", sim->seconds / hls->seconds,
             "wall time of the same run on sim divided by hls")
        .with({{"model", "counter_loop"}, {"n", m}});
  } else {
    report.note("cosim",
                "sim/hls wall-time ratio: needs both devices in the build; this build has only " + context.device);
  }
  return Status::ok();
}

}  // namespace nnfab::bench
