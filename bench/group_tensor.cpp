// Elementwise INT32 ADD of many elements: elements per cycle against what the
// memory ports allow. Each of the three data ports moves MEM_BEAT_BYTES per
// cycle (docs/isa.md "Memory model"): A comes through m_axi_data, B through
// m_axi_srcb, the result leaves through m_axi_dst, so the bound is
// 64 / 4 = 16 elements per cycle (one port for everything allowed 8).
#include <fmt/format.h>

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
// 4-byte streams per port: A on m_axi_data, B on m_axi_srcb, the result on m_axi_dst.
constexpr double kStreamsPerPort = 1;

double addBoundElementsPerCycle() { return isa::kMEM_BEAT_BYTES / (kStreamsPerPort * kElementBytes); }

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
           fmt::format("three-port bound: {} bytes per cycle per port; A on m_axi_data, B on m_axi_srcb, "
                       "the result on m_axi_dst, 4 bytes each",
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
