// Cycles from a ready IF condition to the first instruction of the branch.
// The counters cannot timestamp one instruction, so the IF is measured by
// difference: the loop `t = IF c THEN i + 1 ELSE i - 1; acc += t` against the
// same loop computing t = i + 1 (or i - 1) without the IF, each per iteration
// (marginal over two trip counts, so program load and prologue cancel). c is
// a loop-invariant BOOL8 input held in a register: the condition is ready
// before the IF. The else figure is exactly the dispatch (the branch to the
// else code; nothing follows it); the then figure is the dispatch plus the
// jump over the else code, an upper bound.
#include <fmt/format.h>

#include "bench_groups.h"
#include "bench_models.h"
#include "fabric_run.h"
#include "models/model_builder.h"

namespace nnfab::bench {
namespace {

// A design target (docs/bench.md "Launch costs: where the figures come from").
constexpr double kTargetDispatchCycles = 8.0;

struct PerIteration {
  double cycles = 0;
  double instructions = 0;
};

Result<fabric::RunReport> runOnce(fabric::FabricBackend& backend, bool withIf, bool thenBranch, uint32_t n) {
  const std::vector<TensorValue> inputs = {models::int32s({1}, {static_cast<int32_t>(n)}),
                                           models::bools({1}, {static_cast<uint8_t>(thenBranch ? 1 : 0)})};
  auto run = runToCompletion(backend, ifInLoop(withIf, thenBranch), inputs);
  if (!run.isOk()) return std::move(run).takeStatus();
  uint32_t expected = 0;  // wraps like the fabric's INT32
  for (uint32_t i = 0; i < n; ++i) expected += thenBranch ? i + 1 : i - 1;
  const int32_t acc = models::values<int32_t>(run->outputs[1])[0];
  if (acc != static_cast<int32_t>(expected)) {
    return generalFailure(fmt::format("acc = {}, expected {}", acc, static_cast<int32_t>(expected)));
  }
  return run->report;
}

Result<PerIteration> marginal(const Context& context, fabric::FabricBackend& backend, bool withIf, bool thenBranch) {
  const uint32_t n1 = context.sizes.ifN1, n2 = context.sizes.ifN2;
  context.tell(fmt::format("loop {} IF ({} branch), n={} and {} on {}", withIf ? "with" : "without",
                           thenBranch ? "then" : "else", n1, n2, context.device));
  auto a = runOnce(backend, withIf, thenBranch, n1);
  if (!a.isOk()) return std::move(a).takeStatus();
  auto b = runOnce(backend, withIf, thenBranch, n2);
  if (!b.isOk()) return std::move(b).takeStatus();
  const double dn = static_cast<double>(n2 - n1);
  return PerIteration{static_cast<double>(b->cycles - a->cycles) / dn,
                      static_cast<double>(b->instret - a->instret) / dn};
}

}  // namespace

Status runIfGroup(const Context& context, Report& report) {
  auto device = context.open();
  if (!device.isOk()) return std::move(device).takeStatus();
  const nlohmann::ordered_json params = {{"n1", context.sizes.ifN1}, {"n2", context.sizes.ifN2}};
  for (bool thenBranch : {true, false}) {
    const std::string branch = thenBranch ? "then" : "else";
    auto with = marginal(context, *device->backend, true, thenBranch);
    if (!with.isOk()) return std::move(with).takeStatus().withContext("loop with IF, " + branch + " branch");
    auto without = marginal(context, *device->backend, false, thenBranch);
    if (!without.isOk()) return std::move(without).takeStatus().withContext("loop without IF, " + branch);
    report
        .add(fmt::format("if.{}.overhead_cycles", branch), "cycles/IF", with->cycles - without->cycles,
             thenBranch ? "IF with the then branch taken minus no IF, per iteration: dispatch "
                          "plus the jump over the else code (upper bound of the dispatch)"
                        : "IF with the else branch taken minus no IF, per iteration: the "
                          "dispatch from ready condition to the else code's first instruction")
        .against(atMost(kTargetDispatchCycles))
        .with(params);
    report
        .add(fmt::format("if.{}.overhead_instructions", branch), "instructions/IF",
             with->instructions - without->instructions,
             "INSTRET difference per iteration: the instructions the IF adds")
        .with(params);
  }
  report.note("if",
              "IF cost by difference of marginal cycles per iteration: loop with `t = IF c THEN i+1 ELSE i-1` "
              "minus the same loop computing t directly; c is a loop-invariant BOOL8 input (ready in a "
              "register). else = exact dispatch; then = dispatch + jump over the else code.");
  return Status::ok();
}

}  // namespace nnfab::bench
