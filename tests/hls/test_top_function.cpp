// The HLS top function called directly, as a Vitis HLS C-simulation
// testbench would: INSN_LIMIT slices, the context area's layout (the context
// table of docs/isa.md), MODE.RESUME, the PREEMPT word, WATCHDOG_STATE.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <vector>

#include "fabric/insn.h"
#include "nnfab_core.h"
#include "isa/data_windows.h"
#include "nnfab_isa.h"

namespace nnfab {
namespace {

namespace in = fabric::insn;

struct Top {
  std::vector<uint64_t> prog;
  std::vector<uint32_t> data = std::vector<uint32_t>(16, 0);
  std::vector<uint32_t> ctx = std::vector<uint32_t>(isa::kCONTEXT_BYTES / 4, 0xDEADBEEF);
  uint32_t preempt = 0;
  uint32_t watchdog = 0, status = 0, haltPc = 0, faultInfo = 0, features = 0, id = 0, version = 0;
  uint64_t cycles = 0, iterations = 0, instret = 0;
  uint32_t traceCount = 0, traceDropped = 0;
  uint64_t classCycles[isa::kNumTraceClasses] = {};
  uint64_t trace[isa::kTRACE_DEPTH] = {};
  uint64_t* traceMem = nullptr;  // TRACE_ADDR

  void call(uint32_t mode, uint32_t insnLimit, uint64_t loopBudget = 0, uint64_t execBudget = 0) {
    nnfab_core(prog.data(), data.data(), ctx.data(), static_cast<uint32_t>(prog.size() * 8),
               static_cast<uint32_t>(data.size() * 4), mode, insnLimit, loopBudget, execBudget, &preempt, &watchdog,
               &status, &haltPc, &faultInfo, &features, &cycles, &iterations, &instret, &id, &version,
               &traceCount, &traceDropped, &classCycles[0], &classCycles[1], &classCycles[2], &classCycles[3],
               &classCycles[4], traceMem, trace, data.data(), data.data(), isa::kNoWindowStart, isa::kNoWindowStart);
  }
  uint64_t ctx64(uint32_t word) const { return (uint64_t{ctx[word + 1]} << 32) | ctx[word]; }
};

TEST(HlsTopFunction, SliceSavesTheContextTableAndResumeContinues) {
  Top t;
  t.prog = {in::li(5, -9), in::wdarm(), in::wdarm(), in::li(6, 3), in::jmp(5, true),
            in::alu(isa::kFnMUL, 7, 5, 6), in::wdoff(), in::stw(7, 0, 8), in::halt()};
  t.call(0, 5);
  EXPECT_EQ(t.status, isa::kStatusSLICE_END);
  EXPECT_EQ(t.haltPc, 5u);
  EXPECT_EQ(t.id, isa::kCORE_ID);
  EXPECT_EQ(t.version, isa::kIsaVersion);
  // FLOAT32, FC, the trace ring and its write to TRACE_ADDR
  EXPECT_EQ(t.features, isa::kFEATURE_FLOAT32 | isa::kFEATURE_FC | isa::kFEATURE_TRACE | isa::kFEATURE_TRACE_DMA |
                isa::kFEATURE_TRACE_HEADER);
  EXPECT_EQ(t.instret, 5u);
  EXPECT_EQ(t.iterations, 1u);
  EXPECT_EQ(t.watchdog, (1u << 31) | 2u);  // armed, two WDARMs
  // The context table.
  EXPECT_EQ(t.ctx[isa::kCtxMAGIC], isa::kCONTEXT_MAGIC);
  EXPECT_EQ(t.ctx[isa::kCtxPC], 5u);
  EXPECT_EQ(t.ctx[isa::kCtxWD_ARMED], 1u);
  EXPECT_EQ(t.ctx[isa::kCtxWD_ARMS], 2u);
  const uint64_t load = isa::kCycle_mem_latency + 2;  // 72 bytes: 2 beats
  EXPECT_EQ(t.ctx64(isa::kCtxLOOP_START), load + 2);  // the second WDARM issued at cycle load + 2
  EXPECT_EQ(t.ctx64(isa::kCtxCYCLES), load + 5);
  EXPECT_EQ(t.ctx64(isa::kCtxITERATIONS), 1u);
  EXPECT_EQ(t.ctx64(isa::kCtxINSTRET), 5u);
  EXPECT_EQ(t.ctx[isa::kCtxREGS + 0], 0u);
  EXPECT_EQ(t.ctx[isa::kCtxREGS + 5], static_cast<uint32_t>(-9));
  EXPECT_EQ(t.ctx[isa::kCtxREGS + 6], 3u);
  EXPECT_EQ(t.ctx[isa::kCtxREGS + 31], 0u);

  t.call(isa::kModeResume, 0);
  EXPECT_EQ(t.status, isa::kStatusDONE);
  EXPECT_EQ(static_cast<int32_t>(t.data[2]), -27);
  EXPECT_EQ(t.instret, 9u);
  EXPECT_EQ(t.cycles, load + 9);
  EXPECT_EQ(t.watchdog, 2u);  // disarmed, count kept
}

TEST(HlsTopFunction, PreemptWordStopsAtTheFirstBoundary) {
  Top t;
  t.prog = {in::li(1, 1), in::halt()};
  t.preempt = isa::kPreemptRequest;
  t.call(0, 0);
  EXPECT_EQ(t.status, isa::kStatusPREEMPTED);
  EXPECT_EQ(t.haltPc, 0u);
  EXPECT_EQ(t.instret, 0u);
  EXPECT_EQ(t.ctx[isa::kCtxMAGIC], isa::kCONTEXT_MAGIC);
  t.preempt = 0;
  t.call(isa::kModeResume, 0);
  EXPECT_EQ(t.status, isa::kStatusDONE);
  EXPECT_EQ(t.instret, 2u);
}

TEST(HlsTopFunction, ResumeRejectsAContextItCannotHaveWritten) {
  Top t;
  t.prog = {in::halt()};
  t.call(0, 0);
  ASSERT_EQ(t.status, isa::kStatusDONE);
  t.call(isa::kModeResume, 0);  // ctx was never written: 0xDEADBEEF
  EXPECT_EQ(t.status, isa::kStatusBAD_CONTEXT);
  EXPECT_EQ(t.faultInfo, 0xDEADBEEFu);
  std::fill(t.ctx.begin(), t.ctx.end(), 0u);
  t.ctx[isa::kCtxMAGIC] = isa::kCONTEXT_MAGIC;
  t.ctx[isa::kCtxREGS] = 5;  // r0 must be 0
  t.call(isa::kModeResume, 0);
  EXPECT_EQ(t.status, isa::kStatusBAD_CONTEXT);
  t.ctx[isa::kCtxREGS] = 0;
  t.ctx[isa::kCtxWD_ARMED] = 2;
  t.call(isa::kModeResume, 0);
  EXPECT_EQ(t.status, isa::kStatusBAD_CONTEXT);
  t.ctx[isa::kCtxWD_ARMED] = 0;
  t.call(isa::kModeResume, 0);
  EXPECT_EQ(t.status, isa::kStatusDONE);
}

TEST(HlsTopFunction, BudgetsStopAtTheExactBoundary) {
  // wdarm at cycle L (after the program load), then a 1-cycle infinite loop:
  // LOOP_TIMEOUT at the first boundary where CYCLES - LOOP_START > budget.
  Top t;
  t.prog = {in::wdarm(), in::jmp(1)};
  const uint64_t load = isa::kCycle_mem_latency + 1;
  t.call(0, 0, /*loopBudget=*/1000);
  EXPECT_EQ(t.status, isa::kStatusLOOP_TIMEOUT);
  EXPECT_EQ(t.cycles - load, 1001u);
  EXPECT_EQ(t.haltPc, 1u);
  // EXEC_BUDGET: stops when CYCLES reaches it.
  t.call(0, 0, 0, /*execBudget=*/5000);
  EXPECT_EQ(t.status, isa::kStatusEXEC_TIMEOUT);
  EXPECT_EQ(t.cycles, 5000u);
  // An unarmed loop ignores LOOP_BUDGET.
  t.prog = {in::nop(), in::jmp(1)};
  t.call(0, 0, 10, 3000);
  EXPECT_EQ(t.status, isa::kStatusEXEC_TIMEOUT);
}

// The stop writes the ring to TRACE_ADDR (docs/isa.md "Trace ring"):
// exactly TRACE_COUNT entries, the ring's own, nothing past them (an empty
// ring writes nothing); nothing without MODE.TRACE.
TEST(HlsTopFunction, TheStopWritesTheRingToTraceAddr) {
  constexpr uint64_t kPattern = 0x5A5A5A5A5A5A5A5Aull;
  Top t;
  // r1 counts to n: the entry test, then n back edges.
  auto loop = [](int32_t n) {
    return std::vector<uint64_t>{in::li(1, 0), in::li(2, n), in::li(3, 1), in::brcmp(isa::kFnGE, 1, 2, 6),
                                 in::alu(isa::kFnADD, 1, 1, 3), in::brcmp(isa::kFnLT, 1, 2, 4, true), in::halt()};
  };
  // The area (header beat, then TRACE_DEPTH entries) with 8 guard words
  // on either side.
  constexpr uint32_t kGuard = 8, kHeader = isa::kTRACE_HEADER_BYTES / 8;
  std::vector<uint64_t> area(kGuard + kHeader + isa::kTRACE_DEPTH + kGuard, kPattern);
  t.traceMem = area.data() + kGuard;
  for (int32_t n : {-1, 0, 12, 300}) {  // -1: no branch at all, an empty ring; 300: a full ring
    std::fill(area.begin(), area.end(), kPattern);
    t.prog = n < 0 ? std::vector<uint64_t>{in::halt()} : loop(n);
    t.call(isa::kMODE_TRACE, 0);
    ASSERT_EQ(t.status, isa::kStatusDONE);
    const uint32_t expected = n < 0 ? 0u : std::min<uint32_t>(static_cast<uint32_t>(n) + 1, isa::kTRACE_DEPTH);
    ASSERT_EQ(t.traceCount, expected) << n;
    EXPECT_EQ(t.traceDropped, n == 300 ? 301u - isa::kTRACE_DEPTH : 0u) << n;
    // The header beat: the registers' values at the word indices of
    // isa.json trace_header_words, the rest 0 (written for an empty ring too).
    uint32_t header[isa::kTRACE_HEADER_BYTES / 4];
    std::memcpy(header, area.data() + kGuard, sizeof(header));
    EXPECT_EQ(header[isa::kTraceHdrCOUNT], t.traceCount) << n;
    EXPECT_EQ(header[isa::kTraceHdrDROPPED], t.traceDropped) << n;
    uint64_t classSum = 0;
    for (uint32_t k = 0; k < isa::kNumTraceClasses; ++k) {
      EXPECT_EQ(header[isa::kTraceHdrCLASS_CYCLES + 2 * k], static_cast<uint32_t>(t.classCycles[k])) << n;
      EXPECT_EQ(header[isa::kTraceHdrCLASS_CYCLES + 2 * k + 1], static_cast<uint32_t>(t.classCycles[k] >> 32)) << n;
      classSum += t.classCycles[k];
    }
    EXPECT_GT(classSum, 0u) << n;
    for (uint32_t w = isa::kTraceHdrZERO; w < isa::kTRACE_HEADER_BYTES / 4; ++w) EXPECT_EQ(header[w], 0u) << n;
    for (uint32_t i = 0; i < area.size(); ++i) {
      if (i >= kGuard && i < kGuard + kHeader) continue;  // the header, above
      if (i >= kGuard + kHeader && i - kGuard - kHeader < t.traceCount) {
        EXPECT_EQ(area[i], t.trace[i - kGuard - kHeader]) << "n " << n << " entry " << i - kGuard - kHeader;
      } else {
        EXPECT_EQ(area[i], kPattern) << "n " << n << ": word " << i << " outside the header and entries was written";
      }
    }
  }
  // Without MODE.TRACE the area is untouched.
  std::fill(area.begin(), area.end(), kPattern);
  t.prog = loop(12);
  t.call(0, 0);
  EXPECT_EQ(t.status, isa::kStatusDONE);
  for (uint64_t w : area) EXPECT_EQ(w, kPattern);
}

}  // namespace
}  // namespace nnfab
