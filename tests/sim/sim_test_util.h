// Test helpers for the sim device: a SimBackend sized for tests, and one
// program run on both the hls and the sim backend for comparison.
#pragma once

#include <gtest/gtest.h>

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "backends/sim_backend.h"
#include "fabric/fabric_test_util.h"
#include "sim_harness.h"

namespace nnfab::fabric::test {

using backends::SimBackend;
using backends::SimBackendOptions;

// How many random programs a differential test runs: `base` in the regular
// suite, base * NNFAB_SIM_PROGRAM_SCALE for a long run you report.
inline int randomProgramCount(int base) {
  const char* scale = std::getenv("NNFAB_SIM_PROGRAM_SCALE");
  const long factor = scale ? std::strtol(scale, nullptr, 10) : 1;
  return factor > 1 ? static_cast<int>(base * factor) : base;
}

inline SimBackendOptions smallSim() {
  SimBackendOptions o;
  o.memoryBytes = uint64_t{64} << 20;
  return o;
}

inline Outcome runSim(const Asm& a, const std::vector<uint8_t>& image, uint64_t dataBytes,
                      const RunLimits& limits = {}, SimBackendOptions options = smallSim()) {
  SimBackend backend(options);
  return runOn(backend, a.code, image, dataBytes, limits);
}

// The vector-add tests' program: dst = A + B over n INT32 elements with
// the descriptor at 0, A at 64, B at 64 + 4n and the result at 64 + 8n;
// without `tensor` the same program with a NOP in its place, whose cycles
// the tests subtract.
inline Asm vectorAddProgram(uint32_t n, bool tensor) {
  Asm a;
  a.emit(insn::li(1, 64 + 8 * n));
  a.emit(insn::li(2, 64));
  a.emit(insn::li(3, 64 + 4 * n));
  a.emit(tensor ? insn::tensor(isa::kFnADD, isa::kTypeINT32, 1, 2, 3, 0, 0) : insn::nop());
  a.emit(insn::halt());
  return a;
}

// The Verilated core on its own harness over a flat 1 MiB memory: program
// at 0, context at kBenchCtx, data region at kBenchData (the register
// writes of a start, done by hand for tests that shape the memories).
constexpr uint64_t kBenchMemoryBytes = 1 << 20;
constexpr uint32_t kBenchData = 64 * 1024, kBenchCtx = 32 * 1024;

struct HarnessBench {
  std::vector<uint8_t> memory = std::vector<uint8_t>(kBenchMemoryBytes);
  sim::SimHarness harness;

  explicit HarnessBench(const sim::HarnessConfig& config)
      : harness(config, [this](uint64_t a) -> uint8_t* {
          return a + sim::kBeatBytes <= memory.size() ? memory.data() + a : nullptr;
        }) {}

  void write64(uint32_t offset, uint64_t value) {
    harness.writeRegister(offset, static_cast<uint32_t>(value));
    harness.writeRegister(offset + 4, static_cast<uint32_t>(value >> 32));
  }

  // Loads the program and `image` (at kBenchData) and starts the core.
  void start(const Asm& a, const std::vector<uint8_t>& image, uint64_t dataBytes) {
    std::memcpy(memory.data(), a.code.data(), a.code.size() * sizeof(uint64_t));
    // An empty image's data() may be null, which memcpy must not get (UBSan).
    if (!image.empty()) std::memcpy(memory.data() + kBenchData, image.data(), image.size());
    write64(isa::kRegPROG_ADDR, 0);
    harness.writeRegister(isa::kRegPROG_SIZE, static_cast<uint32_t>(a.code.size() * sizeof(uint64_t)));
    write64(isa::kRegDATA_ADDR, kBenchData);
    harness.writeRegister(isa::kRegDATA_SIZE, static_cast<uint32_t>(dataBytes));
    write64(isa::kRegCTX_ADDR, kBenchCtx);
    harness.writeRegister(isa::kRegAP_CTRL, isa::kAP_START);
  }
};

inline std::string firstDifference(const std::vector<uint8_t>& a, const std::vector<uint8_t>& b) {
  if (a.size() != b.size()) return " (sizes " + std::to_string(a.size()) + " and " + std::to_string(b.size()) + ")";
  size_t n = 0;
  std::string out;
  for (size_t i = 0; i < a.size() && n < 8; ++i) {
    if (a[i] == b[i]) continue;
    out += " [" + std::to_string(i) + "] hls " + std::to_string(a[i]) + " sim " + std::to_string(b[i]);
    ++n;
  }
  return out;
}

// The architectural results two runs must agree on exactly.
inline void expectSameArchitecture(const Outcome& hls, const Outcome& sim, const char* what) {
  EXPECT_EQ(sim.report.coreStatus, hls.report.coreStatus) << what << ": " << sim.report.status.message();
  EXPECT_EQ(sim.report.haltPc, hls.report.haltPc) << what;
  EXPECT_EQ(sim.report.faultInfo, hls.report.faultInfo) << what;
  EXPECT_EQ(sim.report.iterations, hls.report.iterations) << what;
  EXPECT_EQ(sim.report.instret, hls.report.instret) << what;
  EXPECT_TRUE(sim.data == hls.data) << what << ": data regions differ" << firstDifference(hls.data, sim.data);
}

}  // namespace nnfab::fabric::test
