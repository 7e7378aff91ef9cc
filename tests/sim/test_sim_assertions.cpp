// The RTL's SystemVerilog assertions run in every sim test (Verilator
// --assert): a failed one must fail the run with its place, not abort the
// process or pass unnoticed. A memory model that answers a write nobody
// issued breaks the AXI rules the data port asserts.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cstdint>
#include <memory>
#include <vector>

#include "sim_harness.h"
#include "sim_test_util.h"
#include "support/sim_stray_write.h"

namespace nnfab::sim {
namespace {

using ::testing::HasSubstr;

TEST(SimAssertions, AnUnaskedWriteResponseFailsTheRunWithTheAssertionsPlace) {
  std::vector<uint8_t> memory(64 * 1024);
  SimHarness harness(HarnessConfig{}, [&memory](uint64_t address) -> uint8_t* {
    return address + kBeatBytes <= memory.size() ? memory.data() + address : nullptr;
  });
  // A well-behaved memory: an idle core clocks without any assertion failing.
  EXPECT_NO_THROW(harness.run(16, false));
  harness.dataMemory().respondUnasked();
  try {
    harness.run(4, false);
    FAIL() << "the core accepted a write response for no write";
  } catch (const RtlAssertionError& e) {
    EXPECT_THAT(e.what(), HasSubstr("nnfab_data_port.sv"));
  }
}

// r1 counts to n, stored at data offset 0 at every step: one write per
// iteration on m_axi_data.
fabric::test::Asm storingLoop(int32_t n) {
  fabric::test::Asm a;
  a.emit(fabric::insn::li(1, 0));
  a.emit(fabric::insn::li(2, n));
  a.emit(fabric::insn::li(3, 1));
  const uint32_t top = a.emit(fabric::insn::alu(isa::kFnADD, 1, 1, 3));
  a.emit(fabric::insn::stw(1, 0, 0));
  a.emit(fabric::insn::brcmp(isa::kFnLT, 1, 2, top, /*backedge=*/true));
  a.emit(fabric::insn::halt());
  return a;
}

// The same kind of break in a run the backend clocks on its own (the
// planted stray write of tests/support/sim_stray_write.h): the run fails at
// once with the assertion's place, and the device is out of use for good.
TEST(SimAssertions, AFailedAssertionPutsTheSimDeviceOutOfUseAndTheProcessGoesOn) {
  using fabric::test::runOn;
  auto tap = std::make_shared<test::SimStrayWrite>(/*after=*/20);
  fabric::test::SimBackendOptions options = fabric::test::smallSim();
  options.tap = tap;
  fabric::test::SimBackend backend(options);
  const fabric::test::Asm loop = storingLoop(1000);
  Result<fabric::DeviceProgram> program = fabric::DeviceProgram::load(backend, loop.code, {}, 64);
  ASSERT_TRUE(program.isOk()) << program.status().message();
  fabric::CoreDriver driver(backend);
  // The run fails at once with the assertion's place, not after a watchdog.
  fabric::RunLimits limits;
  limits.hangTimeout = std::chrono::seconds(60);
  const auto start = std::chrono::steady_clock::now();
  Result<fabric::RunReport> failed = driver.run(program->loaded(), limits);
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(30));
  EXPECT_TRUE(tap->fired());
  ASSERT_FALSE(failed.isOk());
  EXPECT_EQ(failed.status().code(), ErrorStatus::DEVICE_UNAVAILABLE);
  EXPECT_THAT(failed.status().message(), HasSubstr("RTL assertion failed at cycle"));
  EXPECT_THAT(failed.status().message(), HasSubstr("nnfab_data_port.sv"));
  EXPECT_THAT(failed.status().message(), HasSubstr("out of use"));
  EXPECT_EQ(backend.usable().message(), failed.status().message());

  // Out of use for good: registers read 0, a reset does not bring it back,
  // and the next run fails the same way at once.
  EXPECT_EQ(backend.readRegister(isa::kRegID), 0u);
  backend.reset();
  EXPECT_EQ(backend.usable().code(), ErrorStatus::DEVICE_UNAVAILABLE);
  Result<fabric::RunReport> again = driver.run(program->loaded(), limits);
  ASSERT_FALSE(again.isOk());
  EXPECT_EQ(again.status().message(), failed.status().message());

  // A new device in the same process runs the loop.
  fabric::test::SimBackend fresh(fabric::test::smallSim());
  EXPECT_TRUE(fresh.usable().isOk());
  const fabric::test::Outcome o = runOn(fresh, loop.code, {}, 64);
  EXPECT_TRUE(o.report.completed()) << o.report.status.message();
  EXPECT_EQ(fabric::test::word(o.data, 0), 1000);
}

}  // namespace
}  // namespace nnfab::sim
