// First light: registers through AXI4-Lite, the counter loop of docs/isa.md.
#include "sim/sim_test_util.h"

namespace nnfab::fabric::test {
namespace {

TEST(SimSmoke, IdAndVersionThroughAxiLite) {
  SimBackend backend(smallSim());
  EXPECT_EQ(backend.readRegister(isa::kRegID), isa::kCORE_ID);
  EXPECT_EQ(backend.readRegister(isa::kRegISA_VERSION), isa::kIsaVersion);
  EXPECT_EQ(backend.readRegister(isa::kRegAP_CTRL) & isa::kAP_IDLE, isa::kAP_IDLE);
  EXPECT_GT(backend.simulatedCycles(), 0u);
}

TEST(SimSmoke, CounterLoop) {
  const Asm a = counterLoop(10);
  const Outcome hls = run(a, {}, 64);
  const Outcome sim = runSim(a, {}, 64);
  EXPECT_CORE_STATUS(sim, isa::kStatusDONE);
  EXPECT_EQ(word(sim.data, 0), 10);
  expectSameArchitecture(hls, sim, "counter loop");
  EXPECT_EQ(sim.report.cycles, hls.report.cycles);
}

}  // namespace
}  // namespace nnfab::fabric::test
