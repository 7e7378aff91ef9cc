// nnfab_platform: projects one execution of a model on an Alveo card with
// the SystemC platform model (docs/platform-model.md). stdout carries one
// JSON object; progress and the human summary go to stderr. Exit codes as
// nnfab's: 0 success, 1 the run failed or its outputs differ from the CPU
// executor's, 2 usage error.
#include <cstdlib>
#include <iostream>
#include <string>

#include <CLI/CLI.hpp>
#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "model/files.h"
#include "cpu/cpu_executor.h"
#include "model/json_io.h"
#include "platform_params.h"
#include "platform_run.h"
#include "sc_reporting.h"

namespace {

// Before SystemC's first simulation context prints its banner on stdout.
const bool kQuietSystemC = [] { return setenv("SC_COPYRIGHT_MESSAGE", "DISABLE", 1) == 0; }();

constexpr int kExitOk = 0;
constexpr int kExitFailed = 1;
constexpr int kExitUsage = 2;

struct Args {
  std::string modelPath, inputsPath, card = "u250", wait = "irq";
  std::optional<double> ddrLatencyNs, ddrWriteLatencyNs, ddrReadGBps, ddrWriteGBps;
  std::optional<double> h2dGBps, d2hGBps, transferUs, mmioReadNs, mmioWriteNs, irqNs;
  double pollNs = 1000;
  uint32_t outstanding = 32;
  uint64_t memoryMiB = 1024;
  double limitMs = 100;
  bool sharedBank = false;
};

// Exit 2 with the message on stderr, as `nnfab` does for usage errors.
int usageError(const std::string& message) {
  fmt::print(stderr, "nnfab_platform: {}\n", message);
  return kExitUsage;
}

int fail(nlohmann::json out, const std::string& message) {
  out["status"] = "FAILED";
  out["message"] = message;
  std::cout << out.dump(2) << std::endl;
  std::cerr << "nnfab_platform: " << message << "\n";
  return kExitFailed;
}

int run(const Args& a) {
  using namespace nnfab;
  auto card = sim::cardProfile(a.card);
  if (!card) return usageError(fmt::format("unknown card '{}' (u250, u280, u280-hbm)", a.card));
  auto set = [](const std::optional<double>& from, double* to) {
    if (from) *to = *from;
  };
  set(a.ddrLatencyNs, &card->memory.latencyNs);
  set(a.ddrWriteLatencyNs, &card->memory.writeLatencyNs);
  set(a.ddrReadGBps, &card->memory.readGBps);
  set(a.ddrWriteGBps, &card->memory.writeGBps);
  set(a.h2dGBps, &card->pcie.h2dGBps);
  set(a.d2hGBps, &card->pcie.d2hGBps);
  set(a.transferUs, &card->pcie.transferUs);
  set(a.mmioReadNs, &card->pcie.mmioReadNs);
  set(a.mmioWriteNs, &card->pcie.mmioWriteNs);
  set(a.irqNs, &card->pcie.interruptNs);

  std::string error;
  const auto modelText = readFile(a.modelPath, &error);
  if (!modelText) return usageError(error);
  const auto inputsText = readFile(a.inputsPath, &error);
  if (!inputsText) return usageError(error);
  nlohmann::json out = {{"model", a.modelPath}, {"card", a.card}};
  auto model = parseModel(*modelText);
  if (!model.isOk()) return fail(out, "model file: " + model.status().message());
  auto inputs = parseInputs(*inputsText, *model);
  if (!inputs.isOk()) return fail(out, "inputs file: " + inputs.status().message());

  auto program = sim::compileMainStep(*model, *inputs);
  if (!program.isOk()) return fail(out, "the fabric cannot run this model: " + program.status().message());

  auto cpu = cpu::CpuExecutor::prepare(*model);
  if (!cpu.isOk()) return fail(out, "CPU executor: " + cpu.status().message());
  const ExecutionResult expected = (*cpu)->execute(*inputs, ExecutionOptions{});

  sim::PlatformOptions options;
  options.card = *card;
  options.memoryBytes = a.memoryMiB << 20;
  options.maxOutstanding = a.outstanding;
  options.useInterrupt = a.wait == "irq";
  options.pollNs = a.pollNs;
  options.limitMs = a.limitMs;
  options.windowsPerChannel = !a.sharedBank;
  // Wall-clock loop watchdogs mean nothing in simulated time: none.
  fabric::RunLimits limits;
  sim::routeSystemCReportsToStderr();
  std::cerr << fmt::format("nnfab_platform: {} instructions, {} data bytes on {}\n", program->code.size(),
                           program->dataBytes, a.card);
  const sim::PlatformRun run = sim::runOnPlatform(options, *program, *inputs, limits);
  out["projection"] = sim::toJson(run.projection);
  std::cerr << sim::describe(run.projection);
  if (!run.status.isOk()) return fail(out, "platform run: " + run.status.message());
  if (!expected.status.isOk()) return fail(out, "the CPU executor failed: " + expected.status.message());
  if (const std::string diff = sim::compareOutputs(expected.outputs, run.outputs); !diff.empty()) {
    return fail(out, "the platform's outputs differ from the CPU executor's: " + diff);
  }
  out["status"] = "NO_ERROR";
  out["outputs_match_cpu"] = true;
  std::cout << out.dump(2) << std::endl;
  return kExitOk;
}

}  // namespace

int sc_main(int argc, char** argv) {
  (void)kQuietSystemC;
  Args a;
  CLI::App app{"Project one execution of a model on an Alveo card (SystemC platform model)", "nnfab_platform"};
  app.add_option("model", a.modelPath, "Model file (JSON)")->required();
  app.add_option("--inputs", a.inputsPath, "Inputs file (JSON)")->required();
  app.add_option("--card", a.card, "u250 (default), u280 or u280-hbm");
  app.add_option("--ddr-latency-ns", a.ddrLatencyNs, "Memory read latency per transaction");
  app.add_option("--ddr-write-latency-ns", a.ddrWriteLatencyNs, "Memory write response latency");
  app.add_option("--ddr-read-gbps", a.ddrReadGBps, "Read bandwidth per channel (GB/s)");
  app.add_option("--ddr-write-gbps", a.ddrWriteGBps, "Write bandwidth per channel (GB/s)");
  app.add_option("--pcie-h2d-gbps", a.h2dGBps, "Host-to-card DMA bandwidth (GB/s)");
  app.add_option("--pcie-d2h-gbps", a.d2hGBps, "Card-to-host DMA bandwidth (GB/s)");
  app.add_option("--pcie-transfer-us", a.transferUs, "Fixed cost of one DMA transfer (us)");
  app.add_option("--mmio-read-ns", a.mmioReadNs, "Register read round trip (ns)");
  app.add_option("--mmio-write-ns", a.mmioWriteNs, "Register write cost (ns)");
  app.add_option("--irq-ns", a.irqNs, "Interrupt to host waiter (ns)");
  app.add_option("--wait", a.wait, "irq (default) or poll")->check(CLI::IsMember({"irq", "poll"}));
  app.add_option("--poll-ns", a.pollNs, "Poll interval with --wait poll (ns)")->check(CLI::PositiveNumber);
  app.add_option("--outstanding", a.outstanding, "Bursts in flight per AXI4 bridge")->check(CLI::Range(1u, 256u));
  app.add_option("--memory-mib", a.memoryMiB, "Device memory modelled (MiB)")->check(CLI::Range(1ull, 16384ull));
  app.add_flag("--shared-bank", a.sharedBank,
               "Put the data region's windows in one memory channel (default: one channel each where the "
               "memory has them, e.g. u280-hbm)");
  app.add_option("--limit-ms", a.limitMs, "Simulated time after which the execution is abandoned (default 100)")
      ->check(CLI::PositiveNumber);
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    const int code = app.exit(e, std::cerr, std::cerr);
    return code == 0 ? kExitOk : kExitUsage;
  }
  for (const std::optional<double>* v : {&a.ddrLatencyNs, &a.ddrWriteLatencyNs, &a.mmioReadNs, &a.mmioWriteNs,
                                         &a.irqNs, &a.transferUs}) {
    if (*v && !(**v >= 0)) return usageError("latencies must be non-negative");
  }
  for (const std::optional<double>* v : {&a.ddrReadGBps, &a.ddrWriteGBps, &a.h2dGBps, &a.d2hGBps}) {
    if (*v && !(**v > 0)) return usageError("bandwidths must be positive");
  }
  const int code = run(a);
  // A result that could not be written (a full disk) is not a success.
  if (!std::cout.flush()) {
    fmt::print(stderr, "nnfab_platform: writing to standard output failed\n");
    return kExitUsage;
  }
  return code;
}
