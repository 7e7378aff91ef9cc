#include "bench_run.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>

#include "bench_device.h"
#include "bench_groups.h"
#include "nnfab_isa.h"

namespace nnfab::bench {
namespace {

constexpr int kSchemaVersion = 1;

std::vector<std::string> groupNames() {
  std::vector<std::string> names;
  for (const Group& g : benchGroups()) names.push_back(g.name);
  return names;
}

}  // namespace

Result<BenchOutcome> runBench(const BenchOptions& options) {
  const std::string device = options.device.empty() ? defaultBenchDevice() : options.device;
  const std::vector<std::string> devices = benchDeviceNames();
  if (!isBenchDevice(device)) {
    return invalidArgument(
        fmt::format("--device {}: not a fabric device of this build (choose from: {})", device,
                    devices.empty() ? std::string("none") : fmt::format("{}", fmt::join(devices, ", "))));
  }
  const std::vector<std::string> known = groupNames();
  for (const std::string& name : options.only) {
    if (std::find(known.begin(), known.end(), name) == known.end()) {
      return invalidArgument(
          fmt::format("--only {}: no such benchmark (choose from: {})", name, fmt::join(known, ", ")));
    }
  }

  if (Status s = prepareBenchDevice(device); !s) return std::move(s).withContext(device);

  Context context;
  context.device = device;
  context.quick = options.quick;
  context.sizes = options.quick ? Sizes::quick() : Sizes::full();
  context.progress = options.progress;

  BenchOutcome outcome;
  std::vector<std::string> ran;
  for (const Group& group : benchGroups()) {
    const bool chosen = options.only.empty()
                            ? group.byDefault
                            : std::find(options.only.begin(), options.only.end(), group.name) != options.only.end();
    if (!chosen) continue;
    ran.push_back(group.name);
    outcome.report.setGroup(group.name);
    if (Status s = group.run(context, outcome.report); !s.isOk()) {
      outcome.report.error(group.name, fmt::format("{}: {}", toString(s.code()), s.message()));
    }
  }
  outcome.header = {{"schema_version", kSchemaVersion},
                    {"tool", "nnfab bench"},
                    {"device", device},
                    {"quick", options.quick},
                    {"projection_clock_mhz", isa::kNOMINAL_CLOCK_MHZ},
                    {"groups", ran}};
  return outcome;
}

}  // namespace nnfab::bench
