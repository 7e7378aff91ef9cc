// nnfab_qos_bench: prints the QoS table of docs/performance.md ("Quality of
// service"); stdout carries only the table.
#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include <cstdio>

#include "bench/qos/qos_bench.h"

int main(int argc, char** argv) {
  nnfab::bench::QosBenchOptions options;
  CLI::App app{"QoS of the hls device: HIGH latency under LOW load, with and without preemption"};
  int64_t gapUs = options.gap.count();
  int64_t deadlineUs = options.deadline.count();
  app.add_option("--samples", options.samples, "HIGH executions per configuration")->check(CLI::PositiveNumber);
  app.add_option("--low-threads", options.lowThreads, "LOW executions kept in flight")->check(CLI::PositiveNumber);
  app.add_option("--low-iterations", options.lowIterations, "iterations of each LOW execution")
      ->check(CLI::PositiveNumber);
  app.add_option("--gap-us", gapUs, "pause between HIGH executions")->check(CLI::NonNegativeNumber);
  app.add_option("--deadline-us", deadlineUs, "deadline of the HIGH executions that count misses")
      ->check(CLI::PositiveNumber);
  CLI11_PARSE(app, argc, argv);
  options.gap = std::chrono::microseconds(gapUs);
  options.deadline = std::chrono::microseconds(deadlineUs);
  const auto rows = nnfab::bench::runQosBench(options);
  fmt::print("{}", nnfab::bench::formatQosTable(options, rows));
  for (const auto& row : rows) {
    if (row.failures != 0) {
      fmt::print(stderr, "nnfab_qos_bench: {} HIGH executions failed in '{}'\n", row.failures, row.configuration);
      return 1;
    }
  }
  return 0;
}
