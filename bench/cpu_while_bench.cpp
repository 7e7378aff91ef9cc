// Cost of one WHILE iteration on the CPU executor (issue: ≥ 20× faster than
// ONNX Runtime's ~1.5 µs per Loop iteration on these machines).
// Reported as ns_per_iter: wall time of a whole execution divided by n.
#include <benchmark/benchmark.h>

#include <chrono>

#include "cpu/cpu_executor.h"
#include "models/loop_models.h"
#include "models/model_builder.h"

namespace {

using nnfab::ExecutionOptions;
using nnfab::cpu::CpuExecutor;

void runLoop(benchmark::State& state, bool accumulate) {
  auto prepared = CpuExecutor::prepare(nnfab::models::counterLoop(accumulate));
  if (!prepared.isOk()) {
    state.SkipWithError(prepared.status().message().c_str());
    return;
  }
  const auto& executor = *prepared.value();
  const int32_t n = static_cast<int32_t>(state.range(0));
  const std::vector<nnfab::TensorValue> inputs = {nnfab::models::int32s({1}, {n})};
  ExecutionOptions options;
  options.loopTimeout = nnfab::kLoopTimeoutMaximum;
  double totalNs = 0;
  for (auto _ : state) {
    const auto start = std::chrono::steady_clock::now();
    const auto result = executor.execute(inputs, options);
    totalNs += std::chrono::duration<double, std::nano>(std::chrono::steady_clock::now() - start)
                   .count();
    if (!result.status.isOk()) {
      state.SkipWithError(result.status.message().c_str());
      return;
    }
    benchmark::DoNotOptimize(result.outputs.data());
  }
  state.counters["ns_per_iter"] = totalNs / (static_cast<double>(state.iterations()) * n);
}

// cond LESS i n, body ADD i 1.
void BM_CpuCounterLoop(benchmark::State& state) { runLoop(state, false); }
// The same plus ADD acc i in the body.
void BM_CpuAccumulatorLoop(benchmark::State& state) { runLoop(state, true); }

// One execution of a one-iteration loop: the fixed cost of an execution.
void BM_CpuExecutionOverhead(benchmark::State& state) { runLoop(state, false); }

BENCHMARK(BM_CpuCounterLoop)->Arg(1000)->Arg(1000000)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_CpuAccumulatorLoop)->Arg(1000)->Arg(1000000)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_CpuExecutionOverhead)->Arg(1)->Unit(benchmark::kMicrosecond);

}  // namespace

BENCHMARK_MAIN();
