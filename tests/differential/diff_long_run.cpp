// nnfab_diff_long_run: the long differential run we report. Runs random
// models seed, seed+1, ..., seed+count-1 (differential::makeCase) on cpu and
// every other device (or those named by --device), compares each with cpu,
// and cpu with the oracle and with a JSON round trip. Progress goes to
// stderr, the summary to stdout. Exit 0 when nothing differs, 1 on any
// mismatch, 2 on a usage error.
//
//   nnfab_diff_long_run --count 10000 --seed 1000000 [--device hls]...
//                       [--no-oracle] [--no-round-trip] [--dump DIR | --dump-all DIR]
//                       [--verbose] [--shrink] [generator options]
// Generator options (--float, --no-hidden-shapes, --max-ops/-depth/-rank/-dim/
// -inputs/-outputs/-loop-bound N) replace the per-seed variation of makeCase: small
// values find the smallest models showing a bug. --shrink reduces each
// mismatching case (shrink.h) and prints the reduced model.
// --dump writes DIR/seed-S.model.json and .inputs.json for each mismatching
// seed (--dump-all: for every seed), to replay with `nnfab run`.
#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <string>
#include <vector>

#include <spdlog/sinks/base_sink.h>
#include <spdlog/spdlog.h>

#include <cctype>
#include <memory>
#include <mutex>

#include "differential/differential.h"
#include "differential/shrink.h"
#include "model/json_io.h"
#include "runtime/device.h"

namespace {

using nnfab::Device;
namespace diff = nnfab::differential;

struct Args {
  uint64_t count = 100;
  uint64_t seed = 0;
  std::vector<std::string> devices;
  bool oracle = true;
  bool roundTrip = true;
  bool verbose = false;
  bool dumpAll = false;
  bool shrink = false;
  uint64_t loopTimeoutMs = 10000;
  std::string dump;
  // Generator options; `custom` when any was given (then no variation by seed).
  nnfab::testing::RandomModelOptions options;
  bool custom = false;
};

void usage() {
  std::fprintf(stderr,
               "usage: nnfab_diff_long_run [--count N] [--seed S] [--device NAME]... [--no-oracle]\n"
               "                           [--no-round-trip] [--dump DIR | --dump-all DIR] [--verbose]\n"
               "                           [--loop-timeout-ms N] [--shrink] [--float] [--no-hidden-shapes] [--max-ops N]\n"
               "                           [--max-depth N] [--max-rank N] [--max-dim N]\n"
               "                           [--max-inputs N] [--max-outputs N] [--max-loop-bound N]\n"
               "Runs N random models (seeds S .. S+N-1) on cpu and the other devices and\n"
               "compares every result with cpu. Exit 1 on any mismatch.\n");
}

bool parseNumber(const char* text, uint64_t* out) {
  if (text == nullptr || *text == '\0') return false;
  char* end = nullptr;
  errno = 0;
  const unsigned long long v = std::strtoull(text, &end, 0);
  if (errno != 0 || *end != '\0' || text[0] == '-') return false;
  *out = v;
  return true;
}

bool parseArgs(int argc, char** argv, Args* args) {
  uint64_t number = 0;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    const char* next = i + 1 < argc ? argv[i + 1] : nullptr;
    if (a == "--count" && parseNumber(next, &args->count)) {
      ++i;
    } else if (a == "--seed" && parseNumber(next, &args->seed)) {
      ++i;
    } else if (a == "--device" && next) {
      args->devices.emplace_back(next);
      ++i;
    } else if (a == "--dump" && next) {
      args->dump = next;
      ++i;
    } else if (a == "--dump-all" && next) {
      args->dump = next;
      args->dumpAll = true;
      ++i;
    } else if (a == "--loop-timeout-ms" && parseNumber(next, &args->loopTimeoutMs)) {
      ++i;
    } else if (a == "--shrink") {
      args->shrink = true;
    } else if (a == "--float") {
      args->options.float32 = true;
      args->options.floatEdges = true;
      args->custom = true;
    } else if (a == "--no-hidden-shapes") {
      args->options.unknownShapePercent = 0;
      args->options.dynamicIfPercent = 0;
      args->custom = true;
    } else if (a.rfind("--max-", 0) == 0 && parseNumber(next, &number) && number <= 1000000) {
      auto& o = args->options;
      uint32_t* field = a == "--max-ops"       ? &o.maxOperations
                        : a == "--max-depth"   ? &o.maxDepth
                        : a == "--max-rank"    ? &o.maxRank
                        : a == "--max-dim"     ? &o.maxDimension
                        : a == "--max-inputs"  ? &o.maxInputs
                        : a == "--max-outputs" ? &o.maxOutputs
                        : a == "--max-loop-bound" ? &o.maxLoopBound
                                               : nullptr;
      if (field == nullptr) {
        std::fprintf(stderr, "nnfab_diff_long_run: unknown option '%s'\n", a.c_str());
        return false;
      }
      *field = static_cast<uint32_t>(number);
      args->custom = true;
      ++i;
    } else if (a == "--no-oracle") {
      args->oracle = false;
    } else if (a == "--no-round-trip") {
      args->roundTrip = false;
    } else if (a == "--verbose") {
      args->verbose = true;
    } else {
      std::fprintf(stderr, "nnfab_diff_long_run: bad argument '%s'\n", a.c_str());
      return false;
    }
  }
  return true;
}

// Counts the runtime's debug messages about fabric steps that ran on the CPU
// instead, grouped by reason with numbers masked, so that the summary shows
// how much of the run really exercised the fabric.
class FallbackCounter final : public spdlog::sinks::base_sink<std::mutex> {
 public:
  std::map<std::string, uint64_t> counts() {
    std::lock_guard<std::mutex> lock(mutex_);
    return counts_;
  }

 protected:
  void sink_it_(const spdlog::details::log_msg& msg) override {
    const std::string text(msg.payload.data(), msg.payload.size());
    for (const char* marker : {"not compiled for the fabric", "the fabric run failed"}) {
      const size_t at = text.find(marker);
      if (at == std::string::npos) continue;
      std::string reason = text.substr(at, 110);
      for (char& ch : reason) {
        if (std::isdigit(static_cast<unsigned char>(ch))) ch = '#';
      }
      ++counts_[reason];
    }
  }
  void flush_() override {}

 private:
  std::map<std::string, uint64_t> counts_;
};

struct PlanCensus {
  uint64_t models = 0, modelsOnFabric = 0, fabricSteps = 0, fabricOperations = 0, cpuSteps = 0;
  uint64_t interpretedIf = 0, interpretedWhile = 0;
};

void countPlan(const nnfab::runtime::Plan& plan, PlanCensus* census) {
  ++census->models;
  if (plan.usesFabric()) ++census->modelsOnFabric;
  for (const auto& sg : plan.subgraphs) {
    for (const auto& step : sg.steps) {
      switch (step.kind) {
        case nnfab::runtime::StepKind::FABRIC:
          ++census->fabricSteps;
          census->fabricOperations += step.operations.size();
          break;
        case nnfab::runtime::StepKind::CPU: ++census->cpuSteps; break;
        case nnfab::runtime::StepKind::IF: ++census->interpretedIf; break;
        case nnfab::runtime::StepKind::WHILE: ++census->interpretedWhile; break;
      }
    }
  }
}

void dumpCase(const std::string& dir, const std::string& name, const nnfab::Model& model,
              const std::vector<nnfab::TensorValue>& inputs) {
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  const std::string base = dir + "/" + name;
  std::ofstream(base + ".model.json") << nnfab::writeModel(model);
  // BOOL8 bytes other than 0/1 (odd seeds) are written as true: replay
  // such a case with this tool, not with `nnfab run`.
  std::ofstream(base + ".inputs.json") << nnfab::writeInputs(inputs);
}

// The case reduced while some device still disagrees with cpu (or cpu with
// its references) in the same way: same "who vs whom" prefix.
void shrinkAndReport(const diff::Case& c, const std::vector<const Device*>& devices,
                     const diff::CheckOptions& options, const std::string& firstMismatch,
                     const Args& args) {
  const std::string who = firstMismatch.substr(0, firstMismatch.find(':', firstMismatch.find(':') + 1));
  const auto reduced = diff::shrink(c.model, c.inputs, [&](const diff::Reduced& r) {
    diff::Case smaller = c;
    smaller.model = r.model;
    smaller.inputs = r.inputs;
    smaller.otherInputs = r.inputs;
    for (const std::string& m : diff::checkCase(smaller, devices, options).mismatches) {
      if (m.rfind(who, 0) == 0) return true;
    }
    return false;
  });
  diff::Case smaller = c;
  smaller.model = reduced.model;
  smaller.inputs = reduced.inputs;
  smaller.otherInputs = reduced.inputs;
  const auto report = diff::checkCase(smaller, devices, options);
  std::fprintf(stderr, "SHRUNK seed %llu: %zu -> %zu operations; %s\n",
               static_cast<unsigned long long>(c.seed), diff::operationCount(c.model),
               diff::operationCount(reduced.model),
               report.mismatches.empty() ? "(no longer fails)" : report.mismatches.front().c_str());
  std::fprintf(stderr, "%s\ninputs: %s\n", nnfab::writeModel(reduced.model).c_str(),
               nnfab::writeInputs(reduced.inputs).c_str());
  if (!args.dump.empty()) {
    dumpCase(args.dump, "seed-" + std::to_string(c.seed) + ".min", reduced.model, reduced.inputs);
  }
}

}  // namespace

int main(int argc, char** argv) {
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "--help") == 0 || std::strcmp(argv[i], "-h") == 0) {
      usage();
      return 0;
    }
  }
  Args args;
  if (!parseArgs(argc, argv, &args)) {
    usage();
    return 2;
  }
  std::vector<const Device*> devices;
  if (args.devices.empty()) {
    devices = nnfab::allDevices();
  } else {
    for (const std::string& name : args.devices) {
      const Device* d = nnfab::findDevice(name);
      if (d == nullptr) {
        std::fprintf(stderr, "nnfab_diff_long_run: no device '%s' in this build\n", name.c_str());
        return 2;
      }
      devices.push_back(d);
    }
  }
  diff::CheckOptions options;
  options.oracle = args.oracle;
  options.roundTrip = args.roundTrip;
  options.loopTimeoutMs = args.loopTimeoutMs;

  auto counter = std::make_shared<FallbackCounter>();
  spdlog::set_default_logger(std::make_shared<spdlog::logger>("diff", counter));
  spdlog::set_level(spdlog::level::debug);
  std::map<std::string, PlanCensus> plans;

  const auto start = std::chrono::steady_clock::now();
  auto lastProgress = start;
  std::map<std::string, uint64_t> modelsRun;
  std::map<std::string, uint64_t> executions;
  std::map<std::string, uint64_t> failuresByStatus;  // cpu statuses other than NO_ERROR
  std::vector<std::string> mismatches;
  std::vector<uint64_t> badSeeds;
  diff::OracleStats total;
  for (uint64_t k = 0; k < args.count; ++k) {
    const uint64_t seed = args.seed + k;
    const diff::Case c = args.custom ? diff::makeCase(seed, args.options) : diff::makeCase(seed);
    const diff::CaseReport report = diff::checkCase(c, devices, options);
    for (const std::string& name : report.devicesRun) ++modelsRun[name];
    for (const auto& [name, n] : report.executions) executions[name] += n;
    for (const Device* d : devices) {
      if (d->name() != "cpu") countPlan(d->partition(c.model), &plans[std::string(d->name())]);
    }
    if (!report.reference.status.isOk()) {
      ++failuresByStatus[std::string(nnfab::toString(report.reference.status.code()))];
    }
    total.whileLoops += report.oracleStats.whileLoops;
    total.zeroIterationLoops += report.oracleStats.zeroIterationLoops;
    total.ifTaken[0] += report.oracleStats.ifTaken[0];
    total.ifTaken[1] += report.oracleStats.ifTaken[1];
    total.operations += report.oracleStats.operations;
    total.maxIterations = std::max(total.maxIterations, report.oracleStats.maxIterations);
    if (args.verbose) {
      std::fprintf(stderr, "seed %llu: cpu %s\n", static_cast<unsigned long long>(seed),
                   diff::describe(report.reference).c_str());
    }
    if (!report.mismatches.empty()) {
      badSeeds.push_back(seed);
      for (const std::string& m : report.mismatches) {
        mismatches.push_back(m);
        std::fprintf(stderr, "MISMATCH %s\n", m.c_str());
      }
    }
    if (!args.dump.empty() && (args.dumpAll || !report.mismatches.empty())) {
      dumpCase(args.dump, "seed-" + std::to_string(seed), c.model, c.inputs);
    }
    if (args.shrink && !report.mismatches.empty()) {
      shrinkAndReport(c, devices, options, report.mismatches.front(), args);
    }
    const auto now = std::chrono::steady_clock::now();
    if (now - lastProgress > std::chrono::seconds(5) || k + 1 == args.count) {
      lastProgress = now;
      std::fprintf(stderr, "[%llu/%llu] %zu mismatching seeds, %.1f s\n",
                   static_cast<unsigned long long>(k + 1), static_cast<unsigned long long>(args.count),
                   badSeeds.size(), std::chrono::duration<double>(now - start).count());
    }
  }
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();

  std::printf("models: %llu (seeds %llu..%llu)\n", static_cast<unsigned long long>(args.count),
              static_cast<unsigned long long>(args.seed),
              static_cast<unsigned long long>(args.seed + args.count - (args.count ? 1 : 0)));
  std::printf("models run per device:");
  for (const auto& [name, n] : modelsRun) std::printf(" %s=%llu", name.c_str(), static_cast<unsigned long long>(n));
  std::printf("\nexecutions per device (cpu: reference, JSON round trip, other inputs; others: "
              "first run, then 3 on one prepared model):");
  for (const auto& [name, n] : executions) std::printf(" %s=%llu", name.c_str(), static_cast<unsigned long long>(n));
  std::printf("\nreference checks: oracle %s, JSON round trip %s\n", args.oracle ? "on" : "off",
              args.roundTrip ? "on" : "off");
  std::printf("cpu statuses other than NO_ERROR:");
  if (failuresByStatus.empty()) std::printf(" none");
  for (const auto& [status, n] : failuresByStatus) {
    std::printf(" %s=%llu", status.c_str(), static_cast<unsigned long long>(n));
  }
  std::printf("\noracle coverage: %llu operations, %llu WHILE instances (%llu with zero iterations, "
              "at most %llu iterations), IF then/else taken %llu/%llu\n",
              static_cast<unsigned long long>(total.operations),
              static_cast<unsigned long long>(total.whileLoops),
              static_cast<unsigned long long>(total.zeroIterationLoops),
              static_cast<unsigned long long>(total.maxIterations),
              static_cast<unsigned long long>(total.ifTaken[1]),
              static_cast<unsigned long long>(total.ifTaken[0]));
  for (const auto& [name, p] : plans) {
    std::printf("plans on %s: %llu of %llu models use the fabric; %llu fabric steps (%llu operations), "
                "%llu CPU steps, %llu IF and %llu WHILE interpreted by the host\n",
                name.c_str(), static_cast<unsigned long long>(p.modelsOnFabric),
                static_cast<unsigned long long>(p.models), static_cast<unsigned long long>(p.fabricSteps),
                static_cast<unsigned long long>(p.fabricOperations), static_cast<unsigned long long>(p.cpuSteps),
                static_cast<unsigned long long>(p.interpretedIf),
                static_cast<unsigned long long>(p.interpretedWhile));
  }
  const auto fallbacks = counter->counts();
  uint64_t fallbackTotal = 0;
  for (const auto& [reason, n] : fallbacks) fallbackTotal += n;
  std::printf("fabric step runs that fell back to the CPU: %llu\n", static_cast<unsigned long long>(fallbackTotal));
  for (const auto& [reason, n] : fallbacks) {
    std::printf("  %llu x %s\n", static_cast<unsigned long long>(n), reason.c_str());
  }
  std::printf("mismatching seeds: %zu", badSeeds.size());
  for (size_t i = 0; i < badSeeds.size() && i < 50; ++i) {
    std::printf("%s%llu", i ? ", " : " (", static_cast<unsigned long long>(badSeeds[i]));
  }
  std::printf("%s\n", badSeeds.empty() ? "" : (badSeeds.size() > 50 ? ", ...)" : ")"));
  for (size_t i = 0; i < mismatches.size() && i < 20; ++i) std::printf("  %s\n", mismatches[i].c_str());
  std::printf("time: %.1f s\n", seconds);
  return badSeeds.empty() ? 0 : 1;
}
