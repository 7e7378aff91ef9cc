// Cycles from a preemption request to the saved context. The endless loop is
// preempted through CoreDriver's preemptRequested hook (the host writes
// PREEMPT at its first poll). A cycle-accurate device (sim) stamps the run in
// ap_clk cycles: PREEMPT written and ap_done after the context is saved. The
// hls core has no clock between instruction boundaries, so there the figure
// is the cycle model's: the context write (context_io), after at most the
// one instruction in flight.
#include <fmt/format.h>

#include "bench_groups.h"
#include "isa/cycle_model.h"
#include "fabric/core_status.h"
#include "compiler/compiler.h"
#include "fabric/step_runner.h"
#include "nnfab_isa.h"
#include "models/loop_models.h"
#include "models/model_builder.h"

namespace nnfab::bench {

Status runPreemptGroup(const Context& context, Report& report) {
  auto device = context.open();
  if (!device.isOk()) return std::move(device).takeStatus();
  const std::vector<TensorValue> inputs = {models::int32s({1}, {1})};
  auto program = compiler::compileMain(models::infiniteLoop(), inputs);
  if (!program.isOk()) return std::move(program).takeStatus();
  const uint32_t programBytes = static_cast<uint32_t>(program->code.size() * isa::kINSTRUCTION_BYTES);
  auto run = fabric::LoadedStep::load(*device->backend, *program, fabric::stepInputs(inputs));
  if (!run.isOk()) return std::move(run).takeStatus();
  fabric::CoreDriver driver(*device->backend);

  context.tell(fmt::format("preempting an endless loop on {}", context.device));
  fabric::RunLimits limits;
  limits.preemptRequested = [] { return true; };
  auto stopped = run->run(driver, limits);
  if (!stopped.isOk()) return std::move(stopped).takeStatus();
  if (stopped->coreStatus != isa::kStatusPREEMPTED) {
    return generalFailure(fmt::format("the core stopped with {}, expected PREEMPTED ({})",
                                      fabric::coreStatusName(stopped->coreStatus), stopped->status.message()));
  }

  const hls::CycleParams params = hls::kDefaultCycleParams;
  if (device->lastRunEvents) {
    const std::optional<RunEvents> events = device->lastRunEvents();
    if (!events || !events->preemptWritten) return generalFailure("the device recorded no PREEMPT write");
    const double cycles = static_cast<double>(events->done - *events->preemptWritten);
    report
        .add("preempt.request_to_saved_cycles", "cycles", cycles,
             "ap_clk cycles from the PREEMPT write to ap_done with the context saved")
        .with({{"preempt_written_cycle", *events->preemptWritten}, {"done_cycle", events->done}});
  } else {
    const double cycles = static_cast<double>(hls::cycleCost(params, {hls::kCycleContextIo, 0, 0, 0, 0}));
    report
        .add("preempt.request_to_saved_cycles", "cycles", cycles,
             "cycle model: context_io (mem_latency + CONTEXT_BYTES / 64), after the instruction "
             "in flight; the preemption itself was exercised (PREEMPTED)")
        .from(Source::MODEL)
        .with({{"mem_latency", params.mem_latency}});
    report.note("preempt",
                "hls: no cycle stamps between instruction boundaries, so the preemption latency is the "
                "cycle model's context_io; the sim device measures it in ap_clk cycles");
  }
  report
      .add("preempt.resume_overhead_cycles", "cycles",
           static_cast<double>(hls::resumeOverheadCycles(params, programBytes)),
           "cycle model: save + program reload + restore, what one preemption costs beyond CYCLES")
      .from(Source::MODEL)
      .with({{"program_bytes", programBytes}});
  return Status::ok();
}

}  // namespace nnfab::bench
