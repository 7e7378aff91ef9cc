// Runs a partitioned model (plan.h) for one execution at a time, any number
// of executions at once: operand values live per subgraph frame in host
// memory; FABRIC steps compile for the actual input dimensions (cached) and
// run on the FabricEngine; CPU steps run their sub-model on the CPU executor;
// interpreted IF/WHILE run on the host with NNAPI's loop timeout. A FABRIC
// step that cannot be compiled or run is retried on the CPU (partial
// fallback, docs/nnapi-semantics.md §6.4) unless a loop timeout or the deadline
// ended it. Results and statuses equal the cpu device's. See docs/runtime.md.
#pragma once

#include <chrono>
#include <memory>
#include <mutex>
#include <vector>

#include "cpu/cpu_executor.h"
#include "model/execution.h"
#include "model/status.h"
#include "runtime/fabric_engine.h"
#include "runtime/plan.h"
#include "runtime/program_cache.h"
#include "runtime/value.h"

namespace nnfab::runtime {

class PlanExecutor {
 public:
  // `whole` runs the entire model on the CPU and owns the model the plan
  // describes; its model must outlive nothing else (the executor keeps it).
  PlanExecutor(std::shared_ptr<const cpu::CpuExecutor> whole, Plan plan, FabricEngine& engine);
  ~PlanExecutor();

  // Prepares every CPU step's sub-model and compiles every FABRIC step whose
  // inputs all have static shapes. A program that can never fit the device
  // memory is left to the CPU executor (as NNAPI falls back to the CPU when a
  // device cannot prepare), so this fails only when a CPU step cannot be
  // prepared.
  Status prepare();

  // What an execution takes at least on an idle device: the cycle model's
  // lower bounds of main's FABRIC steps compiled by prepare() (cycle_bound.h).
  std::chrono::nanoseconds minimumTime() const { return minimumTime_; }

  // `inputs` are already validated against the model. A deadline closer
  // than minimumTime() is MISSED_DEADLINE_PERSISTENT before anything runs.
  ExecutionResult execute(const std::vector<TensorValue>& inputs, const ExecutionOptions& options) const;

  const Plan& plan() const { return plan_; }

  // The compilation cache's view: the programs of FABRIC steps, by step.
  struct StepProgram {
    uint32_t subgraph = 0;
    uint32_t step = 0;  // index in the subgraph's plan
    ProgramCache::Key key;
    compiler::Program program;
  };
  // Every program compiled so far.
  std::vector<StepProgram> programs() const;
  // Before prepare(): programs compiled earlier for this plan (from the
  // cache), which prepare() and executions then use without compiling.
  // Entries that name no FABRIC step of the plan are ignored.
  void seed(std::vector<StepProgram> programs);
  const Model& model() const { return whole_->model(); }

 private:
  struct PreparedStep;
  struct Run;
  struct Activation;
  using Frame = std::vector<Value>;

  Frame makeFrame(uint32_t subgraph) const;
  // Runs main's plan to its end with main's values in `mainFrame`.
  Status runPlan(Frame& mainFrame, Run& run) const;
  Status runCpu(const PreparedStep& prepared, Frame& frame, Run& run) const;
  Status runFabric(const PreparedStep& prepared, Frame& frame, Run& run) const;
  // Profiling (ExecutionOptions::trace): the span of a CPU or FABRIC step.
  void traceStep(const PreparedStep& prepared, Clock::time_point start, Run& run) const;
  // Observing (ExecutionOptions::observer): a finished step of the
  // activation at stack[depth], whose enclosing IF/WHILE are stack[0, depth).
  void observeStep(const std::vector<Activation>& stack, size_t depth, const PreparedStep& prepared,
                   std::string_view ranOn, Run& run) const;
  // Interpreted IF/WHILE: push the branch (or the cond) on the stack, or run
  // the operation whole on the CPU when a value it reads is missing.
  Status enterIf(const PreparedStep& prepared, std::vector<Activation>& stack, Run& run) const;
  Status enterWhile(const PreparedStep& prepared, std::vector<Activation>& stack, Run& run) const;
  // Pushes the cond or body of the WHILE the top activation is paused at.
  void pushLoopPart(std::vector<Activation>& stack, uint32_t subgraph) const;
  // A branch, cond or body finished: its outputs go to the operation that
  // pushed it, which moves on (IF, loop exit) or pushes the next part.
  Status returnTo(std::vector<Activation>& stack, Activation& finished, Run& run) const;
  // The step as a CPU sub-model, prepared on first use.
  Result<const cpu::CpuExecutor*> cpuExecutorFor(const PreparedStep& prepared) const;
  // Whether every value an interpreted IF/WHILE reads is present.
  bool inputsPresent(const PreparedStep& prepared, const Frame& frame) const;

  std::shared_ptr<const cpu::CpuExecutor> whole_;
  Plan plan_;
  FabricEngine& engine_;
  std::vector<std::vector<std::unique_ptr<PreparedStep>>> steps_;  // [subgraph][step]
  std::chrono::nanoseconds minimumTime_{0};
};

}  // namespace nnfab::runtime
