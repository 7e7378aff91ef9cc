// SystemC elaborates and simulates once per simulation context, and a
// process starts with one. Each test that builds modules calls this first to
// get a new, empty context (the old one is left behind: SystemC cannot
// destroy a context safely), so that a test binary may run many tests.
#pragma once

namespace nnfab::sim::test {

void freshSimulation();

}  // namespace nnfab::sim::test
