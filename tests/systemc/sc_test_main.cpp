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

int sc_main(int argc, char** argv) {
  (void)kQuietSystemC;
  testing::InitGoogleTest(&argc, argv);
  nnfab::sim::routeSystemCReportsToStderr();
  return RUN_ALL_TESTS();
}
