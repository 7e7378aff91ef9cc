// The benchmark groups of `nnfab bench`: each measures a few related metrics
// on a fresh backend of the chosen device and files them in the Report. A new
// group (e.g. the QoS latency group) is one entry in benchGroups() plus its
// file; groups with `byDefault` false run only when named (--only NAME).
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "bench_device.h"
#include "model/status.h"
#include "report.h"

namespace nnfab::bench {

// Problem sizes: the full run of the issue, or --quick for tests.
struct Sizes {
  uint32_t loopN1 = 1000;  // counter/accumulator loops
  uint32_t loopN2 = 1000000;
  uint32_t ifN1 = 1000;  // IF inside a loop
  uint32_t ifN2 = 100000;
  uint32_t addElements = 1u << 20;  // elementwise ADD
  uint64_t watchdogBudget = 20000;  // cycles
  uint32_t hostExecutions = 5000;   // tiny model, host overhead
  uint32_t cosimN = 100000;         // counter loop run on sim and hls for the wall-time ratio
  uint32_t fcSize = 256;            // FULLY_CONNECTED units = input_size (batch 1 and fcBatch)
  uint32_t fcBatch = 4;
  uint32_t fibN = 1000;             // while_fib iterations
  uint32_t rnnSteps = 1000;         // rnn_loop time steps
  uint32_t cpuLoopN2 = 100000;      // CPU executor loops: n = loopN1 vs this
  uint32_t profileRuns = 31;        // executions with and without a profile, each (least kept)

  static Sizes full() { return {}; }
  static Sizes quick();
};

struct Context {
  std::string device;  // a name from benchDeviceNames()
  bool quick = false;
  Sizes sizes;
  // One line of progress for stderr ("counter loop n=1000000 on hls").
  std::function<void(const std::string&)> progress;

  // A fresh backend of the device (each group opens its own).
  Result<BenchDevice> open() const { return openBenchDevice(device); }
  void tell(const std::string& line) const {
    if (progress) progress(line);
  }
};

struct Group {
  std::string name;
  std::string description;
  bool byDefault = true;
  // Adds metrics and notes to the report (its group is already set); a
  // non-OK status is recorded as the group's error, and the other groups
  // still run.
  std::function<Status(const Context&, Report&)> run;
};

// Every group, in the order the table shows them.
const std::vector<Group>& benchGroups();

// The groups themselves, one file each (group_*.cpp).
Status runLoopsGroup(const Context& context, Report& report);
Status runIfGroup(const Context& context, Report& report);
Status runTensorGroup(const Context& context, Report& report);
Status runWatchdogGroup(const Context& context, Report& report);
Status runPreemptGroup(const Context& context, Report& report);
Status runCosimGroup(const Context& context, Report& report);
Status runHostGroup(const Context& context, Report& report);
Status runFcGroup(const Context& context, Report& report);
Status runCpuGroup(const Context& context, Report& report);
Status runCacheGroup(const Context& context, Report& report);
Status runElemGroup(const Context& context, Report& report);
Status runProfileGroup(const Context& context, Report& report);

}  // namespace nnfab::bench
