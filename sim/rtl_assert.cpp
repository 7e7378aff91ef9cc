#include "rtl_assert.h"

#include <verilated.h>

namespace {
thread_local std::string firstFailure;
}

// Replaces Verilator's vl_stop (VL_USER_STOP): $error/$fatal of an assertion
// end here. Verilator has already printed the message; mark the context as
// failed and remember the first place, without aborting.
void vl_stop(const char* filename, int linenum, const char* hier) VL_MT_UNSAFE {
  Verilated::threadContextp()->gotError(true);
  Verilated::threadContextp()->gotFinish(true);
  if (firstFailure.empty()) {
    firstFailure = std::string(filename ? filename : "?") + ":" + std::to_string(linenum);
    if (hier && hier[0]) firstFailure += std::string(" in ") + hier;
  }
}

namespace nnfab::sim {

std::string takeRtlAssertionFailure() {
  std::string failure;
  failure.swap(firstFailure);
  return failure.empty() ? std::string("(no location)") : failure;
}

}  // namespace nnfab::sim
