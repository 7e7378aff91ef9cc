// First light: registers through AXI4-Lite, the counter loop of docs/isa.md.
#include <filesystem>
#include <iterator>

#include "fabric/registers.h"
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

// Threads of this process now (Linux: one entry per thread in /proc/self/task).
size_t threadCount() {
  return static_cast<size_t>(std::distance(std::filesystem::directory_iterator("/proc/self/task"),
                                           std::filesystem::directory_iterator()));
}

// A sim device starts one thread, its worker. Verilator 5.006's context
// would start a pool of hardware_concurrency() - 1 more for every model,
// all idle (the model is single-threaded); the harness asks for none.
TEST(SimSmoke, ADeviceStartsOnlyItsWorkerThread) {
  const size_t before = threadCount();
  SimBackend backend(smallSim());
  EXPECT_EQ(backend.readRegister(isa::kRegID), isa::kCORE_ID);  // the worker has made the model
  EXPECT_EQ(threadCount(), before + 1);
}

// Issue 15: a configuration register write that would store the value the
// register already holds costs no transaction; every other write does, and
// the register always reads back what was written last (reset: 0).
TEST(SimSmoke, ConfigurationWritesThatChangeNothingAreSkipped) {
  SimBackend backend(smallSim());
  auto cyclesOf = [&](uint32_t offset, uint32_t value) {
    const uint64_t before = backend.simulatedCycles();
    backend.writeRegister(offset, value);
    return backend.simulatedCycles() - before;
  };
  EXPECT_EQ(backend.readRegister(isa::kRegINSN_LIMIT), 0u);
  EXPECT_EQ(cyclesOf(isa::kRegINSN_LIMIT, 0), 0u);  // the reset value
  EXPECT_EQ(backend.skippedWrites(), 1u);
  EXPECT_GT(cyclesOf(isa::kRegINSN_LIMIT, 77), 0u);
  EXPECT_EQ(cyclesOf(isa::kRegINSN_LIMIT, 77), 0u);
  EXPECT_EQ(backend.readRegister(isa::kRegINSN_LIMIT), 77u);
  EXPECT_GT(cyclesOf(isa::kRegLOOP_BUDGET + 4, 5), 0u);  // a high word is its own register word
  EXPECT_EQ(backend.readRegister(isa::kRegLOOP_BUDGET + 4), 5u);
  // TRACE_ADDR (outside the block, written before every profiled start) too.
  EXPECT_GT(cyclesOf(isa::kRegTRACE_ADDR, 0x4000), 0u);
  EXPECT_EQ(cyclesOf(isa::kRegTRACE_ADDR, 0x4000), 0u);
  EXPECT_EQ(cyclesOf(isa::kRegTRACE_ADDR + 4, 0), 0u);
  EXPECT_EQ(readRegister64(backend, isa::kRegTRACE_ADDR), 0x4000u);
  // PREEMPT (cleared by the core) and the handshake are never skipped.
  EXPECT_GT(cyclesOf(isa::kRegPREEMPT, 0), 0u);
  EXPECT_GT(cyclesOf(isa::kRegPREEMPT, 0), 0u);
  backend.reset();
  EXPECT_EQ(backend.readRegister(isa::kRegINSN_LIMIT), 0u);
  EXPECT_GT(cyclesOf(isa::kRegINSN_LIMIT, 77), 0u);  // after reset it holds 0 again
  EXPECT_EQ(backend.readRegister(isa::kRegINSN_LIMIT), 77u);
  EXPECT_EQ(readRegister64(backend, isa::kRegTRACE_ADDR), 0u);
  EXPECT_GT(cyclesOf(isa::kRegTRACE_ADDR, 0x4000), 0u);
  EXPECT_EQ(readRegister64(backend, isa::kRegTRACE_ADDR), 0x4000u);
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
