// Instruction-level differential tests: random programs run on the hls
// backend (the behavioural reference) and on the sim backend (the RTL)
// through CoreDriver must agree exactly on status, HALT_PC, FAULT_INFO,
// ITERATIONS, INSTRET and the whole data region (registers are dumped into
// it, and compared through the saved context when sliced); CYCLES within the
// tolerance docs/rtl.md explains.
#include <random>

#include "sim/random_program.h"
#include "sim/sim_test_util.h"

namespace nnfab::fabric::test {
namespace {

// Scalar code without loads: the RTL matches the cycle model exactly
// (a load waits for posted stores to be answered: docs/rtl.md).
TEST(SimDifferential, RandomScalarProgramsMatchTheHlsCoreExactlyIncludingCycles) {
  std::mt19937 rng(1);
  HlsBackend hls(smallDevice());
  SimBackend sim(smallSim());
  RandomProgramOptions o;
  o.tensors = false;
  o.faults = false;
  o.loads = false;
  for (int i = 0; i < randomProgramCount(150); ++i) {
    const RandomProgram p = randomProgram(rng, o);
    const Outcome h = runOn(hls, p.a.code, p.image, p.dataBytes);
    const Outcome s = runOn(sim, p.a.code, p.image, p.dataBytes);
    const std::string what = "program " + std::to_string(i);
    expectSameArchitecture(h, s, what.c_str());
    EXPECT_EQ(s.report.cycles, h.report.cycles) << what;
    if (HasFailure()) break;
  }
}

TEST(SimDifferential, RandomProgramsWithTensorsAndFaultsMatchTheHlsCore) {
  std::mt19937 rng(2);
  HlsBackend hls(smallDevice());
  SimBackend sim(smallSim());
  for (int i = 0; i < randomProgramCount(300); ++i) {
    const RandomProgram p = randomProgram(rng);
    const Outcome h = runOn(hls, p.a.code, p.image, p.dataBytes);
    const Outcome s = runOn(sim, p.a.code, p.image, p.dataBytes);
    const std::string what = "program " + std::to_string(i);
    expectSameArchitecture(h, s, what.c_str());
    if (HasFailure()) break;
  }
}

}  // namespace
}  // namespace nnfab::fabric::test
