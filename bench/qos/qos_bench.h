// The QoS measurement behind `nnfab_qos_bench` (and `nnfab bench --qos`):
// on a fresh hls device, the latency of HIGH executions while LOW work of
// the same client saturates the core, with and without preemption, and the
// deadline-miss rate of HIGH executions under that load. See
// docs/performance.md "Quality of service".
#pragma once

#include <chrono>
#include <cstdint>
#include <string>
#include <vector>

namespace nnfab::bench {

struct QosBenchOptions {
  uint32_t samples = 200;            // HIGH executions per configuration
  uint32_t lowThreads = 2;           // LOW executions kept in flight
  int32_t lowIterations = 4000000;   // counter-loop iterations of each LOW execution
  int32_t highIterations = 1000;     // of each HIGH execution
  std::chrono::microseconds gap{2000};       // between HIGH submissions
  std::chrono::microseconds deadline{5000};  // HIGH deadline for the miss rate
};

struct QosBenchRow {
  std::string configuration;  // "preemption" / "no preemption" / "idle device"
  double p50Ms = 0;
  double p99Ms = 0;
  double maxMs = 0;
  double missRate = 0;  // of HIGH executions with the deadline, MISSED_DEADLINE_*
  uint64_t preemptions = 0;
  uint64_t failures = 0;  // HIGH executions without a deadline that did not succeed (must be 0)
  // With NNFAB_LATENCY_PROBE=1 (fabric/latency_probe.h): the latency split
  // at the hand-offs, a Markdown table; empty otherwise.
  std::string phases;
};

std::vector<QosBenchRow> runQosBench(const QosBenchOptions& options);

// A Markdown table of the rows, with the options in a caption line.
std::string formatQosTable(const QosBenchOptions& options, const std::vector<QosBenchRow>& rows);

}  // namespace nnfab::bench
