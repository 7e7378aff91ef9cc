// Test helpers for the sim device: a SimBackend sized for tests, and one
// program run on both the hls and the sim backend for comparison.
#pragma once

#include <gtest/gtest.h>

#include <cstdint>
#include <cstdlib>
#include <string>
#include <vector>

#include "backends/sim_backend.h"
#include "fabric/fabric_test_util.h"

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
