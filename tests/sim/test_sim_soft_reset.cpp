// The register soft reset on the RTL core (docs/register-map.md "Soft
// reset"): the host watchdog's way to end a run the core does not end
// itself, with AXI transactions in flight, every RTL assertion on (a failed
// one throws out of the backend and fails the test), and the next run on the
// same device right; and a memory that never answers: the soft reset cannot
// complete, the backend's ap_rst_n ends it, with a clear status.
#include <chrono>
#include <thread>

#include "fabric/registers.h"
#include "fabric/soft_reset.h"
#include "sim/sim_test_util.h"

namespace nnfab::fabric::test {
namespace {

using namespace std::chrono_literals;
using std::chrono::steady_clock;

// A run after the reset: the device gives the right result.
void expectRightNextRun(SimBackend& backend) {
  const Outcome out = runOn(backend, counterLoop(500).code, {}, 64);
  EXPECT_TRUE(out.report.completed()) << out.report.status.message();
  EXPECT_EQ(word(out.data, 0), 500);
}

TEST(SimSoftReset, AnEndlessLoopDeafToPreemptIsSoftResetByTheHostWatchdog) {
  SimBackend backend(smallSim());
  backend.injectFault(backends::SimFault::IGNORE_PREEMPT);
  std::vector<uint8_t> image;
  const Asm loop = slowLoop(4096, &image);  // tensor bursts in flight at any moment
  RunLimits limits;
  limits.loopTimeout = 30ms;
  limits.preemptGrace = 50ms;
  const auto start = steady_clock::now();
  const Outcome out = runOn(backend, loop.code, image, image.size(), limits);
  EXPECT_EQ(out.report.status.code(), ErrorStatus::MISSED_DEADLINE_TRANSIENT) << out.report.status.message();
  EXPECT_NE(out.report.status.message().find("was reset"), std::string::npos) << out.report.status.message();
  EXPECT_EQ(out.report.status.message().find("did not complete"), std::string::npos)
      << "the soft reset should have completed: " << out.report.status.message();
  EXPECT_EQ(out.report.coreStatus, isa::kStatusIDLE);
  EXPECT_LT(steady_clock::now() - start, 2s);
  expectRightNextRun(backend);
}

// Started through the registers and reset at different points of the
// tensor loop: every AXI assertion holds, the registers read their
// documented values, and the core runs again. On the default memory and on
// a slow one that keeps AR, AW and W waiting for READY (few outstanding
// bursts, one write beat every third cycle), so that resets land on
// requests the aborted engines withdraw.
void resetAnywhere(SimBackendOptions options) {
  SimBackend backend(options);
  std::vector<uint8_t> image;
  const Asm loop = slowLoop(2048, &image);
  Result<DeviceProgram> p = DeviceProgram::load(backend, loop.code, image, image.size());
  ASSERT_TRUE(p.isOk()) << p.status().message();
  const LoadedProgram& l = p->loaded();
  for (int i = 0; i < 12; ++i) {
    RegisterBatch setup;
    setup.write64(isa::kRegPROG_ADDR, l.program);
    setup.write(isa::kRegPROG_SIZE, l.programBytes);
    setup.write64(isa::kRegDATA_ADDR, l.data);
    setup.write(isa::kRegDATA_SIZE, l.dataBytes);
    setup.write64(isa::kRegCTX_ADDR, l.context);
    setup.write(isa::kRegAP_CTRL, isa::kAP_START);
    setup.run(backend);
    // Different points: the program load, the first tensor, later ones.
    const uint64_t from = backend.simulatedCycles();
    while (backend.simulatedCycles() < from + 40 + 733 * uint64_t(i)) std::this_thread::sleep_for(100us);
    ASSERT_EQ(backend.readRegister(isa::kRegAP_CTRL) & isa::kAP_IDLE, 0u) << "reset " << i;
    ASSERT_TRUE(softReset(backend, 1s)) << "reset " << i;
    RegisterBatch look;
    const size_t ctrl = look.read(isa::kRegAP_CTRL);
    const size_t status = look.read(isa::kRegSTATUS);
    const size_t haltPc = look.read(isa::kRegHALT_PC);
    const size_t cycles = look.read64(isa::kRegCYCLES);
    const size_t instret = look.read64(isa::kRegINSTRET);
    const size_t preempt = look.read(isa::kRegPREEMPT);
    const size_t progAddr = look.read64(isa::kRegPROG_ADDR);
    look.run(backend);
    EXPECT_EQ(look.value(ctrl), isa::kAP_IDLE) << "reset " << i << ": idle, no AP_DONE";
    EXPECT_EQ(look.value(status), isa::kStatusIDLE);
    EXPECT_EQ(look.value(haltPc), 0u);
    EXPECT_EQ(look.value64(cycles), 0u);
    EXPECT_EQ(look.value64(instret), 0u);
    EXPECT_EQ(look.value(preempt), 0u);
    EXPECT_EQ(look.value64(progAddr), l.program) << "the host's arguments stay";
  }
  expectRightNextRun(backend);
}

TEST(SimSoftReset, ResetAnywhereInATensorLoopLeavesTheDocumentedState) { resetAnywhere(smallSim()); }

TEST(SimSoftReset, ResetAnywhereOnASlowMemoryLeavesTheDocumentedState) {
  SimBackendOptions options = smallSim();
  options.memory.maxOutstandingReads = 1;
  options.memory.maxOutstandingWrites = 1;
  options.memory.readBeatInterval = 2;
  options.memory.writeBeatInterval = 3;
  options.memory.writeResponseLatency = 7;
  resetAnywhere(options);
}

TEST(SimSoftReset, AnIdleCoreIsSoftResetToo) {
  SimBackend backend(smallSim());
  expectRightNextRun(backend);
  EXPECT_EQ(backend.readRegister(isa::kRegSTATUS), isa::kStatusDONE);
  EXPECT_EQ(resetCore(backend), ResetOutcome::SOFT);
  EXPECT_EQ(backend.readRegister(isa::kRegSTATUS), isa::kStatusIDLE);
  expectRightNextRun(backend);
}

TEST(SimSoftReset, AMemoryThatNeverAnswersEndsInTheBackendsResetWithAClearStatus) {
  SimBackend backend(smallSim());
  backend.injectFault(backends::SimFault::HANG);
  RunLimits limits;
  limits.hangTimeout = 100ms;
  limits.resetTimeout = 100ms;
  const auto start = steady_clock::now();
  const Outcome out = runOn(backend, counterLoop(10).code, {}, 64, limits);
  EXPECT_EQ(out.report.status.code(), ErrorStatus::GENERAL_FAILURE) << out.report.status.message();
  EXPECT_NE(out.report.status.message().find("soft reset did not complete within 100 ms"), std::string::npos)
      << out.report.status.message();
  EXPECT_EQ(out.report.coreStatus, isa::kStatusIDLE);
  EXPECT_LT(steady_clock::now() - start, 2s);
  expectRightNextRun(backend);
}

}  // namespace
}  // namespace nnfab::fabric::test
