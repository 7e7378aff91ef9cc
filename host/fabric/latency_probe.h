// Timestamps at the hand-offs of one HIGH request, for finding where its
// latency goes (docs/performance.md, issue 15). Off unless the process
// starts with NNFAB_LATENCY_PROBE=1: then each mark() is one load of a
// constant and an untaken branch. The benchmark opens a sample before it
// submits a HIGH execution and closes it when the result is in its hands;
// every mark in between records the first time its point is passed (one
// HIGH request at a time: the marks carry no request identity).
#pragma once

#include <array>
#include <cstdint>

namespace nnfab::fabric::latency_probe {

enum class Mark : uint8_t {
  EXECUTION_RAISED, // the HIGH execution's plan starts (its thread raised where permitted)
  SCHEDULER_LOCKED, // the arriving HIGH step holds the scheduler's lock
  NUDGE,            // the arriving HIGH step asks the holder to yield
  PREEMPT_WRITTEN,  // PREEMPT written to the core
  CORE_STOPPED,     // the core stopped at an instruction boundary (preempted)
  HOLDER_RELEASED,  // the preempted holder parked and released the core
  GRANTED,          // the HIGH step holds the core
  LOADED,           // its program, data and context are in device memory
  TO_WORKER,        // hls: a real-time writer's start went on to the worker thread
  CORE_DONE,        // the HIGH step's run ended (CoreDriver returned)
  CORE_RELEASED,    // the HIGH step gave the core up (the next step granted)
  OUTPUTS_READ,     // its results are read back from device memory
  STEP_DONE,        // the HIGH step's results are read back, the core released
  RESULT_BUILT,     // the HIGH execution's outputs are copied into its result
  API_RETURN,       // the API hands the result back (PreparedModel::execute)
  kCount,
};
inline constexpr int kMarks = static_cast<int>(Mark::kCount);

// NNFAB_LATENCY_PROBE=1 in the environment at start-up.
extern const bool kEnabled;

const char* name(Mark mark);
void markSlow(Mark mark);
inline void mark(Mark mark) {
  if (kEnabled) [[unlikely]] markSlow(mark);
}

// A sample starts now (the HIGH request's submission).
void open();
// Closes it: per mark, nanoseconds after open(), or -1 where it was not passed.
std::array<int64_t, kMarks> close();

}  // namespace nnfab::fabric::latency_probe
