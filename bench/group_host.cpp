// Host time per execution beyond the device's own: many executions of the
// smallest model (ADD of two [1] INT32) through the runtime's whole path
// (FabricDevice: prepare once, then execute = input checks, plan, program
// cache, device memory, register protocol, outputs). The device is a fresh
// backend behind ProbeBackend, which times each run from the AP_START write
// to the end the driver saw; the overhead of one execution is its wall time
// minus that.
#include <fmt/format.h>

#include <algorithm>

#include "bench_groups.h"
#include "bench_models.h"
#include "probe_backend.h"
#include "runtime/fabric_device.h"
#include "models/model_builder.h"

namespace nnfab::bench {
namespace {

constexpr uint32_t kWarmupExecutions = 20;

double percentile(std::vector<double> values, double p) {
  std::sort(values.begin(), values.end());
  const size_t at = std::min(values.size() - 1, static_cast<size_t>(p * static_cast<double>(values.size() - 1) + 0.5));
  return values[at];
}

}  // namespace

Status runHostGroup(const Context& context, Report& report) {
  auto device = context.open();
  if (!device.isOk()) return std::move(device).takeStatus();
  const double clockMhz = device->backend->clockMhz();
  ProbeBackend* probe = nullptr;
  auto backend = std::make_shared<std::unique_ptr<fabric::FabricBackend>>(std::move(device->backend));
  const FabricDevice fabric(context.device + "-bench", "the benchmarked device behind a probe", clockMhz,
                            [backend, &probe]() -> std::unique_ptr<fabric::FabricBackend> {
                              auto p = std::make_unique<ProbeBackend>(std::move(*backend));
                              probe = p.get();
                              return p;
                            });
  auto prepared = fabric.prepare(tinyAdd(), PrepareOptions{});
  if (!prepared.isOk()) return std::move(prepared).takeStatus().withContext("preparing the tiny model");
  const std::vector<TensorValue> inputs = {models::int32s({1}, {20}), models::int32s({1}, {22})};

  const uint32_t count = context.sizes.hostExecutions;
  context.tell(fmt::format("{} executions of a one-element ADD on {}", count, context.device));
  std::vector<double> wallUs, deviceUs, overheadUs;
  for (uint32_t k = 0; k < kWarmupExecutions + count; ++k) {
    const std::chrono::nanoseconds busyBefore = probe ? probe->busyTime() : std::chrono::nanoseconds(0);
    const uint64_t runsBefore = probe ? probe->runs() : 0;
    const auto start = std::chrono::steady_clock::now();
    const ExecutionResult result = (*prepared)->execute(inputs, ExecutionOptions{});
    const auto wall = std::chrono::steady_clock::now() - start;
    if (!result.status.isOk()) return Status(result.status).withContext(fmt::format("execution {}", k));
    if (models::values<int32_t>(result.outputs.at(0)).at(0) != 42) return generalFailure("20 + 22 is not 42");
    if (!probe || probe->runs() == runsBefore) {
      return generalFailure("the execution did not run on the fabric (the tiny model went to the CPU)");
    }
    if (k < kWarmupExecutions) continue;
    const double w = std::chrono::duration<double, std::micro>(wall).count();
    const double d = std::chrono::duration<double, std::micro>(probe->busyTime() - busyBefore).count();
    wallUs.push_back(w);
    deviceUs.push_back(d);
    overheadUs.push_back(w - d);
  }

  const nlohmann::ordered_json params = {{"executions", count}, {"model", "ADD of two [1] INT32"}};
  report.add("host.execution_us", "us", percentile(wallUs, 0.5), "median wall time of one PreparedModel::execute")
      .with(params);
  report
      .add("host.device_us", "us", percentile(deviceUs, 0.5),
           "median device wall time: AP_START write to the end of the run")
      .with(params);
  report
      .add("host.overhead_us_per_execution", "us", percentile(overheadUs, 0.5),
           "median of (execution wall time - device wall time)")
      .with(params);
  report.add("host.overhead_us_per_execution_p90", "us", percentile(overheadUs, 0.9), "90th percentile of the same")
      .with(params);
  return Status::ok();
}

}  // namespace nnfab::bench
