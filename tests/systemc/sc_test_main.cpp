// SystemC's library owns main() and calls sc_main: GoogleTest runs from here.
#include <cstdlib>

#include <gtest/gtest.h>
#include <systemc>  // declares sc_main extern "C"

#include "sc_reporting.h"

namespace {
// Before SystemC's first context prints its banner on stdout, which would
// also break gtest_discover_tests' reading of the test list.
const bool kQuietSystemC = [] { return setenv("SC_COPYRIGHT_MESSAGE", "DISABLE", 1) == 0; }();
}  // namespace

#if defined(__SANITIZE_ADDRESS__)
// The asan preset's build: LeakSanitizer cannot check a SystemC process at
// its exit (its tracer faults scanning SystemC's coroutine stacks, and a
// thread stopped at the simulated time limit is never unwound, so its
// locals would read as leaks). AddressSanitizer itself still runs.
extern "C" const char* __asan_default_options() { return "detect_leaks=0"; }
#endif

int sc_main(int argc, char** argv) {
  (void)kQuietSystemC;
  testing::InitGoogleTest(&argc, argv);
  nnfab::sim::routeSystemCReportsToStderr();
  return RUN_ALL_TESTS();
}
