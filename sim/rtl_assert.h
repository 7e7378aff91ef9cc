// Failed SystemVerilog assertions of the Verilated models. Verilator's own
// vl_stop aborts the process (or only sets a flag); ours, compiled into the
// model library (VL_USER_STOP), records where the assertion is so that the
// harness can throw instead (docs/rtl.md "Assertions").
#pragma once

#include <string>

namespace nnfab::sim {

// "file:line" of the first assertion that failed on this thread since the
// last call, and forgets it; empty if none.
std::string takeRtlAssertionFailure();

}  // namespace nnfab::sim
