// nnfab: run NN HAL 1.3 models with control flow on the CPU reference or the
// fabric. stdout carries only results; everything else goes to stderr.
#include <fmt/format.h>
#include <spdlog/sinks/stdout_sinks.h>
#include <spdlog/spdlog.h>

#include <cstdio>
#include <exception>
#include <functional>
#include <map>

#include "cli/commands.h"
#include "cli/file_io.h"

int main(int argc, char** argv) {
  using namespace nnfab::cli;
  // spdlog's default logger writes to stdout, which belongs to the result.
  spdlog::set_default_logger(spdlog::stderr_logger_st("nnfab"));
  spdlog::set_level(spdlog::level::warn);

  CLI::App app{"nnfab: NN HAL 1.3 models with control flow on an FPGA fabric or the CPU"};
  app.require_subcommand(1);
  bool verbose = false;
  app.add_flag("-v,--verbose", verbose, "Log progress to stderr");
  std::map<CLI::App*, std::function<int()>> commands;
  auto add = [&](std::function<int()> (*adder)(CLI::App&)) {
    const size_t before = app.get_subcommands({}).size();
    auto runner = adder(app);
    commands[app.get_subcommands({})[before]] = std::move(runner);
  };
  add(addRunCommand);
  add(addValidateCommand);
  add(addDevicesCommand);
  add(addPartitionCommand);
  add(addDisasmCommand);
  add(addImportCommand);
  add(addDiffCommand);
#ifdef NNFAB_HAS_BENCH_COMMAND
  add(addBenchCommand);
#endif

  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    if (e.get_exit_code() == 0) {  // --help
      app.exit(e);
      return kExitOk;
    }
    // CLI11's own exit codes (105, 106, ...) would break the documented contract.
    return usageError(fmt::format("{} (see --help)", e.what()));
  }
  if (verbose) spdlog::set_level(spdlog::level::debug);

  for (auto& [cmd, runner] : commands) {
    if (!cmd->parsed()) continue;
    try {
      return finishStdout(runner());
    } catch (const std::exception& e) {
      // fmt throws when a write to stdout fails (the disk is full).
      if (std::ferror(stdout)) return finishStdout(kExitOk);
      // Should not happen (components return Status), but if it does the caller
      // still gets a result it can parse rather than a crash.
      fmt::print("{{\"status\": \"GENERAL_FAILURE\", \"message\": \"internal error\"}}\n");
      fmt::print(stderr, "nnfab: internal error: {}\n", e.what());
      return finishStdout(kExitErrorStatus);
    }
  }
  return usageError("no command given (see --help)");
}
