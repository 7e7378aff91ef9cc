// FLOAT32 on the fabric (docs/isa.md "FC", docs/bench.md "fc"): the
// multiply-accumulates per cycle of one FULLY_CONNECTED layer against the
// data port's bound, the cycle model's figure for the same instruction, and
// the cycles per iteration of the two FLOAT32 loops users see first
// (examples/while_fib.json, examples/rnn_loop.json). At batch 1 every MAC
// needs one 4-byte weight through the 64-byte read port, so the port allows
// 16 MACs per cycle; larger batches reuse a weight row per batch row only in
// the RTL's buffer, which the model does not assume. A device whose FEATURES
// lack FLOAT32 (sim until its FP units land) gets a note and no figures.
#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "bench_groups.h"
#include "bench_models.h"
#include "fabric_run.h"
#include "isa/cycle_model.h"
#include "models/model_builder.h"
#include "nnfab_isa.h"

namespace nnfab::bench {
namespace {

constexpr double kWeightBytes = sizeof(float);
constexpr double kTargetEfficiencyPercent = 90.0;  // of the port bound, batch 1

// The FULLY_CONNECTED contract: +0, products rounded then added in
// increasing i, then the bias.
std::vector<float> referenceFc(const std::vector<float>& x, const Model& model, uint32_t batch, uint32_t units,
                               uint32_t inputSize) {
  const Operation& op = model.main.operations[0];
  const auto& wBytes = model.main.operands[op.inputs[1]].value;
  const auto& bBytes = model.main.operands[op.inputs[2]].value;
  std::vector<float> w(wBytes.size() / 4), b(bBytes.size() / 4);
  std::memcpy(w.data(), wBytes.data(), wBytes.size());
  std::memcpy(b.data(), bBytes.data(), bBytes.size());
  std::vector<float> out(size_t{batch} * units);
  for (uint32_t r = 0; r < batch; ++r) {
    for (uint32_t u = 0; u < units; ++u) {
      volatile float acc = 0.0f;
      for (uint32_t i = 0; i < inputSize; ++i) {
        const volatile float p = x[size_t{r} * inputSize + i] * w[size_t{u} * inputSize + i];
        acc = acc + p;
      }
      out[size_t{r} * units + u] = acc + b[u];
    }
  }
  return out;
}

Status fcLayer(const Context& context, fabric::FabricBackend& backend, Report& report, uint32_t batch) {
  const uint32_t n = context.sizes.fcSize;
  const Model model = fullyConnected(batch, n, n);
  std::vector<float> x(size_t{batch} * n);
  for (size_t i = 0; i < x.size(); ++i) x[i] = static_cast<float>(static_cast<int>(i % 13) - 6) / 8.0f;
  context.tell(fmt::format("FULLY_CONNECTED batch {} {}x{} on {}", batch, n, n, context.device));
  auto run = runToCompletion(backend, model, {models::floats({batch, n}, x)});
  if (!run.isOk()) return std::move(run).takeStatus().withContext("FULLY_CONNECTED");
  const std::vector<float> got = models::values<float>(run->outputs[0]);
  const std::vector<float> want = referenceFc(x, model, batch, n, n);
  for (size_t i = 0; i < want.size(); ++i) {
    if (std::memcmp(&got[i], &want[i], sizeof(float)) != 0) {
      return generalFailure(fmt::format("FC output {} is {}, expected {}", i, got[i], want[i]));
    }
  }
  const double cycles = static_cast<double>(run->report.cycles);
  const double macs = double{1} * batch * n * n;
  const double perCycle = macs / cycles;
  const double bound = isa::kMEM_BEAT_BYTES / kWeightBytes;
  const uint64_t model_ = hls::cycleCost(hls::kDefaultCycleParams, hls::CycleQuery{hls::kCycleFc, batch, n, n, 0});
  const std::string id = fmt::format("fc_b{}", batch);
  const nlohmann::ordered_json params = {{"batch", batch}, {"units", n}, {"input_size", n}};
  report.add(id + ".cycles", "cycles", cycles, "CYCLES of the whole execution (program load and halt included)")
      .with(params);
  report.add(id + ".macs_per_cycle", "MAC/cycle", perCycle, "batch * units * input_size / CYCLES").with(params);
  report
      .add(id + ".port_bound_macs_per_cycle", "MAC/cycle", bound,
           fmt::format("one 4-byte weight per MAC through the {}-byte read port", isa::kMEM_BEAT_BYTES))
      .from(Source::DERIVED)
      .with(params);
  auto& eff = report.add(id + ".efficiency_percent", "%", 100.0 * perCycle / bound,
                         "MAC/cycle as a share of the port bound");
  eff.with(params);
  if (batch == 1) eff.against(atLeast(kTargetEfficiencyPercent));
  report
      .add(id + ".model_fc_cycles", "cycles", static_cast<double>(model_),
           "the cycle model's fc formula for this instruction (docs/isa.md)")
      .from(Source::DERIVED)
      .with(params);
  report
      .add(id + ".cycles_beyond_model", "cycles", cycles - static_cast<double>(model_),
           "measured CYCLES minus the model's FC: program load, the few scalar instructions and HALT")
      .with(params);
  return Status::ok();
}

Status loopPerIteration(const Context& context, fabric::FabricBackend& backend, Report& report,
                        const std::string& id, const Model& model, const std::vector<TensorValue>& inputs,
                        uint32_t n) {
  context.tell(fmt::format("{} n={} on {}", id, n, context.device));
  auto run = runToCompletion(backend, model, inputs);
  if (!run.isOk()) return std::move(run).takeStatus().withContext(id);
  const double cycles = static_cast<double>(run->report.cycles);
  const double iterations = static_cast<double>(run->report.iterations);
  const nlohmann::ordered_json params = {{"n", n}};
  report.add(id + ".cycles", "cycles", cycles, "CYCLES of the whole execution").with(params);
  report.add(id + ".iterations", "iterations", iterations, "ITERATIONS (back edges taken)").with(params);
  report
      .add(id + ".cycles_per_iteration", "cycles", iterations > 0 ? cycles / iterations : 0.0,
           "CYCLES / ITERATIONS: the loop body's FLOAT32 work plus its loop overhead")
      .with(params);
  report
      .add(id + ".projected_us_at_300mhz", "us", cycles / isa::kNOMINAL_CLOCK_MHZ, "CYCLES at 300 MHz")
      .from(Source::DERIVED)
      .with(params);
  return Status::ok();
}

}  // namespace

Status runFcGroup(const Context& context, Report& report) {
  auto device = context.open();
  if (!device.isOk()) return std::move(device).takeStatus();
  fabric::FabricBackend& backend = *device->backend;
  if ((backend.readRegister(isa::kRegFEATURES) & isa::kFEATURE_FLOAT32) == 0) {
    report.note("fc", context.device + ": FEATURES has no FLOAT32 (the core stops FLOAT32 instructions with "
                                       "ILLEGAL_INSTRUCTION), so the group measures nothing here");
    return Status::ok();
  }
  if (Status s = fcLayer(context, backend, report, 1); !s.isOk()) return s;
  if (Status s = fcLayer(context, backend, report, context.sizes.fcBatch); !s.isOk()) return s;
  const uint32_t fibN = context.sizes.fibN;
  if (Status s = loopPerIteration(context, backend, report, "while_fib", whileFib(),
                                  {models::int32s({1}, {static_cast<int32_t>(fibN)})}, fibN);
      !s.isOk()) {
    return s;
  }
  const uint32_t steps = context.sizes.rnnSteps;
  return loopPerIteration(context, backend, report, "rnn_loop", rnnLoop(4),
                          {models::floats({1, 4}, {0.5f, -1.0f, 0.25f, 2.0f}),
                           models::int32s({1}, {static_cast<int32_t>(steps)})},
                          steps);
}

}  // namespace nnfab::bench
