// Executes a PreparedProgram iteratively: IF and WHILE push frames on an
// explicit stack instead of recursing, so nesting depth costs heap, not C
// stack, and a hostile model cannot overflow it.
#pragma once

#include <memory>
#include <vector>

#include "cpu/frame.h"
#include "cpu/program.h"
#include "model/execution.h"
#include "model/model.h"
#include "model/status.h"

namespace nnfab::cpu {

// Largest single tensor an execution may create (dynamic shapes included).
inline constexpr size_t kMaxTensorBytes = size_t{1} << 30;

class Interpreter {
 public:
  Interpreter(const Model& model, const PreparedProgram& program, const ExecutionOptions& options);
  ~Interpreter();

  // Binds the request inputs (already validated) and runs main to completion.
  Status run(const std::vector<TensorValue>& inputs);
  // The main outputs after a successful run.
  Result<std::vector<TensorValue>> takeOutputs();
  // WHILE entries that ran as register code (scalar_loop.h) so far.
  uint64_t scalarLoopRuns() const { return scalarLoopRuns_; }

 private:
  // The hot path returns bool (false: error_ holds the status) so that a
  // successful operation costs no Status construction.
  Frame* newFrame(uint32_t subgraphIndex);
  bool runKernel(Frame& frame, const ProgramOp& op, OpState& state);
  bool prepareKernelFor(Frame& frame, const ProgramOp& op, OpState& state);
  bool startIf(Frame& frame, const ProgramOp& op, OpState& state);
  bool finishIf(Frame& frame, const ProgramOp& op, OpState& state, Frame& branch);
  bool startWhile(Frame& frame, const ProgramOp& op, OpState& state);
  // A WHILE with a ScalarLoop, run to its end without frames. NOT_TAKEN when
  // its values are not all one-element tensors (or the memory limit is close):
  // the frame path runs it then.
  enum class ScalarRun { DONE, FAILED, NOT_TAKEN };
  ScalarRun runScalarWhile(Frame& frame, const ProgramOp& op, OpState& state);
  class ScalarClock;
  bool resumeWhile(Frame& frame, const ProgramOp& op, OpState& state);
  bool adopt(Frame& frame, uint32_t operandIndex, Slot& produced);
  // Sizes `storage` to `bytes`, counting the change against the execution's
  // memory limit; false (RESOURCE_EXHAUSTED_PERSISTENT) past the limit.
  bool resizeStorage(const Frame& frame, std::vector<uint8_t>& storage, size_t bytes);
  void push(Frame* frame);
  // Reads the clock (the op budget is used up) and checks the deadline and
  // the cancel signal.
  bool tick(const Frame& frame);
  // Records `status` with the location of frame's current operation.
  bool fail(const Frame& frame, Status status);

  const Model& model_;
  const PreparedProgram& program_;
  ExecutionOptions options_;
  std::vector<std::unique_ptr<Frame>> arena_;  // flat ownership: no recursive destruction
  std::vector<Frame*> stack_;
  Frame* main_ = nullptr;
  int64_t budget_ = 0;
  Clock::time_point now_;  // last clock reading: at most kClockBudget units old
  Status error_;
  uint64_t liveBytes_ = 0;  // capacity of every storage this execution allocated
  uint64_t scalarLoopRuns_ = 0;
};

}  // namespace nnfab::cpu
