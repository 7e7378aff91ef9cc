// `nnfab bench`: the fabric's figures of merit (bench/, docs/bench.md) as a
// table on stdout and, with --json, a file for tools. Progress goes to stderr.
#include <fmt/format.h>

#include <fstream>
#include <memory>

#include "bench/bench_groups.h"
#include "bench/bench_run.h"
#include "bench/qos/qos_bench.h"
#include "cli/commands.h"
#include "cli/file_io.h"
#ifdef NNFAB_HAS_XRT_DEVICE
#include "runtime/xrt_device.h"
#endif

namespace nnfab::cli {
namespace {

struct BenchArgs {
  std::string device;
  std::string xclbin;
  std::string jsonPath;
  bool quick = false;
  bool qos = false;
  std::vector<std::string> only;
};

std::string groupList() {
  std::string names;
  for (const bench::Group& g : bench::benchGroups()) names += (names.empty() ? "" : ", ") + g.name;
  return names;
}

// --qos: HIGH latency while LOW work saturates the hls core, with and
// without preemption (bench/qos, docs/qos.md).
int runQos(const BenchArgs& args, std::ofstream& json) {
  bench::QosBenchOptions options;
  if (args.quick) {
    options.samples = 30;
    options.lowIterations = 400000;
  }
  fmt::print(stderr, "nnfab bench: QoS on hls, {} HIGH samples per configuration\n", options.samples);
  const std::vector<bench::QosBenchRow> rows = bench::runQosBench(options);
  fmt::print("{}", bench::formatQosTable(options, rows));
  uint64_t failures = 0;
  if (json.is_open()) {
    nlohmann::ordered_json out = nlohmann::ordered_json::array();
    for (const bench::QosBenchRow& r : rows) {
      out.push_back({{"configuration", r.configuration}, {"high_p50_ms", r.p50Ms}, {"high_p99_ms", r.p99Ms},
                     {"high_max_ms", r.maxMs}, {"deadline_miss_rate", r.missRate},
                     {"preemptions", r.preemptions}, {"failures", r.failures}});
    }
    json << nlohmann::ordered_json{{"qos", out}}.dump(2) << "\n";
    json.close();
    if (!json) return usageError(fmt::format("--json {}: writing failed", args.jsonPath));
  }
  for (const bench::QosBenchRow& r : rows) failures += r.failures;
  if (failures != 0) {
    fmt::print(stderr, "nnfab bench: {} HIGH executions without a deadline failed\n", failures);
    return kExitErrorStatus;
  }
  return kExitOk;
}

int runBench(const BenchArgs& args) {
  // Open the JSON file first: a typo in the path should not cost a whole run.
  std::ofstream json;
  if (!args.jsonPath.empty()) {
    json.open(args.jsonPath, std::ios::binary | std::ios::trunc);
    if (!json) return usageError(fmt::format("--json {}: cannot write this file", args.jsonPath));
  }
  if (args.qos) {
    if (!args.device.empty() && args.device != "hls") {
      return usageError("--qos measures the hls device only; drop --device or use --device hls");
    }
    if (!args.only.empty()) return usageError("--qos and --only do not go together");
    return runQos(args, json);
  }
#ifdef NNFAB_HAS_XRT_DEVICE
  if (!args.xclbin.empty()) setXrtXclbin(args.xclbin);
#endif
  bench::BenchOptions options;
  options.device = args.device;
  options.quick = args.quick;
  options.only = args.only;
  options.progress = [](const std::string& line) { fmt::print(stderr, "nnfab bench: {}\n", line); };
  auto outcome = bench::runBench(options);
  if (!outcome.isOk()) {
    // A wrong name or xclbin is a usage problem; a card XRT cannot open is a
    // device status, as for `nnfab run`.
    if (outcome.status().code() == ErrorStatus::INVALID_ARGUMENT) return usageError(outcome.status().message());
    fmt::print(stderr, "nnfab bench: {}: {}\n", toString(outcome.status().code()), outcome.status().message());
    return kExitErrorStatus;
  }

  const nlohmann::ordered_json& header = outcome->header;
  fmt::print("nnfab bench on {}{} (projections at {} MHz)\n\n", header["device"].get<std::string>(),
             args.quick ? ", --quick sizes" : "", header["projection_clock_mhz"].get<double>());
  fmt::print("{}", outcome->report.toTable());
  if (json.is_open()) {
    json << outcome->report.toJson(header).dump(2) << "\n";
    json.close();
    if (!json) return usageError(fmt::format("--json {}: writing failed", args.jsonPath));
  }
  if (outcome->report.hasErrors()) {
    fmt::print(stderr, "nnfab bench: some benchmarks failed (see Errors above)\n");
    return kExitErrorStatus;
  }
  return kExitOk;
}

}  // namespace

std::function<int()> addBenchCommand(CLI::App& app) {
  auto args = std::make_shared<BenchArgs>();
  CLI::App* cmd =
      app.add_subcommand("bench",
                         "Measure the fabric: cycles per WHILE iteration, IF dispatch, tensor throughput, watchdog and "
                         "preemption latency, simulation speed, host overhead (docs/bench.md)");
  cmd->add_option("--device", args->device,
                  "Fabric device to measure; default: the default device if it is a fabric device, else hls");
  cmd->add_option("--xclbin", args->xclbin, "The xclbin --device xrt[:N] loads (default: $NNFAB_XCLBIN)");
  cmd->add_option("--json", args->jsonPath, "Also write every metric as JSON to this file");
  cmd->add_flag("--quick", args->quick, "Small problem sizes (a few seconds; for tests)");
  cmd->add_flag("--qos", args->qos,
                "Instead: latency of HIGH executions (p50/p99) while LOW work saturates the hls device, with and "
                "without preemption, and the deadline-miss rate (docs/qos.md)");
  cmd->add_option("--only", args->only,
                  "Run only these benchmark groups (repeatable or comma-separated): " + groupList())
      ->delimiter(',');
  return [args] { return runBench(*args); };
}

}  // namespace nnfab::cli
