// The CPU reference executor: runs a whole model, IF and WHILE included, with
// NNAPI's loop timeout and execution deadline. It is the golden reference for
// every fabric device and their fallback, so it is exact first and fast second.
#pragma once

#include <memory>
#include <vector>

#include "model/execution.h"
#include "model/model.h"
#include "model/status.h"

namespace nnfab::cpu {

struct PreparedProgram;  // the model lowered for interpretation (program.h)

class CpuExecutor {
 public:
  // Validates the model (NNAPI runtime rules) and checks that every operation
  // is implemented; INVALID_ARGUMENT otherwise.
  static Result<std::unique_ptr<CpuExecutor>> prepare(Model model);
  ~CpuExecutor();

  // Thread-safe: each call has its own execution state.
  ExecutionResult execute(const std::vector<TensorValue>& inputs,
                          const ExecutionOptions& options) const;

  const Model& model() const { return model_; }

 private:
  CpuExecutor(Model model, std::unique_ptr<PreparedProgram> program);
  Model model_;
  std::unique_ptr<PreparedProgram> program_;
};

// Every operation of the model the CPU executor can run (IF/WHILE included),
// with a reason for each one it cannot; indexed like main.operations.
struct SupportReport {
  std::vector<bool> supported;   // per main operation (IF/WHILE: recursively)
  std::vector<std::string> why;  // empty where supported
};
SupportReport getSupportedOperations(const Model& model);

}  // namespace nnfab::cpu
