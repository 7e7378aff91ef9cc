// The nnfab subcommands. Each registers its options on the CLI11 app and
// returns the process exit code: 0 success, 1 a result with an error status
// was printed, 2 usage error (message on stderr).
#pragma once

#include <CLI/CLI.hpp>

#include <functional>

namespace nnfab::cli {

inline constexpr int kExitOk = 0;
inline constexpr int kExitErrorStatus = 1;
inline constexpr int kExitUsage = 2;

// Adds the subcommand; the returned function runs it after a successful parse.
std::function<int()> addRunCommand(CLI::App& app);
std::function<int()> addValidateCommand(CLI::App& app);
std::function<int()> addDevicesCommand(CLI::App& app);
std::function<int()> addPartitionCommand(CLI::App& app);
std::function<int()> addDisasmCommand(CLI::App& app);
std::function<int()> addImportCommand(CLI::App& app);  // ONNX -> JSON (docs/onnx.md)
std::function<int()> addDiffCommand(CLI::App& app);    // first divergence between two devices
std::function<int()> addBenchCommand(CLI::App& app);  // where the build has bench/

}  // namespace nnfab::cli
