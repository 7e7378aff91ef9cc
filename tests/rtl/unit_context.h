// The Verilator context of a unit bench: one simulation thread, the test's.
// Verilator 5.006's context defaults to one per hardware thread and starts a
// pool of idle workers for every model that joins it; the unit models are
// Verilated single-threaded (sim/sim_harness.cpp sets the same for the core).
#pragma once

#include <verilated.h>

namespace nnfab::rtl_test {

struct UnitContext : VerilatedContext {
  UnitContext() { threads(1); }
};

}  // namespace nnfab::rtl_test
