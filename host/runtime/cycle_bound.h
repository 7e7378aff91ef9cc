// How long a fabric program takes AT LEAST on an idle core, by the cycle
// model of docs/isa.md: the deadline check that fails an execution before
// it starts (MISSED_DEADLINE_PERSISTENT) must never fail one that could
// have finished, so this is a lower bound, not an estimate. Loop trip
// counts are data, so every loop counts as skipped (the cheapest path from
// pc 0 to a HALT 0), and a tensor instruction is charged its fixed cost
// and its write traffic only. See docs/qos.md "Deadlines".
#pragma once

#include <chrono>
#include <cstdint>

#include "compiler/compiler.h"

namespace nnfab::runtime {

// Cycles: program load plus the cheapest completing path; 0 when no path
// reaches a HALT 0 (the program can only fail, which takes no time to know).
uint64_t lowerBoundCycles(const compiler::Program& program);

// The same at a kernel clock, rounded down.
std::chrono::nanoseconds lowerBoundTime(const compiler::Program& program, double clockMhz);

}  // namespace nnfab::runtime
