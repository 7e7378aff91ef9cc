// The RTL's SystemVerilog assertions run in every sim test (Verilator
// --assert): a failed one must fail the run with its place, not abort the
// process or pass unnoticed. A memory model that answers a write nobody
// issued breaks the AXI rules the data port asserts.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include "sim_harness.h"

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

}  // namespace
}  // namespace nnfab::sim
