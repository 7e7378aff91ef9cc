// `nnfab bench` without the command line: checks the options, runs the chosen
// groups on the chosen device, and returns the report.
#pragma once

#include <functional>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "model/status.h"
#include "report.h"

namespace nnfab::bench {

struct BenchOptions {
  std::string device;             // empty: defaultBenchDevice()
  bool quick = false;             // small sizes (tests)
  std::vector<std::string> only;  // group names; empty: every group that runs by default
  std::function<void(const std::string&)> progress;
};

struct BenchOutcome {
  nlohmann::ordered_json header;  // schema_version, device, quick, groups, projection clock
  Report report;
};

// INVALID_ARGUMENT (nothing ran) for a device that is not a fabric device of
// this build or an unknown group name. A group that fails is recorded in the
// report's errors and the others still run.
Result<BenchOutcome> runBench(const BenchOptions& options);

}  // namespace nnfab::bench
