// Cycles from budget expiry to halt, for both fabric watchdogs, on the endless
// loop `while (i >= 0) i = i + 0`:
// - EXEC_BUDGET = B: the budget expires at CYCLES = B (the stop condition is
//   CYCLES >= EXEC_BUDGET); latency = the halt's CYCLES - B.
// - LOOP_BUDGET = B: a first start stops after a few instructions (SLICE_END,
//   past WDARM), and its saved context gives LOOP_START; the resumed run
//   expires at CYCLES = LOOP_START + B + 1 (CYCLES - LOOP_START > LOOP_BUDGET);
//   latency = the halt's CYCLES - that.
// CoreDriver programs the budgets from a deadline and a loop timeout at the
// backend's clock; ProbeBackend reports a ~1 kHz clock, so
// the budgets are small exact cycle counts while the host's wall-clock
// watchdogs are seconds away, and it records the values really written.
#include <fmt/format.h>

#include "bench_groups.h"
#include "fabric/core_status.h"
#include "compiler/compiler.h"
#include "fabric/step_runner.h"
#include "nnfab_isa.h"
#include "probe_backend.h"
#include "models/loop_models.h"
#include "models/model_builder.h"

namespace nnfab::bench {
namespace {

constexpr double kTargetHaltCycles = 16.0;
// 1/1024 MHz: one cycle per 1.024 ms, exact in binary floating point, so
// that CoreDriver's rounding up gives exactly the budget asked for.
constexpr double kProbeClockMhz = 1.0 / 1024;
constexpr int64_t kNanosPerProbeCycle = 1024000;

std::chrono::nanoseconds durationOfCycles(uint64_t cycles) {
  return std::chrono::nanoseconds(static_cast<int64_t>(cycles) * kNanosPerProbeCycle);
}

Status expectStop(const fabric::RunReport& report, uint32_t status) {
  if (report.coreStatus == status) return Status::ok();
  return generalFailure(fmt::format("the core stopped with {} ({}), expected {}",
                                    fabric::coreStatusName(report.coreStatus), report.status.message(),
                                    fabric::coreStatusName(status)));
}

Result<double> execBudgetLatency(ProbeBackend& probe, const compiler::Program& program,
                                 const std::vector<TensorValue>& inputs, uint64_t budget) {
  auto run = fabric::LoadedStep::load(probe, program, fabric::stepInputs(inputs));
  if (!run.isOk()) return std::move(run).takeStatus();
  fabric::CoreDriver driver(probe);
  fabric::RunLimits limits;
  limits.deadline = std::chrono::steady_clock::now() + durationOfCycles(budget);
  auto report = run->run(driver, limits);
  if (!report.isOk()) return std::move(report).takeStatus();
  if (Status s = expectStop(*report, isa::kStatusEXEC_TIMEOUT); !s.isOk()) return s;
  const uint64_t written = probe.written64(isa::kRegEXEC_BUDGET);
  return static_cast<double>(report->cycles) - static_cast<double>(written);
}

Result<double> loopBudgetLatency(ProbeBackend& probe, const compiler::Program& program,
                                 const std::vector<TensorValue>& inputs, uint64_t budget) {
  auto run = fabric::LoadedStep::load(probe, program, fabric::stepInputs(inputs));
  if (!run.isOk()) return std::move(run).takeStatus();
  fabric::CoreDriver driver(probe);
  fabric::RunLimits limits;
  limits.loopTimeout = durationOfCycles(budget);
  // Past the prologue and WDARM, into the loop: the program is straight-line
  // up to the loop, so its length in instructions is enough.
  limits.insnLimit = static_cast<uint32_t>(program.code.size()) + 8;
  auto first = run->run(driver, limits);
  if (!first.isOk()) return std::move(first).takeStatus();
  if (Status s = expectStop(*first, isa::kStatusSLICE_END); !s.isOk()) return std::move(s).withContext("first slice");
  auto context = run->savedContext();
  if (!context.isOk()) return std::move(context).takeStatus();
  if ((*context)[isa::kCtxWD_ARMED] != 1)
    return generalFailure("the loop watchdog was not armed after the first slice");
  const uint64_t loopStart = (uint64_t{(*context)[isa::kCtxLOOP_START + 1]} << 32) | (*context)[isa::kCtxLOOP_START];

  limits.insnLimit.reset();
  auto report = run->run(driver, limits, /*resume=*/true);
  if (!report.isOk()) return std::move(report).takeStatus();
  if (Status s = expectStop(*report, isa::kStatusLOOP_TIMEOUT); !s.isOk()) return s;
  const uint64_t written = probe.written64(isa::kRegLOOP_BUDGET);
  if (written != budget) return generalFailure(fmt::format("LOOP_BUDGET was {}, expected {}", written, budget));
  return static_cast<double>(report->cycles) - static_cast<double>(loopStart + written + 1);
}

}  // namespace

Status runWatchdogGroup(const Context& context, Report& report) {
  auto device = context.open();
  if (!device.isOk()) return std::move(device).takeStatus();
  ProbeBackend probe(std::move(device->backend), kProbeClockMhz);
  const std::vector<TensorValue> inputs = {models::int32s({1}, {1})};
  auto program = compiler::compileMain(models::infiniteLoop(), inputs);
  if (!program.isOk()) return std::move(program).takeStatus();
  const uint64_t budget = context.sizes.watchdogBudget;
  const nlohmann::ordered_json params = {{"budget_cycles", budget}};

  context.tell(fmt::format("EXEC_BUDGET {} cycles on an endless loop on {}", budget, context.device));
  auto exec = execBudgetLatency(probe, *program, inputs, budget);
  if (!exec.isOk()) return std::move(exec).takeStatus().withContext("EXEC_BUDGET");
  report
      .add("watchdog.exec_budget_halt_cycles", "cycles", *exec,
           "halt's CYCLES - EXEC_BUDGET (EXEC_TIMEOUT on an endless loop)")
      .against(atMost(kTargetHaltCycles))
      .with({{"budget_cycles", probe.written64(isa::kRegEXEC_BUDGET)}});

  context.tell(fmt::format("LOOP_BUDGET {} cycles on an endless loop on {}", budget, context.device));
  auto loop = loopBudgetLatency(probe, *program, inputs, budget);
  if (!loop.isOk()) return std::move(loop).takeStatus().withContext("LOOP_BUDGET");
  report
      .add("watchdog.loop_budget_halt_cycles", "cycles", *loop,
           "halt's CYCLES - (LOOP_START + LOOP_BUDGET + 1) (LOOP_TIMEOUT on an endless loop)")
      .against(atMost(kTargetHaltCycles))
      .with(params);
  if (!device->cycleAccurate()) {
    report.note("watchdog",
                "hls checks the budgets at instruction boundaries of its cycle model: the latency is "
                "what remains of the instruction in flight when the budget expires");
  }
  return Status::ok();
}

}  // namespace nnfab::bench
