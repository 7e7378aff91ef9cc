// NNAPI's IF and WHILE as every nnfab executor applies them: the CPU
// interpreter (interpreter.cpp) and the plan executor that runs IF/WHILE
// around fabric steps (runtime/plan_executor.cpp) take from here which
// operands go where, how a condition is read and when a loop has timed out
// (docs/nnapi-semantics.md §3, §4), so that the two cannot drift apart.
#pragma once

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <optional>

#include "model/status.h"

namespace nnfab::cpu::control_flow {

// IF inputs: the BOOL8 condition, the then and else subgraphs, then the
// values bound to the taken branch's inputs in order.
inline constexpr size_t kIfCondition = 0;
inline constexpr size_t kIfThen = 1;
inline constexpr size_t kIfFirstBranchInput = 3;

// WHILE inputs: the cond and body subgraphs, then the loop values — the m
// input-output values, the k state-only values, the input-only values. Cond
// and body both take all of them; the body produces the first m + k; the
// WHILE's outputs are the first m.
inline constexpr size_t kWhileCond = 0;
inline constexpr size_t kWhileBody = 1;
inline constexpr size_t kWhileFirstLoopInput = 2;

// A BOOL8 condition: its first byte, non-zero meaning true; nullopt when
// it has no value.
inline std::optional<bool> condition(const uint8_t* data, size_t bytes) {
  if (data == nullptr || bytes < 1) return std::nullopt;
  return data[0] != 0;
}

// Which of an IF's two subgraphs runs: 0 then, 1 else.
inline uint32_t takenBranch(bool condition) { return condition ? 0 : 1; }

// NNAPI checks after every true condition, before the body runs, whether the
// loop has run longer than its timeout; a zero timeout is exceeded at once.
inline bool loopTimedOut(std::chrono::nanoseconds elapsed, std::chrono::nanoseconds timeout) {
  return timeout <= std::chrono::nanoseconds::zero() || elapsed > timeout;
}

// MISSED_DEADLINE_TRANSIENT, with how long and how far the loop ran.
Status loopTimeout(std::chrono::nanoseconds elapsed, uint64_t iterations, std::chrono::nanoseconds timeout);
// GENERAL_FAILURE: the cond subgraph left its output without a value.
Status noCondition();

}  // namespace nnfab::cpu::control_flow
