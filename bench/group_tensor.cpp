// Elementwise INT32 ADD of many elements: elements per cycle against what the
// memory ports allow. Each port moves MEM_BEAT_BYTES per cycle per direction;
// both 4-byte operands come through the one read port and the result leaves
// through the write port, so the bound is min(64 / 8, 64 / 4) = 8 elements
// per cycle.
#include <fmt/format.h>

#include <algorithm>

#include "bench_groups.h"
#include "bench_models.h"
#include "fabric_run.h"
#include "nnfab_isa.h"
#include "models/model_builder.h"

namespace nnfab::bench {
namespace {

constexpr double kTargetEfficiencyPercent = 90.0;
constexpr double kElementBytes = sizeof(int32_t);
constexpr double kOperandsRead = 2;
constexpr double kResultsWritten = 1;

double addBoundElementsPerCycle() {
  const double beat = isa::kMEM_BEAT_BYTES;
  return std::min(beat / (kOperandsRead * kElementBytes), beat / (kResultsWritten * kElementBytes));
}

}  // namespace

Status runTensorGroup(const Context& context, Report& report) {
  auto device = context.open();
  if (!device.isOk()) return std::move(device).takeStatus();
  const uint32_t n = context.sizes.addElements;
  std::vector<int32_t> a(n), b(n);
  for (uint32_t i = 0; i < n; ++i) {
    a[i] = static_cast<int32_t>(i * 2654435761u);
    b[i] = static_cast<int32_t>(i) - 5;
  }
  context.tell(fmt::format("elementwise ADD of {} INT32 on {}", n, context.device));
  auto run = runToCompletion(*device->backend, elementwiseAdd(n), {models::int32s({n}, a), models::int32s({n}, b)});
  if (!run.isOk()) return std::move(run).takeStatus().withContext("elementwise ADD");
  const std::vector<int32_t> c = models::values<int32_t>(run->outputs[0]);
  for (uint32_t i = 0; i < n; ++i) {
    const int32_t expected = static_cast<int32_t>(static_cast<uint32_t>(a[i]) + static_cast<uint32_t>(b[i]));
    if (c[i] != expected) return generalFailure(fmt::format("ADD element {} is {}, expected {}", i, c[i], expected));
  }

  const double cycles = static_cast<double>(run->report.cycles);
  const double perCycle = n / cycles;
  const double bound = addBoundElementsPerCycle();
  const nlohmann::ordered_json params = {{"elements", n}};
  report.add("add_int32.cycles", "cycles", cycles, "CYCLES of the whole execution (program load and halt included)")
      .with(params);
  report.add("add_int32.elements_per_cycle", "elements/cycle", perCycle, "elements / CYCLES").with(params);
  report
      .add("add_int32.bound_elements_per_cycle", "elements/cycle", bound,
           fmt::format("memory-port bound: {} bytes per cycle per port and direction; two 4-byte "
                       "operands on one read port, one result on the write port",
                       isa::kMEM_BEAT_BYTES))
      .from(Source::DERIVED)
      .with(params);
  report
      .add("add_int32.efficiency_percent", "%", 100.0 * perCycle / bound, "elements per cycle as a share of the bound")
      .against(atLeast(kTargetEfficiencyPercent))
      .with(params);
  report
      .add("add_int32.projected_gb_per_s_at_300mhz", "GB/s",
           n * (kOperandsRead + kResultsWritten) * kElementBytes / (cycles / (isa::kNOMINAL_CLOCK_MHZ * 1e6)) / 1e9,
           "bytes read and written per second at 300 MHz")
      .from(Source::DERIVED)
      .with(params);
  return Status::ok();
}

}  // namespace nnfab::bench
